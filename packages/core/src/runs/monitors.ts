import { mapLimit } from '../common/concurrency.js';
import { METRIC } from '../common/metrics.js';
import type { ExecutorTransport } from '../executors/executor-transport.js';
import type { RegistryStore } from '../executors/registry-store.js';
import type { AddressType } from '../jobs/job.js';
import type { GroupStore } from '../jobs/job-store.js';
import type { WorkflowDeadlinesResult } from '../workflows/workflow-deadlines.js';
import type { WorkflowEngine } from '../workflows/workflow-engine.js';
import { KILLED_BY_USER } from './admin-runs.js';
import type { DeadManResult } from './dead-man.js';
import { type JobPoliciesResult, sweepJobPolicies } from './job-policies.js';
import { HANDLE_CODE, type Run, TRIGGER_CODE } from './run.js';
import { onRunFinished, onRunKilled, type RunOutcomeDeps } from './run-outcome.js';

export interface MonitorDeps extends RunOutcomeDeps {
  readonly registry: RegistryStore;
  readonly groups: Pick<GroupStore, 'get'>;
  /** The admin→executor `beat`, asked about executors that no registry vouches for. */
  readonly executors: Pick<ExecutorTransport, 'beat'>;
  /** Re-drives workflow runs that stopped moving (see WorkflowEngine.sweepStalledRuns). */
  readonly workflowSweep?: Pick<WorkflowEngine, 'sweepStalledRuns'>;
  /** Delivers the alerts due until `untilMs`, retries included (see alerts/alert-delivery.ts `driveAlertDeliveries`). */
  readonly alertSweep?: {
    drive(
      untilMs: number,
    ): Promise<{ readonly attempts: number; readonly delivered: number; readonly failed: number }>;
  };
  /** Moves running backfills on until `untilMs` (see backfills/backfill-sweep.ts `driveBackfills`). */
  /** Checks the recent fire ledgers of scheduled jobs (see dead-man.ts `sweepDeadMan`). */
  readonly deadManSweep?: { sweep(): Promise<DeadManResult> };
  /** Checks workflows' deadlines beside the jobs' (see workflows/workflow-deadlines.ts); absent: jobs only. */
  readonly workflowDeadlineSweep?: { sweep(): Promise<WorkflowDeadlinesResult> };
  readonly backfillSweep?: {
    drive(
      untilMs: number,
    ): Promise<{ readonly active: number; readonly started: number; readonly finished: number }>;
  };
}

export interface MonitorSettings {
  /** An executor not seen in the registry for this long is offline (XXL-JOB: 90 s). */
  readonly registryDeadSeconds: number;
  /** Most unfinished runs (and most pending outcomes) looked at per sweep. */
  readonly batchSize: number;
  /** Dispatch records are read this long after they were begun (see `lostRunSettleSeconds`). */
  readonly settleMs: number;
}

export const DEFAULT_MONITOR_BATCH = 500;
const CONCURRENCY = 8;

/**
 * Whether the executor of an overdue run is still there, from what is known without calling it:
 * - seen in its app's registry within the dead timeout: online (its run is left alone);
 * - a `lambda:` address: offline (the invocation ended long ago, its result is lost);
 * - an AUTO group's address not seen lately: offline (XXL-JOB's lost-result rule);
 * - any other http(s) address (a MANUAL group's, an address given to one trigger, a deleted group's):
 *   no registry speaks for it, so `probe` it with `beat`. XXL-JOB marks these lost unconditionally,
 *   which fails every long job of a manually addressed group.
 */
export function executorLiveness(input: {
  readonly address: string;
  readonly seenRecently: boolean;
  readonly addressType: AddressType | undefined;
}): 'online' | 'offline' | 'probe' {
  const address = input.address.trim();
  if (input.seenRecently) return 'online';
  if (address.startsWith('lambda:')) return 'offline';
  if (input.addressType === 'AUTO') return 'offline';
  return /^https?:\/\//i.test(address) ? 'probe' : 'offline';
}

export interface LostRunsResult {
  /** Overdue runs looked at. */
  readonly overdue: number;
  /** Runs marked failed ("result lost"). */
  readonly lost: readonly number[];
  /** Overdue runs left alone because their executor is online. */
  readonly alive: readonly number[];
  /** Runs whose check or update failed (tried again next sweep). */
  readonly errors: readonly number[];
}

/**
 * XXL-JOB's lost-result monitor: a run accepted by an executor, still without a result, whose
 * executor is offline, is finished as failed ("result lost", handleCode 500) and goes down the
 * retry / alarm path. Past its deadline (timeout + grace) any offline executor counts; before it,
 * one that is gone for sure (an http executor no registry has seen lately, or that does not answer
 * `beat`), not a Lambda one (its invocation may still run). So a run whose executor was killed is
 * found once its dispatch record has settled and the registry has let the executor go (about
 * 3 minutes with the defaults), whatever its timeout. A result arriving in the meantime wins (the
 * update is conditional).
 */
export async function markLostRuns(deps: MonitorDeps, settings: MonitorSettings): Promise<LostRunsResult> {
  const now = deps.clock.now();
  const watched = await deps.runs.findUnfinished(now, {
    limit: settings.batchSize,
    settleMs: settings.settleMs,
  });
  const liveness = livenessCache(deps, now - settings.registryDeadSeconds * 1000);
  const lost: number[] = [];
  const alive: number[] = [];
  const errors: number[] = [];
  await mapLimit(watched, CONCURRENCY, async ({ run, pastDeadline }) => {
    try {
      const lambda = run.executorAddress.trim().startsWith('lambda:');
      if ((!pastDeadline && lambda) || (await liveness.isOnline(run))) {
        if (pastDeadline) alive.push(run.logId);
        deps.logger.debug('unfinished run left alone, its executor may still run it', {
          jobId: run.jobId,
          logId: run.logId,
          executorAddress: run.executorAddress,
        });
        return;
      }
      const outcome = await deps.runs.complete(run.logId, {
        handleCode: HANDLE_CODE.fail,
        handleMsg: lostMessage(run, pastDeadline),
        handleTime: now,
      });
      if (outcome.kind !== 'completed') return; // the result came in meanwhile
      lost.push(run.logId);
      deps.logger.warn('run result lost, marked failed', {
        jobId: run.jobId,
        logId: run.logId,
        executorAddress: run.executorAddress,
        triggeredAt: new Date(run.triggerTime).toISOString(),
      });
      await onRunFinished(deps, outcome.run, true);
    } catch (err) {
      errors.push(run.logId);
      deps.logger.error('lost-run check failed', {
        jobId: run.jobId,
        logId: run.logId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
  return { overdue: watched.filter((w) => w.pastDeadline).length, lost, alive, errors };
}

export interface RedriveResult {
  /** Runs whose pending outcome was done again. */
  readonly redriven: readonly number[];
  /** Runs whose re-drive failed (still marked: tried again next sweep). */
  readonly errors: readonly number[];
}

/**
 * XXL-JOB's fail monitor (it scans failed logs whose alarm_status is still 0): a finished run with
 * consequences (a failure, or a success of a job with children: `needsOutcomeMark`) is marked
 * outcome-pending in the same write that stores its result, and `onRunFinished` clears the mark
 * once the retry / alarm / children are done; a plain success has nothing to re-drive. A mark still there past its due time (the
 * store's grace, `OUTCOME_GRACE_MS`, after the result, so a live callback is never raced)
 * means the process died or failed in between: the outcome is done again here.
 *
 * The counters are not added again (`countersDone`): a crash after counting would count twice,
 * and counting is best-effort anyway. The RETRY and PARENT fires are idempotent by their dedupKeys
 * (`retry#{logId}`, `parent#{logId}#{childId}`); an alarm, though, may be sent a second time in the
 * rare case the process died after publishing it and before clearing the mark. A run killed by a
 * user is re-driven as a kill (no retry, no alarm, no children).
 */
export async function redrivePendingOutcomes(
  deps: RunOutcomeDeps,
  settings: Pick<MonitorSettings, 'batchSize'>,
): Promise<RedriveResult> {
  const runs = await deps.runs.findOutcomePending(deps.clock.now(), settings.batchSize);
  const redriven: number[] = [];
  const errors: number[] = [];
  await mapLimit(runs, CONCURRENCY, async (run) => {
    const keys = { jobId: run.jobId, logId: run.logId };
    try {
      deps.logger.warn('re-driving the outcome of a finished run left pending', {
        ...keys,
        triggerCode: run.triggerCode,
        handleCode: run.handleCode,
      });
      const wasRunning = run.triggerCode !== TRIGGER_CODE.fail;
      if (run.handleMsg === KILLED_BY_USER) await onRunKilled(deps, run, wasRunning, { countersDone: true });
      else await onRunFinished(deps, run, wasRunning, { countersDone: true });
      redriven.push(run.logId);
    } catch (err) {
      errors.push(run.logId);
      deps.logger.error('outcome re-drive failed', {
        ...keys,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
  return { redriven, errors };
}

/** The monitor sweeps, by the names their failures are logged and reported under. */
export type MonitorSweep =
  | 'lostRuns'
  | 'pendingOutcomes'
  | 'stalledWorkflowRuns'
  | 'jobPolicies'
  | 'deadMan'
  | 'backfills'
  | 'alerts';

export interface MonitorSweepsResult {
  /** The lost-run sweep's result; absent when it failed. */
  readonly lost?: LostRunsResult;
  /** The pending-outcome sweep's result; absent when it failed. */
  readonly redrive?: RedriveResult;
  /** The stalled workflow runs looked at and moved; absent when it failed (or is not wired). */
  readonly workflows?: { readonly looked: number; readonly redriven: number };
  /** Paused jobs started again, deadlines missed (workflows': `workflows`, when wired); absent when it failed. */
  readonly jobPolicies?: JobPoliciesResult & { readonly workflows?: WorkflowDeadlinesResult };
  /** Jobs whose recent fires were checked and those alarmed; absent when it failed (or is not wired). */
  readonly deadMan?: DeadManResult;
  /** The backfill fires started and finished; absent when the sweep failed (or is not wired). */
  readonly backfills?: { readonly active: number; readonly started: number; readonly finished: number };
  /** Alert delivery attempts made, delivered and failed for good; absent when the sweep failed (or is not wired). */
  readonly alerts?: { readonly attempts: number; readonly delivered: number; readonly failed: number };
  /** The sweeps that failed as a whole this time (each logged and counted); empty when all ran. */
  readonly failedSweeps: readonly MonitorSweep[];
}

/**
 * Runs every monitor sweep, each whatever became of the others: a sweep that fails as a whole (a
 * store read that throws) is logged, counted in `SweepFailures` and tried again next minute, but
 * must not keep the other from running (a broken lost-run watch once stopped every re-drive too).
 */
export async function runMonitorSweeps(
  deps: MonitorDeps,
  settings: MonitorSettings,
  /** Backfills are driven (stepped once a second) and alerts delivered until then; absent: one pass. */
  backfillsUntilMs?: number,
): Promise<MonitorSweepsResult> {
  const failedSweeps: MonitorSweep[] = [];
  const attempt = async <T>(sweep: MonitorSweep, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (err) {
      failedSweeps.push(sweep);
      deps.logger.error('monitor sweep failed', {
        sweep,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
      deps.metrics.add(METRIC.sweepFailures, 'Count', 1);
      return undefined;
    }
  };
  const lost = await attempt('lostRuns', () => markLostRuns(deps, settings));
  const redrive = await attempt('pendingOutcomes', () => redrivePendingOutcomes(deps, settings));
  // After the outcomes: a node's outcome re-driven just now moves its workflow run by itself.
  const workflows = deps.workflowSweep
    ? await attempt('stalledWorkflowRuns', () => deps.workflowSweep!.sweepStalledRuns())
    : undefined;
  // Last: a success re-driven just now counts for a deadline checked here.
  const jobPolicies = await attempt('jobPolicies', async () => {
    const jobs = await sweepJobPolicies(deps);
    const workflows = await deps.workflowDeadlineSweep?.sweep();
    return workflows ? { ...jobs, workflows } : jobs;
  });
  // After the outcomes and the policies: a run re-driven or a job paused just now explains its fires.
  const deadMan = deps.deadManSweep ? await attempt('deadMan', () => deps.deadManSweep!.sweep()) : undefined;
  // Last, side by side: each may go on (stepping backfills, retrying deliveries) for the rest of the invocation.
  const until = backfillsUntilMs ?? deps.clock.now();
  const [backfills, alerts] = await Promise.all([
    deps.backfillSweep ? attempt('backfills', () => deps.backfillSweep!.drive(until)) : undefined,
    deps.alertSweep ? attempt('alerts', () => deps.alertSweep!.drive(until)) : undefined,
  ]);
  return {
    ...(lost ? { lost } : {}),
    ...(redrive ? { redrive } : {}),
    ...(workflows ? { workflows } : {}),
    ...(jobPolicies ? { jobPolicies } : {}),
    ...(deadMan ? { deadMan } : {}),
    ...(backfills ? { backfills } : {}),
    ...(alerts ? { alerts } : {}),
    failedSweeps,
  };
}

export function lostMessage(run: Pick<Run, 'executorAddress'>, pastDeadline = true): string {
  return pastDeadline
    ? `result lost: no result by the deadline and executor ${run.executorAddress} is offline`
    : `result lost: executor ${run.executorAddress} went offline while the run was running`;
}

/** Looks each app's registry, each group and each probed address up once per sweep. */
function livenessCache(deps: MonitorDeps, seenSince: number) {
  const registries = new Map<string, Promise<Set<string>>>();
  const groupTypes = new Map<string, Promise<AddressType | undefined>>();
  const probes = new Map<string, Promise<boolean>>();
  const memo = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let value = map.get(key);
    if (!value) {
      value = load();
      map.set(key, value);
      value.catch(() => map.delete(key)); // a failed lookup is retried by the next run that needs it
    }
    return value;
  };
  return {
    async isOnline(run: Run): Promise<boolean> {
      const seen = await memo(registries, run.appName, async () => {
        const entries = await deps.registry.list(run.appName, seenSince);
        return new Set(entries.map((e) => e.address));
      });
      const addressType = await memo(
        groupTypes,
        run.appName,
        async () => (await deps.groups.get(run.appName))?.addressType,
      );
      const verdict = executorLiveness({
        address: run.executorAddress,
        seenRecently: seen.has(run.executorAddress),
        addressType,
      });
      if (verdict !== 'probe') return verdict === 'online';
      return memo(probes, run.executorAddress, async () => {
        const reply = await deps.executors.beat({ address: run.executorAddress, appName: run.appName });
        if (reply.code !== 200) {
          deps.logger.info('executor beat failed', { executorAddress: run.executorAddress, msg: reply.msg });
        }
        return reply.code === 200;
      });
    },
  };
}
