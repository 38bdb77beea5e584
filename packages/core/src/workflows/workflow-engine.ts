/**
 * The workflow engine: starts workflow runs, fires their nodes as ordinary job runs, and advances
 * them from their runs' outcomes. Every change of a run is a conditional write on the revision it
 * read (the pure transitions are in domain/workflow/progress.ts), so a repeated outcome decides
 * nothing; every node fire carries its attempt's dedupKey, so a fire sent twice runs once. What a
 * crash between two steps leaves undone is redone by the monitors (`sweepStalledRuns`): fires of
 * running nodes no dispatcher claimed are sent again, outcomes of finished node runs fed again, a
 * buffered run whose turn came started.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError, PermanentError, ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { FireHandOff } from '../dispatch/fire-hand-off.js';
import { dueNow, type RingQueue } from '../dispatch/ring-queue.js';
import type { FireMessage } from '../dispatch/trigger.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import type { AlarmPublisher } from '../runs/alarms.js';
import { HANDLE_CODE, type Run, TRIGGER_CODE } from '../runs/run.js';
import type { RunStore, StoredRun } from '../runs/run-store.js';
import {
  cancelRun,
  type Decisions,
  type JsonValue,
  type NodeOutcome,
  nodeParameter,
  type OverlapDecision,
  onNodeFinished,
  overlapDecision,
  retryRun,
  startRun,
  type WorkflowDefinition,
} from './model/index.js';
import { nodeFireKey, type WorkflowLink } from './model/link.js';
import type {
  NodeFireState,
  NodeTimes,
  ShardOutcome,
  WorkflowRecord,
  WorkflowRunRecord,
  WorkflowRunTrigger,
  WorkflowStore,
} from './workflow-store.js';

export interface WorkflowEngineDeps {
  readonly workflows: WorkflowStore;
  readonly jobs: Pick<JobStore, 'get'>;
  /** Node runs read, and the logIds of the nodes it fires given out (see `fireLogIds`). */
  readonly runs: Pick<RunStore, 'get' | 'getMany' | 'dispatchedUnder' | 'allocateLogIds'>;
  readonly ring: RingQueue;
  /**
   * Hands the nodes it fires to a dispatcher at once (no ring hop); absent, or when it fails, they
   * go on the ring's fast lane.
   */
  readonly handOff?: FireHandOff;
  readonly alarms: AlarmPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /**
   * Kills one running job run (a cancel's running nodes). Absent where no executor can be called;
   * a node left running then finishes by itself and its outcome is recorded in the cancelled run.
   */
  readonly killRun?: (logId: number) => Promise<void>;
  /** A fresh id for a manual run; random by default. */
  readonly newId?: () => string;
}

export type StartResult =
  | { readonly kind: 'started' | 'buffered'; readonly run: WorkflowRunRecord; readonly reason: string }
  /** Not started by the overlap policy. */
  | { readonly kind: 'skipped'; readonly reason: string }
  /** A run with this id exists (a repeated scheduled start). */
  | { readonly kind: 'exists'; readonly runId: string };

export interface StartRequest {
  readonly workflowId: number;
  readonly input?: JsonValue;
  readonly trigger: WorkflowRunTrigger;
  /** The run's id (a scheduled start's, derived from its fire); a fresh one when absent. */
  readonly runId?: string;
}

const BACKFILL_DECISION: OverlapDecision = {
  action: 'start',
  reason: 'a backfill run (its backfill’s parallelism limits it, not the overlap policy)',
};

/** Transitions of one run tried again on a lost race before giving up (the monitors redo it). */
const SAVE_ATTEMPTS = 8;
/** By default a run that has not moved for this long (to 10 s more: the store files runs by the 10 s) is looked at by the monitors. */
export const STALLED_AFTER_MS = 60_000;
const STALLED_PER_SWEEP = 100;
/** Definitions are immutable per version: kept per process. */
const DEFINITION_CACHE_SIZE = 200;
/**
 * logIds a process takes from a job's counter at once for the nodes it fires: one counter write per
 * this many fires of the job, not one per fire (the ones a process never uses are a gap in the job's
 * unplanned range, as a lost race leaves).
 */
export const NODE_LOG_ID_BLOCK = 16;
/** Jobs whose unused logIds a process keeps (past it, they are dropped: only a gap). */
const LOG_ID_POOL_JOBS = 1_000;

export class WorkflowEngine {
  private readonly definitions = new Map<string, WorkflowDefinition>();
  /** Unused logIds of a block taken for each job's node runs, lowest first. */
  private readonly logIdPool = new Map<number, number[]>();

  constructor(private readonly deps: WorkflowEngineDeps) {}

  // ------------------------------------------------------------------------------------------
  // Starting

  /**
   * Starts a run of the workflow as its overlap policy allows: started (its roots fired), buffered
   * (BUFFER_ONE), skipped, or, under CANCEL_PREVIOUS, started after the running ones were
   * cancelled. The counts are read and written in one transaction with the run, so two starts at
   * once cannot both pass a SKIP. ValidationError for an input that is not plain JSON.
   */
  async start(request: StartRequest): Promise<StartResult> {
    const { deps } = this;
    const runId = request.runId ?? newRunId(deps);
    // A start repeated under the same id (a scheduled fire sent again) decides nothing again: the
    // overlap policy must not see its own run as another one (CANCEL_PREVIOUS would cancel it).
    if (request.runId !== undefined && (await deps.workflows.getRun(runId))) return { kind: 'exists', runId };
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
      const workflow = await deps.workflows.get(request.workflowId);
      if (!workflow) throw new NotFoundError(`workflow ${request.workflowId} does not exist`);
      const def = workflow.definition;
      this.remember(workflow.id, workflow.version, def);
      // A backfill's runs are limited by its parallelism, not the overlap policy (they still count as running).
      const backfill = request.trigger.type === 'BACKFILL';
      const decision = backfill
        ? BACKFILL_DECISION
        : overlapDecision(def.overlapPolicy, workflow.activeRuns, workflow.bufferedRunId ? 1 : 0);
      if (decision.action === 'skip') {
        deps.logger.info('workflow run not started', { workflowId: workflow.id, reason: decision.reason });
        deps.metrics.add(METRIC.workflowRunsSkipped, 'Count', 1);
        return { kind: 'skipped', reason: decision.reason };
      }
      if (decision.action === 'cancel-previous-then-start') {
        for (const active of await deps.workflows.listActive(workflow.id)) {
          await this.cancel(
            active.id,
            `a new run ${runId} replaced it (overlap policy CANCEL_PREVIOUS)`,
          ).catch((err: unknown) => {
            if (!(err instanceof ConflictError || err instanceof NotFoundError)) throw err;
          });
        }
      }
      const buffer = decision.action === 'buffer';
      const first = startRun(def, request.input ?? {});
      const logIds = buffer ? new Map<string, number>() : await this.fireLogIds(def, first.fire);
      const now = deps.clock.now();
      const record: WorkflowRunRecord = {
        id: runId,
        workflowId: workflow.id,
        version: workflow.version,
        appName: def.appName,
        workflowName: def.name,
        status: buffer ? 'QUEUED' : 'RUNNING',
        state: buffer
          ? { status: 'RUNNING', input: first.state.input, nodes: {}, revision: 0, failedNodes: [] }
          : first.state,
        trigger: request.trigger,
        createdAt: now,
        ...(buffer ? {} : { startedAt: now }),
        movedAt: now,
        nodeRuns: {},
        nodeTimes: buffer ? {} : firedTimes({}, first.fire, now, logIds),
      };
      // ALLOW admits whatever runs; CANCEL_PREVIOUS once the ones it cancelled have ended (a run
      // started meanwhile by another start makes this one decide again).
      const expectActiveRuns =
        def.overlapPolicy === 'ALLOW' || backfill
          ? undefined
          : decision.action === 'cancel-previous-then-start'
            ? 0
            : workflow.activeRuns;
      const admitted = await deps.workflows.admit(record, {
        as: buffer ? 'buffer' : 'start',
        ...(expectActiveRuns === undefined ? {} : { expectActiveRuns }),
        expectNoBuffered: def.overlapPolicy === 'BUFFER_ONE' && !backfill,
      });
      if (admitted === 'exists') return { kind: 'exists', runId };
      if (admitted === 'conflict') continue;
      deps.logger.info(buffer ? 'workflow run buffered' : 'workflow run started', {
        workflowId: workflow.id,
        runId,
        version: workflow.version,
        trigger: request.trigger.type,
        reason: decision.reason,
      });
      let run = record;
      if (!buffer) {
        deps.metrics.add(METRIC.workflowRunsStarted, 'Count', 1);
        // A root that failed at once (its parameter) moved the run on: answer it as stored.
        if ((await this.fireNodes(def, record, first.fire)) > 0)
          run = (await deps.workflows.getRun(runId)) ?? record;
      }
      return { kind: buffer ? 'buffered' : 'started', run, reason: decision.reason };
    }
    throw new ConflictError(
      `workflow ${request.workflowId}'s runs kept changing while this run was being started; try again`,
    );
  }

  /** Starts the workflow's buffered run once nothing runs (after a run ended, or from a sweep). */
  async startBuffered(workflowId: number): Promise<void> {
    const { deps } = this;
    const workflow = await deps.workflows.get(workflowId);
    if (!workflow?.bufferedRunId || workflow.activeRuns > 0) return;
    const queued = await deps.workflows.getRun(workflow.bufferedRunId);
    if (queued?.status !== 'QUEUED') return;
    const def = await this.definition(queued.workflowId, queued.version);
    const first = startRun(def, queued.state.input);
    const logIds = await this.fireLogIds(def, first.fire);
    const now = deps.clock.now();
    const next: WorkflowRunRecord = {
      ...queued,
      status: 'RUNNING',
      state: first.state,
      startedAt: now,
      movedAt: now,
      nodeTimes: firedTimes({}, first.fire, now, logIds),
    };
    if (!(await deps.workflows.saveRun(queued, next))) return; // started by another meanwhile
    deps.metrics.add(METRIC.workflowRunsStarted, 'Count', 1);
    deps.logger.info('buffered workflow run started', { workflowId, runId: queued.id });
    await this.fireNodes(def, next, first.fire);
  }

  // ------------------------------------------------------------------------------------------
  // Advancing

  /**
   * A node's job run has ended for good (`retried`: a retry of it is on its way, so not yet). A
   * broadcast node's shards are gathered first: the node finishes with its last shard, SUCCEEDED
   * when every shard did, its result the shards' results as a JSON array in shard order.
   */
  async onNodeRunFinished(run: Run, options: { readonly retried: boolean }): Promise<void> {
    const link = run.workflow;
    if (!link || options.retried) return;
    const ok = run.handleCode === HANDLE_CODE.success;
    const result = resultOf(run);
    if (run.shardTotal <= 1) {
      await this.advance(link, { status: ok ? 'SUCCEEDED' : 'FAILED', attempt: link.attempt, result });
      return;
    }
    const shards = await this.deps.workflows.recordShard(link, { index: run.shardIndex, ok, result });
    if (shards.length < run.shardTotal) return;
    await this.advance(link, shardsOutcome(link.attempt, shards));
  }

  /**
   * Records a node's outcome and carries out what follows (fires, the run's end). A repeated or
   * stale outcome changes nothing, but the run's running nodes that no dispatcher has claimed are
   * fired again: the outcome may be re-driven after a crash that lost the fires it decided.
   */
  async advance(link: WorkflowLink, outcome: NodeOutcome): Promise<void> {
    const { deps } = this;
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
      const record = await deps.workflows.getRun(link.runId);
      if (!record) {
        deps.logger.warn('outcome for an unknown workflow run dropped', { ...link });
        return;
      }
      const def = await this.definition(record.workflowId, record.version);
      let decisions: Decisions;
      try {
        decisions = onNodeFinished(def, record.state, link.node, outcome);
      } catch (err) {
        if (err instanceof ConflictError || err instanceof ValidationError || err instanceof PermanentError) {
          deps.logger.warn('workflow node outcome refused', { ...link, reason: err.message });
          return;
        }
        throw err;
      }
      if (decisions.duplicate) {
        await this.resendUnclaimed(def, record);
        return;
      }
      const logIds = await this.fireLogIds(def, decisions.fire);
      const now = deps.clock.now();
      const next = this.applied(record, decisions, now, logIds, link.node);
      if (!(await deps.workflows.saveRun(record, next))) continue;
      deps.logger.info('workflow node finished', {
        ...link,
        status: outcome.status,
        fire: decisions.fire,
        skip: decisions.skip,
        ...(decisions.finished ? { runStatus: decisions.finished.status } : {}),
      });
      await this.carryOut(def, next, decisions);
      return;
    }
    throw new ConflictError(`workflow run ${link.runId} kept changing; the monitors will advance it`);
  }

  // ------------------------------------------------------------------------------------------
  // Operations

  /**
   * Cancels a run: nothing more is fired, running nodes' runs are killed (their outcomes are still
   * recorded when they come), a buffered run is dropped. ConflictError for a run that has ended.
   */
  async cancel(runId: string, reason = 'cancelled by user'): Promise<WorkflowRunRecord> {
    const { deps } = this;
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
      const record = await this.requireRun(runId);
      if (record.status !== 'RUNNING' && record.status !== 'QUEUED') {
        throw new ConflictError(
          `workflow run ${runId} has ended already (${record.status}); nothing to cancel`,
        );
      }
      const decisions = cancelRun(record.state);
      const now = deps.clock.now();
      const next: WorkflowRunRecord = {
        ...this.applied(record, decisions, now, new Map()),
        ...(record.status === 'QUEUED' ? { state: { ...decisions.state, nodes: {} } } : {}),
      };
      if (!(await deps.workflows.saveRun(record, next))) continue;
      deps.logger.info('workflow run cancelled', { runId, reason, kill: decisions.kill });
      deps.metrics.add(METRIC.workflowRunsCancelled, 'Count', 1);
      await this.kill(record, decisions.kill);
      if (record.status === 'RUNNING') await this.startBuffered(record.workflowId);
      return next;
    }
    throw new ConflictError(`workflow run ${runId} kept changing while it was being cancelled; try again`);
  }

  /**
   * Resumes a FAILED or CANCELLED run from where it stopped: its unhandled failed, cancelled and
   * skipped-because-of-them nodes run again (a new attempt each); succeeded nodes keep their
   * results. ConflictError for a run that is running, succeeded, or still has a node running.
   */
  async retry(runId: string): Promise<WorkflowRunRecord> {
    const { deps } = this;
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
      const record = await this.requireRun(runId);
      if (record.status === 'QUEUED' || Object.keys(record.state.nodes).length === 0) {
        throw new ConflictError(`workflow run ${runId} never started (it was buffered); nothing to retry`);
      }
      const def = await this.definition(record.workflowId, record.version);
      const decisions = retryRun(def, record.state);
      const logIds = await this.fireLogIds(def, decisions.fire);
      const now = deps.clock.now();
      const { finishedAt: _ended, ...next } = this.applied(record, decisions, now, logIds);
      if (!(await deps.workflows.saveRun(record, next))) continue;
      deps.logger.info('workflow run retried', { runId, fire: decisions.fire });
      const failedAtOnce = await this.carryOut(def, next, decisions);
      return failedAtOnce > 0 ? ((await deps.workflows.getRun(runId)) ?? next) : next;
    }
    throw new ConflictError(`workflow run ${runId} kept changing while it was being retried; try again`);
  }

  /**
   * The monitors' sweep: runs that have not moved for a minute are looked at (and marked looked
   * at): a buffered run whose turn came is started; a running node no dispatcher claimed is fired
   * again; a node whose job runs have all ended for good gets its outcome. Answers how many runs
   * it looked at and how many it moved.
   */
  async sweepStalledRuns(stalledAfterMs = STALLED_AFTER_MS): Promise<{ looked: number; redriven: number }> {
    const { deps } = this;
    const now = deps.clock.now();
    const ids = await deps.workflows.listStalled(now - stalledAfterMs, STALLED_PER_SWEEP);
    let redriven = 0;
    for (const id of ids) {
      try {
        await deps.workflows.touch(id, now);
        if (await this.redrive(id)) redriven++;
      } catch (err) {
        deps.logger.error('stalled workflow run not re-driven', { runId: id, error: String(err) });
      }
    }
    return { looked: ids.length, redriven };
  }

  /**
   * Records which job runs a node's attempt became (the dispatcher, as it claims them or finds them
   * claimed; `shard`: one broadcast shard's retry); logged on failure.
   */
  async noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    await this.deps.workflows.noteNodeRuns(link, logIds, shard).catch((err: unknown) => {
      this.deps.logger.warn('workflow node runs not recorded', { ...link, logIds, error: String(err) });
    });
  }

  /** Whether the run still wants this node's attempt and whether runs were claimed for it (the dispatcher asks before sending). */
  nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    return this.deps.workflows.nodeFireState(link);
  }

  /**
   * A node's fire the dispatcher will not run (its run no longer waits for it: cancelled; or its
   * job is gone). Only an attempt nothing runs for is finished here, as failed: a first fire no
   * dispatcher claimed (a copy of a claimed one is just dropped: its run is on its way), or a retry
   * (its failed run then ends the node, or its shard, as if it had no retry left).
   */
  async onFireDropped(
    link: WorkflowLink,
    state: NodeFireState,
    fire: { readonly retryOf?: number; readonly reason: string },
  ): Promise<void> {
    if (fire.retryOf !== undefined) {
      const failed = await this.deps.runs.get(fire.retryOf);
      if (failed?.workflow) {
        await this.onNodeRunFinished(failed, { retried: false });
        return;
      }
    }
    if (state.claimed && fire.retryOf === undefined) return;
    await this.advance(link, {
      status: 'FAILED',
      attempt: link.attempt,
      result: `not started: ${fire.reason}`,
    });
  }

  // ------------------------------------------------------------------------------------------

  private async redrive(id: string): Promise<boolean> {
    const { deps } = this;
    const record = await deps.workflows.getRun(id);
    if (!record) return false;
    if (record.status === 'QUEUED') {
      await this.startBuffered(record.workflowId);
      return true;
    }
    if (record.status !== 'RUNNING') return false;
    const def = await this.definition(record.workflowId, record.version);
    let moved = (await this.resendUnclaimed(def, record)) > 0;
    const unfinished: string[] = [];
    for (const [key, node] of Object.entries(record.state.nodes)) {
      const claimed = record.nodeRuns[key];
      if (node.status !== 'RUNNING' || claimed?.attempt !== node.attempt) continue;
      const runs = await deps.runs.getMany(claimed.logIds);
      for (const run of runs) {
        if (run.handleCode === 0 && run.triggerCode === TRIGGER_CODE.success && !(await this.wasSent(run)))
          unfinished.push(key);
        if (!(await this.endedForGood(run))) continue;
        await this.onNodeRunFinished(run, { retried: false });
        moved = true;
      }
    }
    // A node run claimed but never sent (its dispatcher died between the two, and the fire's ring
    // message went with it: the local ring is in memory; no dispatch record lists it) is taken over
    // by the dispatcher when its fire comes again.
    const again = [...new Set(unfinished)];
    if (again.length > 0) await this.fireNodes(def, record, again);
    return moved;
  }

  /** Whether a run's dispatcher recorded it as sent (a long-running node's run is, and is left alone). */
  private async wasSent(run: StoredRun): Promise<boolean> {
    return (await this.deps.runs.dispatchedUnder(run.claimToken)).has(run.logId);
  }

  /** A job run that has a result and no retry to follow it. */
  private async endedForGood(run: Run): Promise<boolean> {
    if (run.handleCode === 0 && run.triggerCode !== TRIGGER_CODE.fail) return false;
    if (run.handleCode === HANDLE_CODE.success || run.retriesLeft <= 0) return true;
    return (await this.deps.jobs.get(run.jobId)) === undefined;
  }

  /** The record after `decisions`: new state, times (and logIds) of fired and finished nodes, the end. */
  private applied(
    record: WorkflowRunRecord,
    decisions: Decisions,
    now: number,
    logIds: ReadonlyMap<string, number>,
    finishedNode?: string,
  ): WorkflowRunRecord {
    let nodeTimes = firedTimes(record.nodeTimes, decisions.fire, now, logIds);
    const ended = [...(finishedNode ? [finishedNode] : []), ...decisions.skip, ...decisions.cancelled];
    for (const key of ended) nodeTimes = { ...nodeTimes, [key]: { ...nodeTimes[key], finishedAt: now } };
    return {
      ...record,
      status: decisions.state.status,
      state: decisions.state,
      movedAt: now,
      nodeTimes,
      ...(decisions.finished ? { finishedAt: now } : {}),
    };
  }

  /** Carries out a transition's decisions; answers how many fired nodes failed at once (their parameter). */
  private async carryOut(
    def: WorkflowDefinition,
    record: WorkflowRunRecord,
    decisions: Decisions,
  ): Promise<number> {
    const failed = await this.fireNodes(def, record, decisions.fire);
    if (decisions.kill.length > 0) await this.kill(record, decisions.kill);
    if (decisions.finished) await this.ended(def, record);
    return failed;
  }

  /**
   * Fires nodes made RUNNING in `record` (a node whose parameter cannot be rendered fails with the
   * reason, without a job run): handed to a dispatcher, or one ring write for all of them. Each fire
   * carries `decidedAt`: `record` is saved (or was just read) with the node awaited at that attempt.
   * Answers how many failed so.
   */
  private async fireNodes(
    def: WorkflowDefinition,
    record: WorkflowRunRecord,
    keys: readonly string[],
  ): Promise<number> {
    if (keys.length === 0) return 0;
    const { deps } = this;
    const now = deps.clock.now();
    const messages: FireMessage[] = [];
    const unrenderable: { link: WorkflowLink; error: string }[] = [];
    for (const key of keys) {
      const node = def.nodes.find((n) => n.key === key);
      const state = record.state.nodes[key];
      if (!node || !state) continue;
      const link: WorkflowLink = { runId: record.id, node: key, attempt: state.attempt };
      const parameter = nodeParameter(def, record.state, key);
      if ('error' in parameter) {
        unrenderable.push({ link, error: parameter.error });
        continue;
      }
      messages.push({
        jobId: node.jobId,
        scheduledTime: now,
        triggerType: 'WORKFLOW',
        dedupKey: nodeFireKey(link),
        // Every copy of the fire (a hand-off, the ring, the monitors' resend) names the same run.
        ...(record.nodeTimes[key]?.logId === undefined ? {} : { logId: record.nodeTimes[key].logId }),
        ...(parameter.ok === undefined ? {} : { executorParam: parameter.ok }),
        workflow: link,
        decidedAt: now,
        // A node's job is in its workflow's group: the dispatcher reads it beside the job.
        appName: def.appName,
      });
    }
    if (messages.length > 0) {
      const via = await this.send(record, messages);
      deps.metrics.add(METRIC.workflowNodesFired, 'Count', messages.length);
      deps.logger.info('workflow nodes fired', {
        runId: record.id,
        nodes: messages.map((m) => m.workflow?.node),
        via,
      });
    }
    for (const { link, error } of unrenderable) {
      deps.logger.warn('workflow node parameter not rendered: node failed', { ...link, error });
      await this.advance(link, {
        status: 'FAILED',
        attempt: link.attempt,
        result: `the node's executorParam could not be rendered: ${error}`,
      });
    }
    return unrenderable.length;
  }

  /**
   * The logIds of the runs the nodes about to be fired become, given out before the save that fires
   * them and stored with it (`NodeTimes.logId`): the fire then carries its run's logId, and its run
   * is its claim (one conditional put, as a planned fire's), not a fire record beside it.
   */
  private async fireLogIds(def: WorkflowDefinition, keys: readonly string[]): Promise<Map<string, number>> {
    const byJob = new Map<number, string[]>();
    for (const key of keys) {
      const node = def.nodes.find((n) => n.key === key);
      if (node) byJob.set(node.jobId, [...(byJob.get(node.jobId) ?? []), key]);
    }
    const logIds = new Map<string, number>();
    for (const [jobId, nodes] of byJob) {
      if ((this.logIdPool.get(jobId)?.length ?? 0) < nodes.length) {
        const block = await this.deps.runs.allocateLogIds(jobId, Math.max(NODE_LOG_ID_BLOCK, nodes.length));
        if (this.logIdPool.size >= LOG_ID_POOL_JOBS) this.logIdPool.clear();
        // Read again after the wait: another transition of this process may have taken from it.
        this.logIdPool.set(jobId, [...(this.logIdPool.get(jobId) ?? []), ...block]);
      }
      // Taken without a wait in between, so two transitions at once never get the same logId.
      const pool = this.logIdPool.get(jobId) ?? [];
      nodes.forEach((key, i) => {
        const logId = pool[i];
        if (logId !== undefined) logIds.set(key, logId);
      });
      this.logIdPool.set(jobId, pool.slice(nodes.length));
    }
    return logIds;
  }

  /** Hands the fires to a dispatcher when one is wired, else (or when that fails) puts them on the ring. */
  private async send(
    record: WorkflowRunRecord,
    messages: readonly FireMessage[],
  ): Promise<'hand-off' | 'ring'> {
    const { deps } = this;
    if (deps.handOff) {
      try {
        await deps.handOff.handOff(messages);
        return 'hand-off';
      } catch (err) {
        deps.logger.warn('workflow nodes not handed to a dispatcher; put on the ring', {
          runId: record.id,
          nodes: messages.map((m) => m.workflow?.node),
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    await deps.ring.enqueue(dueNow(messages));
    return 'ring';
  }

  /** Fires again the running nodes whose attempt no dispatcher has claimed; answers how many. */
  private async resendUnclaimed(def: WorkflowDefinition, record: WorkflowRunRecord): Promise<number> {
    if (record.status !== 'RUNNING') return 0;
    const unclaimed = Object.entries(record.state.nodes)
      .filter(([key, node]) => node.status === 'RUNNING' && record.nodeRuns[key]?.attempt !== node.attempt)
      .map(([key]) => key);
    if (unclaimed.length > 0) {
      this.deps.logger.info('workflow nodes fired again (not claimed yet)', {
        runId: record.id,
        nodes: unclaimed,
      });
      await this.fireNodes(def, record, unclaimed);
    }
    return unclaimed.length;
  }

  private async kill(record: WorkflowRunRecord, keys: readonly string[]): Promise<void> {
    const { deps } = this;
    for (const key of keys) {
      const claimed = record.nodeRuns[key];
      const attempt = record.state.nodes[key]?.attempt;
      if (!claimed || claimed.attempt !== attempt || !deps.killRun) continue;
      for (const logId of claimed.logIds) {
        await deps.killRun(logId).catch((err: unknown) => {
          deps.logger.warn('workflow node run not killed', {
            runId: record.id,
            node: key,
            logId,
            error: err instanceof Error ? err.message : String(err),
          });
        });
      }
    }
  }

  /** A run ended: counted, alarmed when it FAILED, and the buffered run's turn comes. */
  private async ended(def: WorkflowDefinition, record: WorkflowRunRecord): Promise<void> {
    const { deps } = this;
    const status = record.state.status;
    deps.metrics.add(
      status === 'SUCCEEDED' ? METRIC.workflowRunsSucceeded : METRIC.workflowRunsFailed,
      'Count',
      1,
    );
    deps.logger.info('workflow run ended', {
      runId: record.id,
      workflowId: record.workflowId,
      status,
      failedNodes: record.state.failedNodes,
    });
    if (status === 'FAILED') await this.alarm(def, record);
    await this.startBuffered(record.workflowId);
  }

  /**
   * A FAILED run is alarmed once through the alarm paths of its first failed node's job (SNS topic,
   * the job's webhook), naming the workflow and every failed node; the node runs' own alarms are
   * not sent (see run-outcome: a failure a workflow handles must not page anyone).
   */
  private async alarm(def: WorkflowDefinition, record: WorkflowRunRecord): Promise<void> {
    const { deps } = this;
    const { failedNodes } = record.state;
    const [firstKey = ''] = failedNodes;
    const node = def.nodes.find((n) => n.key === firstKey);
    const logId = record.nodeRuns[firstKey]?.logIds[0];
    const [job, stored] = await Promise.all([
      node ? deps.jobs.get(node.jobId) : undefined,
      logId === undefined ? undefined : deps.runs.get(logId),
    ]);
    const failures = failedNodes
      .map((key) => `${key}: ${truncate(record.state.nodes[key]?.result ?? '', 200)}`)
      .join('; ');
    const summary = `Workflow ${record.workflowId} (${def.name}) of ${def.appName} failed: run ${record.id}, failed node${failedNodes.length === 1 ? '' : 's'} ${failures}`;
    deps.metrics.add(METRIC.alarms, 'Count', 1);
    // A node that failed without a job run (its parameter could not be rendered, its job is gone)
    // is described by a run that never was: logId 0, its reason as the message.
    const run = stored ?? unstartedRun(record, firstKey, node?.jobId ?? 0, job);
    const alarmJob = job ?? {
      id: node?.jobId ?? 0,
      name: `node ${firstKey}`,
      appName: def.appName,
      alarmEmail: '',
      alarmWebhook: '',
    };
    const workflow = { id: record.workflowId, name: def.name, runId: record.id, failedNodes };
    const delivered = await deps.alarms
      .publish({ job: alarmJob, run, summary, workflow })
      .catch((err: unknown) => {
        deps.logger.error('workflow alarm failed', { runId: record.id, error: String(err) });
        return false;
      });
    deps.logger.warn('workflow run failed, alarm raised', { runId: record.id, delivered, summary });
  }

  private async requireRun(runId: string): Promise<WorkflowRunRecord> {
    const record = await this.deps.workflows.getRun(runId);
    if (!record) throw new NotFoundError(`workflow run ${runId} does not exist (or it expired)`);
    return record;
  }

  /** One version's definition (kept: versions never change). */
  async definition(workflowId: number, version: number): Promise<WorkflowDefinition> {
    const key = `${workflowId}#${version}`;
    const known = this.definitions.get(key);
    if (known) return known;
    const def = await this.deps.workflows.getVersion(workflowId, version);
    if (!def) throw new PermanentError(`workflow ${workflowId} has no version ${version}`);
    this.remember(workflowId, version, def);
    return def;
  }

  private remember(workflowId: number, version: number, def: WorkflowDefinition): void {
    if (this.definitions.size >= DEFINITION_CACHE_SIZE) this.definitions.clear();
    this.definitions.set(`${workflowId}#${version}`, def);
  }
}

/** The record of a workflow as the API shows it is the store's; kept here so callers need one import. */
export type { WorkflowRecord };

/** The stand-in run of a node that failed without one (for its alarm). */
function unstartedRun(record: WorkflowRunRecord, key: string, jobId: number, job: Job | undefined): Run {
  const now = record.finishedAt ?? record.movedAt;
  return {
    logId: 0,
    jobId,
    appName: record.appName,
    jobName: job?.name ?? '',
    dedupKey: nodeFireKey({ runId: record.id, node: key, attempt: record.state.nodes[key]?.attempt ?? 1 }),
    triggerType: 'WORKFLOW',
    scheduledTime: now,
    triggerTime: now,
    executorHandler: job?.executorHandler ?? '',
    executorParam: '',
    executorRouteStrategy: job?.executorRouteStrategy ?? '',
    executorTimeout: 0,
    shardIndex: 0,
    shardTotal: 1,
    attempt: 1,
    retriesLeft: 0,
    executorAddress: '',
    triggerCode: 0,
    triggerMsg: 'not started',
    dispatchedAt: 0,
    handleCode: HANDLE_CODE.fail,
    handleMsg: record.state.nodes[key]?.result ?? '',
    handleTime: now,
    alarmStatus: 0,
  };
}

function firedTimes(
  times: Readonly<Record<string, NodeTimes>>,
  fired: readonly string[],
  now: number,
  logIds: ReadonlyMap<string, number>,
): Record<string, NodeTimes> {
  const next: Record<string, NodeTimes> = { ...times };
  for (const key of fired) {
    const logId = logIds.get(key);
    next[key] = { firedAt: now, ...(logId === undefined ? {} : { logId }) };
  }
  return next;
}

/** A node run's result: its handleMsg; a run refused at trigger time says so. */
function resultOf(run: Run): string {
  if (run.handleMsg !== '') return run.handleMsg;
  if (run.triggerCode === TRIGGER_CODE.fail)
    return "the job run was not started: its trigger failed (see the run's trigger message)";
  return '';
}

/** A broadcast node's outcome: every shard succeeded or not; the results as a JSON array in shard order. */
function shardsOutcome(attempt: number, shards: readonly ShardOutcome[]): NodeOutcome {
  const ordered = [...shards].sort((a, b) => a.index - b.index);
  const results = ordered.map((s) => parsedOrText(s.result));
  return {
    status: ordered.every((s) => s.ok) ? 'SUCCEEDED' : 'FAILED',
    attempt,
    result: JSON.stringify(results),
  };
}

function parsedOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function newRunId(deps: Pick<WorkflowEngineDeps, 'newId' | 'clock'>): string {
  if (deps.newId) return deps.newId();
  const time = deps.clock.now().toString(36);
  const random = randomUUID().replaceAll('-', '').slice(0, 12);
  return `wr-${time}-${random}`;
}
