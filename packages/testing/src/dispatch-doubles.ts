/**
 * In-memory test doubles of the ports the dispatch use-case needs, for unit tests only (the
 * integration tests run the same use-case on the DynamoDB/SQS adapters).
 */

import type { Clock, LogAttributes, Logger, Metrics } from '@tickring/core/common';
import type {
  RingEntry,
  RingQueue,
  RouteState,
  RouteStateStore,
  SlowTracker,
  VersionedRouteState,
} from '@tickring/core/dispatch';
import type { DispatchDeps } from '@tickring/core/dispatch/use-cases';
import type {
  ExecutorTarget,
  ExecutorTransport,
  RegistryEntry,
  RegistryStore,
} from '@tickring/core/executors';
import type { Group, GroupStore, Job, JobStore } from '@tickring/core/jobs';
import type { Alarm, AlarmPublisher, ReportDelta, ReportStore } from '@tickring/core/runs';
import {
  type CreateFireResult,
  type DispatchEntry,
  firstPlannedLogId,
  jobIdOfLogId,
  OUTCOME_GRACE_MS,
  type Run,
  type RunStore,
  TRIGGER_CODE,
  type TriggerRefusal,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from '@tickring/core/runs';
import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';
import { testGroup, testJob } from './dispatch-fixtures.js';

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

interface MemoryRun extends Run {
  claimAt: number;
  claimToken: string;
}

export class MemoryRunStore implements RunStore {
  readonly fires = new Map<string, { readonly logIds: readonly number[]; readonly claimToken: string }>();
  readonly runs = new Map<number, MemoryRun>();
  /** Outcome-pending marks (a refused trigger sets one): logId → due time. */
  readonly outcomePending = new Map<number, number>();
  /** What dispatchers recorded as sent, by claim token. */
  readonly dispatched = new Map<string, DispatchEntry[]>();
  private sequence = 0;
  private tokens = 0;
  /** Fail the next N createFire calls with this error (a lost transaction). */
  failCreateFire: { times: number; error: Error } | undefined;

  async allocateLogIds(jobId: number, count: number): Promise<number[]> {
    return Array.from({ length: count }, () => unplannedLogId(jobId, this.sequence++));
  }
  newClaimToken(nowMs: number): string {
    return `claim-${nowMs}-${++this.tokens}`;
  }
  async createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    if (this.failCreateFire && this.failCreateFire.times > 0) {
      this.failCreateFire.times--;
      throw this.failCreateFire.error;
    }
    const existing = this.fires.get(dedupKey);
    if (existing) {
      return existing.claimToken === claimToken
        ? { created: true }
        : { created: false, logIds: existing.logIds };
    }
    this.fires.set(dedupKey, { logIds: runs.map((r) => r.logId), claimToken });
    for (const run of runs) this.put(run, claimToken);
    return { created: true };
  }
  /** The next claim is stored but its answer is lost (the caller sees this error). */
  loseClaimAnswer: Error | undefined;
  async claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    if (this.failCreateFire && this.failCreateFire.times > 0) {
      this.failCreateFire.times--;
      throw this.failCreateFire.error;
    }
    const lost = this.loseClaimAnswer;
    this.loseClaimAnswer = undefined;
    if (lost && !this.runs.has(run.logId)) {
      this.put(run, claimToken);
      throw lost;
    }
    const existing = this.runs.get(run.logId);
    if (existing) {
      return existing.claimToken === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
    }
    this.put(run, claimToken);
    return { created: true };
  }
  async recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    this.dispatched.set(claimToken, [...(this.dispatched.get(claimToken) ?? []), ...entries]);
  }
  async dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    return new Set((this.dispatched.get(claimToken) ?? []).map((e) => e.logId));
  }
  async get(logId: number): Promise<Run | undefined> {
    return this.runs.get(logId);
  }
  async getMany(logIds: readonly number[]): Promise<MemoryRun[]> {
    return logIds.flatMap((id) => this.runs.get(id) ?? []);
  }
  async reclaim(
    logId: number,
    claim: {
      previousToken: string;
      claimToken: string;
      nowMs: number;
      staleBeforeMs: number;
      triggerMsg?: string;
    },
  ): Promise<boolean> {
    const run = this.runs.get(logId);
    if (
      run?.claimToken !== claim.previousToken ||
      !(run.claimAt < claim.staleBeforeMs) ||
      run.triggerCode !== 200 ||
      run.handleCode !== 0
    ) {
      return false;
    }
    const triggerMsg = claim.triggerMsg ?? run.triggerMsg;
    this.runs.set(logId, { ...run, claimAt: claim.nowMs, claimToken: claim.claimToken, triggerMsg });
    return true;
  }
  /** How often the order check read a job's partition. */
  laterReads = 0;
  async laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined> {
    this.laterReads++;
    const end = firstPlannedLogId(jobIdOfLogId(logId)) + UNPLANNED_LOG_ID_OFFSET;
    const later = this.all()
      .filter((r) => r.logId > logId && r.logId < end)
      .sort((a, b) => a.logId - b.logId)[0];
    return later && { logId: later.logId, scheduledTime: later.scheduledTime };
  }
  async skipClaimed(
    logId: number,
    skip: {
      claimToken: string;
      triggerMsg: string;
      nowMs: number;
      takeOver?: { previousToken: string; staleBeforeMs: number };
    },
  ): Promise<boolean> {
    const run = this.runs.get(logId);
    const claimed = skip.takeOver
      ? run?.claimToken === skip.takeOver.previousToken && run.claimAt < skip.takeOver.staleBeforeMs
      : run?.claimToken === skip.claimToken;
    const codes = skip.takeOver ? [200] : [200, 500];
    if (!run || !claimed || !codes.includes(run.triggerCode) || run.handleCode !== 0) return false;
    this.outcomePending.delete(logId);
    this.runs.set(logId, {
      ...run,
      triggerCode: TRIGGER_CODE.skipped,
      triggerMsg: skip.triggerMsg,
      executorAddress: '',
      dispatchedAt: 0,
      claimToken: skip.claimToken,
      claimAt: skip.takeOver ? skip.nowMs : run.claimAt,
    });
    return true;
  }
  /** Each job's catch-up mark, and every attempt to take one. */
  readonly catchUps = new Map<number, { at: number; fireKey: string }>();
  readonly catchUpAttempts: { jobId: number; missedTime: number; fireKey: string; won: boolean }[] = [];
  async takeCatchUp(
    jobId: number,
    mark: { missedTime: number; nowMs: number; fireKey: string },
  ): Promise<boolean> {
    const held = this.catchUps.get(jobId);
    const won = !held || held.at < mark.missedTime || held.fireKey === mark.fireKey;
    if (won) this.catchUps.set(jobId, { at: mark.nowMs, fireKey: mark.fireKey });
    this.catchUpAttempts.push({ jobId, missedTime: mark.missedTime, fireKey: mark.fireKey, won });
    return won;
  }
  async recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean> {
    const run = this.runs.get(logId);
    if (run?.claimToken !== claimToken || run.triggerCode !== 200 || run.handleCode !== 0) return false;
    const { executorAddress, triggerCode, triggerMsg, dispatchedAt } = refusal;
    this.runs.set(logId, { ...run, executorAddress, triggerCode, triggerMsg, dispatchedAt });
    this.outcomePending.set(logId, refusal.dispatchedAt + OUTCOME_GRACE_MS);
    return true;
  }
  complete = unused('complete');
  async clearOutcomePending(logId: number): Promise<void> {
    this.outcomePending.delete(logId);
  }
  findOutcomePending = unused('findOutcomePending');
  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    const run = this.runs.get(logId);
    if (run) this.runs.set(logId, { ...run, alarmStatus });
  }
  list = unused('list');
  findUnfinished = unused('findUnfinished');

  private put(run: Run, claimToken: string): void {
    this.runs.set(run.logId, { ...run, claimAt: run.triggerTime, claimToken });
    if (run.triggerCode === 500) this.outcomePending.set(run.logId, run.dispatchedAt + OUTCOME_GRACE_MS);
  }

  all(): MemoryRun[] {
    return [...this.runs.values()];
  }
}

export class MemoryJobStore implements JobStore {
  readonly jobs = new Map<number, Job>();
  readonly slowMarks: { id: number; untilMs: number }[] = [];
  /** The ids of each read, one entry per call: `get` as a one-id list. */
  readonly reads: { method: 'get' | 'getMany'; ids: number[] }[] = [];
  async get(id: number): Promise<Job | undefined> {
    this.reads.push({ method: 'get', ids: [id] });
    return this.jobs.get(id);
  }
  async getMany(ids: readonly number[]): Promise<Job[]> {
    this.reads.push({ method: 'getMany', ids: [...ids] });
    return ids.flatMap((id) => this.jobs.get(id) ?? []);
  }
  async markSlow(id: number, untilMs: number): Promise<void> {
    this.slowMarks.push({ id, untilMs });
    const job = this.jobs.get(id);
    if (job) this.jobs.set(id, { ...job, slowUntil: untilMs });
  }
  allocateId = unused('allocateId');
  create = unused('create');
  replace = unused('replace');
  delete = unused('delete');
  list = unused('list');
  existsForApp = unused('existsForApp');
  queryDue = unused('queryDue');
  advanceSchedule = unused('advanceSchedule');
  getPlannable = unused('getPlannable');
  listLastPlans = unused('listLastPlans');
}

export class MemoryGroupStore implements GroupStore {
  readonly groups = new Map<string, Group>();
  reads = 0;
  async get(appName: string): Promise<Group | undefined> {
    this.reads++;
    return this.groups.get(appName);
  }
  create = unused('create');
  list = unused('list');
  replace = unused('replace');
  delete = unused('delete');
  setAccessToken = unused('setAccessToken');
  clearAccessToken = unused('clearAccessToken');
  getSealedAccessToken = unused('getSealedAccessToken');
}

export class MemoryRegistry implements RegistryStore {
  readonly entries: RegistryEntry[] = [];
  async heartbeat(appName: string, address: string, nowMs: number): Promise<void> {
    this.entries.push({ appName, address, updatedAt: nowMs });
  }
  remove = unused('remove');
  reads = 0;
  async list(appName: string, seenSince?: number): Promise<RegistryEntry[]> {
    this.reads++;
    return this.entries
      .filter((e) => e.appName === appName && (seenSince === undefined || e.updatedAt >= seenSince))
      .sort((a, b) => a.address.localeCompare(b.address));
  }
}

export class MemoryRouteStates implements RouteStateStore {
  readonly items = new Map<number, { state: RouteState; version: number }>();
  /** Before the next N puts, someone else writes (the put then loses the race). */
  interleavedWrites = 0;
  puts = 0;
  async get(jobId: number): Promise<VersionedRouteState> {
    const item = this.items.get(jobId);
    return item ? { state: item.state, version: item.version } : { state: undefined, version: 0 };
  }
  async put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean> {
    this.puts++;
    if (this.interleavedWrites > 0) {
      // Another dispatcher routed the job meanwhile (a ROUND step of its own).
      this.interleavedWrites--;
      const current = this.items.get(jobId);
      const theirs = current?.state ?? state;
      const advanced = theirs.kind === 'ROUND' ? { ...theirs, count: theirs.count + 1 } : theirs;
      this.items.set(jobId, { state: advanced, version: (current?.version ?? 0) + 1 });
    }
    const current = this.items.get(jobId);
    if ((current?.version ?? 0) !== expectedVersion) return false;
    this.items.set(jobId, { state, version: expectedVersion + 1 });
    return true;
  }
}

export class MemorySlowTracker implements SlowTracker {
  readonly counts = new Map<string, number>();
  async countSlowDispatch(jobId: number, nowMs: number): Promise<number> {
    const key = `${jobId}#${Math.floor(nowMs / 60_000)}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}

export class RecordingRing implements RingQueue {
  readonly entries: RingEntry[] = [];
  async enqueue(entries: readonly RingEntry[]): Promise<void> {
    this.entries.push(...entries);
  }
}

export class RecordingReports implements ReportStore {
  readonly deltas: { day: string; delta: ReportDelta; appName?: string }[] = [];
  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    this.deltas.push({ day, delta, ...(appName === undefined ? {} : { appName }) });
  }
  range = unused('range');
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
    registry: new MemoryRegistry(),
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
