import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Linux's USER_HZ: /proc CPU times are in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ChildStat {
  readonly pid: number;
  readonly command: string;
  readonly rssBytes: number;
  readonly cpuSeconds: number;
}

/**
 * Children and grandchildren of this process (DynamoDB Local's JVM runs under a `sh -c` that stops
 * it with its parent), read from /proc (Linux only; empty elsewhere).
 */
function descendantProcesses(): ChildStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const all = entries.flatMap((entry) => readProcess(Number(entry)) ?? []);
  const children = new Set(all.filter((p) => p.parent === process.pid).map((p) => p.pid));
  return all.filter((p) => children.has(p.pid) || children.has(p.parent));
}

/**
 * CPU seconds a child or grandchild of this process has used, found by its command (`comm`, e.g.
 * `redis-server`); undefined when there is none (or off Linux).
 */
export function descendantCpuSeconds(command: string): number | undefined {
  return descendantProcesses().find((p) => p.command === command)?.cpuSeconds;
}

/** One process's RSS and CPU time, if it is this process's child or grandchild. */
function readDescendant(pid: number): ChildStat | undefined {
  const found = readProcess(pid);
  if (!found) return undefined;
  if (found.parent === process.pid || readProcess(found.parent)?.parent === process.pid) return found;
  return undefined;
}

function readProcess(pid: number): (ChildStat & { readonly parent: number }) | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ... utime stime ..."; comm may contain spaces, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const parent = Number(fields[1]);
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { pid, parent, command, rssBytes: rssKb * 1024, cpuSeconds: cpuTicks / CLOCK_TICKS_PER_SECOND };
  } catch {
    return undefined; // gone between listing and reading, or not Linux
  }
}

/** CPU seconds one thread of this process has used (Linux: /proc/self/task/<tid>/stat); undefined elsewhere. */
export function threadCpuSeconds(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The CPU seconds of these threads together; undefined when there are none or one cannot be read. */
function threadsCpuSeconds(tids: readonly number[]): number | undefined {
  if (tids.length === 0) return undefined;
  let sum = 0;
  for (const tid of tids) {
    const seconds = threadCpuSeconds(tid);
    if (seconds === undefined) return undefined;
    sum += seconds;
  }
  return sum;
}

/** The OS thread id of the calling thread (a worker's own, in a worker), undefined off Linux. */
export function currentThreadId(): number | undefined {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1));
  } catch {
    return undefined;
  }
}

/** CPU of one part of the process over the measurement. */
export interface CpuShare {
  readonly cpuSeconds: number;
  /** CPU seconds per wall second. */
  readonly cpuCores: number;
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
    /**
     * The process's CPU by thread, when /proc tells: the main thread (every hosted function, the
     * pollers, the gateway, and SQLite's statements, which run on the calling thread), the executors'
     * worker thread, and the rest (GC and compiler threads, libuv's pool).
     */
    readonly threads?: {
      readonly main: CpuShare;
      readonly executors?: CpuShare;
      readonly other: CpuShare;
    };
  };
  /** DynamoDB Local's JVM (the bench's only java descendant), when it can be read. */
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
  private mainAtStart: number | undefined;
  private executorsAtStart: number | undefined;

  /** `executorThreads`: the OS thread ids of the executors' workers, whose CPU is reported apart. */
  constructor(
    private readonly intervalMs = 250,
    private readonly executorThreads: readonly number[] = [],
  ) {}

  start(): void {
    this.startedAt = performance.now();
    this.cpuAtStart = process.cpuUsage();
    this.mainAtStart = threadCpuSeconds(process.pid);
    this.executorsAtStart = threadsCpuSeconds(this.executorThreads);
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
    const share = (seconds: number): CpuShare => ({ cpuSeconds: seconds, cpuCores: seconds / wallSeconds });
    const mainNow = threadCpuSeconds(process.pid);
    const executorsNow = threadsCpuSeconds(this.executorThreads);
    const main =
      mainNow === undefined || this.mainAtStart === undefined ? undefined : mainNow - this.mainAtStart;
    const executors =
      executorsNow === undefined || this.executorsAtStart === undefined
        ? undefined
        : executorsNow - this.executorsAtStart;
    const threads =
      main === undefined
        ? undefined
        : {
            main: share(main),
            ...(executors === undefined ? {} : { executors: share(executors) }),
            other: share(Math.max(0, cpuSeconds - main - (executors ?? 0))),
          };
    return {
      wallSeconds,
      node: {
        rssPeakBytes: this.rssPeak,
        heapUsedPeakBytes: this.heapPeak,
        cpuSeconds,
        cpuCores: cpuSeconds / wallSeconds,
        eventLoopDelayP99Ms: this.loopDelay.percentile(99) / 1e6,
        eventLoopDelayMaxMs: this.loopDelay.max / 1e6,
        ...(threads ? { threads } : {}),
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

/** The JVM (DynamoDB Local), a child or grandchild; its pid is looked up once and then read directly. */
function jvm(): ChildStat | undefined {
  if (jvmPid !== undefined) {
    const known = readDescendant(jvmPid);
    if (known) return known;
  }
  const found = descendantProcesses().find((c) => c.command === 'java');
  jvmPid = found?.pid;
  return found;
}
