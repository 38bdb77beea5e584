import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Linux's USER_HZ: /proc CPU times are in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ChildStat {
  readonly pid: number;
  readonly command: string;
  readonly rssBytes: number;
  readonly cpuSeconds: number;
}

/** Direct children of this process, read from /proc (Linux only; empty elsewhere). */
function childProcesses(): ChildStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => readChild(Number(entry)) ?? []);
}

/** One process's RSS and CPU time if it is a child of this process. */
function readChild(pid: number): ChildStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ... utime stime ..."; comm may contain spaces, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    if (Number(fields[1]) !== process.pid) return undefined;
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { pid, command, rssBytes: rssKb * 1024, cpuSeconds: cpuTicks / CLOCK_TICKS_PER_SECOND };
  } catch {
    return undefined; // gone between listing and reading, or not Linux
  }
}

export interface ResourceReport {
  readonly wallSeconds: number;
  readonly node: {
    readonly rssPeakBytes: number;
    readonly heapUsedPeakBytes: number;
    readonly cpuSeconds: number;
    /** CPU seconds per wall second: 1.0 = one core busy. */
    readonly cpuCores: number;
    readonly eventLoopDelayP99Ms: number;
    readonly eventLoopDelayMaxMs: number;
  };
  /** DynamoDB Local's JVM (the bench's only child process), when it can be read. */
  readonly jvm?: {
    readonly rssPeakBytes: number;
    readonly cpuSeconds: number;
    readonly cpuCores: number;
  };
}

/**
 * Samples this process's memory (and the JVM child's RSS) every `intervalMs` and measures CPU and
 * event-loop delay between `start()` and `stop()`.
 */
export class ResourceSampler {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private cpuAtStart = process.cpuUsage();
  private jvmCpuAtStart = 0;
  private rssPeak = 0;
  private heapPeak = 0;
  private jvmRssPeak = 0;
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 20 });

  constructor(private readonly intervalMs = 250) {}

  start(): void {
    this.startedAt = performance.now();
    this.cpuAtStart = process.cpuUsage();
    this.jvmCpuAtStart = jvm()?.cpuSeconds ?? 0;
    this.loopDelay.reset();
    this.loopDelay.enable();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref(); // never what keeps the process alive, even if stop() is not reached
  }

  stop(): ResourceReport {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    this.loopDelay.disable();
    const wallSeconds = (performance.now() - this.startedAt) / 1000;
    const cpu = process.cpuUsage(this.cpuAtStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const javaNow = jvm();
    return {
      wallSeconds,
      node: {
        rssPeakBytes: this.rssPeak,
        heapUsedPeakBytes: this.heapPeak,
        cpuSeconds,
        cpuCores: cpuSeconds / wallSeconds,
        eventLoopDelayP99Ms: this.loopDelay.percentile(99) / 1e6,
        eventLoopDelayMaxMs: this.loopDelay.max / 1e6,
      },
      ...(javaNow
        ? {
            jvm: {
              rssPeakBytes: this.jvmRssPeak,
              cpuSeconds: javaNow.cpuSeconds - this.jvmCpuAtStart,
              cpuCores: (javaNow.cpuSeconds - this.jvmCpuAtStart) / wallSeconds,
            },
          }
        : {}),
    };
  }

  private sample(): void {
    const memory = process.memoryUsage();
    this.rssPeak = Math.max(this.rssPeak, memory.rss);
    this.heapPeak = Math.max(this.heapPeak, memory.heapUsed);
    this.jvmRssPeak = Math.max(this.jvmRssPeak, jvm()?.rssBytes ?? 0);
  }
}

let jvmPid: number | undefined;

/** The JVM child (DynamoDB Local); its pid is looked up once and then read directly. */
function jvm(): ChildStat | undefined {
  if (jvmPid !== undefined) {
    const known = readChild(jvmPid);
    if (known) return known;
  }
  const found = childProcesses().find((c) => c.command === 'java');
  jvmPid = found?.pid;
  return found;
}
