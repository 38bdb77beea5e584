/**
 * In-memory test doubles of the ports the dispatch use-case needs, for unit tests only (the
 * integration tests run the same use-case on the DynamoDB/SQS adapters).
 */

import type { Clock, LogAttributes, Logger, Metrics } from '@tickring/core/common';
import type { RingEntry, RouteState } from '@tickring/core/dispatch';
import type { DispatchDeps } from '@tickring/core/dispatch/use-cases';
import type { ExecutorTarget, ExecutorTransport, RegistryEntry } from '@tickring/core/executors';
import type { Group, Job } from '@tickring/core/jobs';
import type { Alarm, AlarmPublisher, ReportDelta } from '@tickring/core/runs';
import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';
import { testGroup, testJob } from './dispatch-fixtures.js';
import { MemoryGroupStore as GroupStoreInMemory } from './memory/group-store.js';
import { MemoryJobStore as JobStoreInMemory } from './memory/job-store.js';
import { MemoryRegistryStore } from './memory/registry-store.js';
import { MemoryReportStore } from './memory/report-store.js';
import { MemoryRingQueue } from './memory/ring-queue.js';
import { MemoryRouteStateStore } from './memory/route-state-store.js';
import { MemoryRunStore } from './memory/run-store.js';
import { MemorySlowTracker } from './memory/slow-tracker.js';

/** Moved to memory/run-store.ts (the full in-memory RunStore); still exported from here. */
export { MemoryRunStore };

const unused = (name: string) => () => {
  throw new Error(`${name} is not used by the dispatcher`);
};

/** Time moves only when the code sleeps (or the test sets it). */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public current: number) {}
  now(): number {
    return this.current;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    if (ms > 0) this.current += ms;
  }
}

/** The in-memory JobStore (memory/job-store.ts), recording each read and slow mark. */
export class MemoryJobStore extends JobStoreInMemory {
  readonly slowMarks: { id: number; untilMs: number }[] = [];
  /** The ids of each read, one entry per call: `get` as a one-id list. */
  readonly reads: { method: 'get' | 'getMany'; ids: number[] }[] = [];
  override async get(id: number): Promise<Job | undefined> {
    this.reads.push({ method: 'get', ids: [id] });
    return super.get(id);
  }
  override async getMany(ids: readonly number[]): Promise<Job[]> {
    this.reads.push({ method: 'getMany', ids: [...ids] });
    return super.getMany(ids);
  }
  override async markSlow(id: number, untilMs: number): Promise<void> {
    this.slowMarks.push({ id, untilMs });
    await super.markSlow(id, untilMs);
  }
}

/** The in-memory GroupStore (memory/group-store.ts), counting reads. */
export class MemoryGroupStore extends GroupStoreInMemory {
  reads = 0;
  override async get(appName: string): Promise<Group | undefined> {
    this.reads++;
    return super.get(appName);
  }
}

/** The in-memory RegistryStore (memory/registry-store.ts), counting lists. */
export class MemoryRegistry extends MemoryRegistryStore {
  reads = 0;
  override async list(appName: string, seenSince?: number): Promise<RegistryEntry[]> {
    this.reads++;
    return super.list(appName, seenSince);
  }
}

/** The in-memory RouteStateStore (memory/route-state-store.ts), whose puts can be made to lose a race. */
export class MemoryRouteStates extends MemoryRouteStateStore {
  /** Before the next N puts, someone else writes (the put then loses the race). */
  interleavedWrites = 0;
  puts = 0;
  override async put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean> {
    this.puts++;
    if (this.interleavedWrites > 0) {
      // Another dispatcher routed the job meanwhile (a ROUND step of its own).
      this.interleavedWrites--;
      const current = this.items.get(jobId);
      const theirs = current?.state ?? state;
      const advanced = theirs.kind === 'ROUND' ? { ...theirs, count: theirs.count + 1 } : theirs;
      this.items.set(jobId, { state: advanced, version: (current?.version ?? 0) + 1 });
    }
    return super.put(jobId, state, expectedVersion);
  }
}

/** Moved to memory/slow-tracker.ts; still exported from here. */
export { MemorySlowTracker };

/** The in-memory ring (memory/ring-queue.ts), recording every entry enqueued. */
export class RecordingRing extends MemoryRingQueue {
  readonly entries: RingEntry[] = [];
  override async enqueue(entries: readonly RingEntry[]): Promise<void> {
    this.entries.push(...entries);
    await super.enqueue(entries);
  }
}

/** The in-memory ReportStore (memory/report-store.ts), recording every delta added. */
export class RecordingReports extends MemoryReportStore {
  readonly deltas: { day: string; delta: ReportDelta; appName?: string }[] = [];
  override async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    this.deltas.push({ day, delta, ...(appName === undefined ? {} : { appName }) });
    await super.add(day, delta, appName);
  }
}

export class RecordingAlarms implements AlarmPublisher {
  readonly alarms: Alarm[] = [];
  async publish(alarm: Alarm): Promise<boolean> {
    this.alarms.push(alarm);
    return true;
  }
}

export interface SentTrigger {
  readonly address: string;
  readonly param: TriggerParam;
  readonly at: number;
}

/**
 * Executors by address: `run` answers `replies[address]` (default code 200), beat/idleBeat answer
 * 500 for addresses listed in `dead` / `busy`; every call is recorded with the clock's time.
 */
export class ScriptedTransport implements ExecutorTransport {
  readonly sent: SentTrigger[] = [];
  readonly probes: { kind: 'beat' | 'idleBeat'; address: string }[] = [];
  readonly replies = new Map<string, ReturnT<unknown>>();
  readonly dead = new Set<string>();
  readonly busy = new Set<string>();
  /** Each run call advances the clock this much (a slow executor). */
  runTakesMs = 0;

  constructor(private readonly clock: ManualClock) {}

  async run({ address }: ExecutorTarget, param: TriggerParam): Promise<ReturnT<unknown>> {
    this.sent.push({ address, param, at: this.clock.now() });
    this.clock.current += this.runTakesMs;
    return this.replies.get(address) ?? { code: 200 };
  }
  async beat({ address }: ExecutorTarget): Promise<ReturnT<unknown>> {
    this.probes.push({ kind: 'beat', address });
    return this.dead.has(address) ? { code: 500, msg: 'connect refused' } : { code: 200 };
  }
  async idleBeat({ address }: ExecutorTarget): Promise<ReturnT<unknown>> {
    this.probes.push({ kind: 'idleBeat', address });
    return this.busy.has(address)
      ? { code: 500, msg: 'job thread is running or has trigger queue.' }
      : { code: 200 };
  }
  kill = unused('kill');
  log = unused('log') as () => Promise<ReturnT<LogResult>>;
}

export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; attributes?: LogAttributes }[] = [];
  debug(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'debug', message, attributes });
  }
  info(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'info', message, attributes });
  }
  warn(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'warn', message, attributes });
  }
  error(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'error', message, attributes });
  }
}

export class RecordingMetrics implements Metrics {
  readonly values: { name: string; value: number }[] = [];
  add(name: string, _unit: string, value: number): void {
    this.values.push({ name, value });
  }
  sum(name: string): number {
    return this.values.filter((v) => v.name === name).reduce((n, v) => n + v.value, 0);
  }
}

/** Every double wired together, with one job (id 1) in one MANUAL group of two executors. */
export function memoryDispatchDeps(now = Date.UTC(2030, 0, 1, 12, 0, 0, 0)) {
  const clock = new ManualClock(now);
  const doubles = {
    clock,
    runs: new MemoryRunStore(),
    jobs: new MemoryJobStore(),
    groups: new MemoryGroupStore(),
    registry: new MemoryRegistry({ clock }),
    routeStates: new MemoryRouteStates(),
    slowTracker: new MemorySlowTracker(),
    ring: new RecordingRing(),
    reports: new RecordingReports(),
    alarms: new RecordingAlarms(),
    transport: new ScriptedTransport(clock),
    logger: new RecordingLogger(),
    metrics: new RecordingMetrics(),
    random: () => 0.5,
  };
  doubles.jobs.jobs.set(1, testJob({ id: 1, appName: 'app-a' }));
  doubles.groups.groups.set(
    'app-a',
    testGroup({
      appName: 'app-a',
      addressType: 'MANUAL',
      addressList: ['http://10.0.0.1:9999/', 'http://10.0.0.2:9999/'],
    }),
  );
  const deps: DispatchDeps = doubles;
  return { ...doubles, deps };
}
