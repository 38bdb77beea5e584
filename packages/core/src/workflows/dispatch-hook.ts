import { METRIC } from '../common/metrics.js';
import { isFreshDecision } from '../dispatch/fire-hand-off.js';
import type { FireHook, FireLink, LinkedFire, OwnedJob } from '../dispatch/fire-hook.js';
import type { FireMessage } from '../dispatch/trigger.js';
import type { Job } from '../jobs/job.js';
import { HANDLE_CODE, type Run, TRIGGER_CODE } from '../runs/run.js';
import { onRunFinished, type RunOutcomeDeps } from '../runs/run-outcome.js';
import { scheduledRunId, starterAddress } from './model/link.js';
import type { WorkflowEngine } from './workflow-engine.js';

/** The run-outcome adapters, with the workflow engine that starts runs and hears of node fires. */
export interface WorkflowFireHookDeps extends RunOutcomeDeps {
  readonly workflows: Pick<
    WorkflowEngine,
    'onNodeRunFinished' | 'start' | 'nodeFireState' | 'noteNodeRuns' | 'onFireDropped'
  >;
}

/**
 * What the workflows add to the dispatcher: a node's fire asks whether its run still waits for it,
 * tells the run when it is dropped and which job runs it became; a workflow's starter job (its
 * schedule) starts the workflow run where an executor would be called.
 */
export class WorkflowFireHook implements FireHook {
  constructor(private readonly deps: WorkflowFireHookDeps) {}

  async linkedFire(message: FireMessage, link: FireLink): Promise<LinkedFire> {
    const { deps } = this;
    // A fire its engine decided a moment ago (the run saved with the node awaited at this attempt)
    // is taken as awaited without a read; a dropped one reads the run, to know whether it was claimed.
    const decided = isFreshDecision(message, deps.clock.now());
    const state = decided ? undefined : await deps.workflows.nodeFireState(link);
    return {
      unwanted:
        state === undefined || state.awaited
          ? undefined
          : `workflow run ${link.runId} no longer waits for node ${link.node} (attempt ${link.attempt})`,
      // The engine decides whether that ends the node's attempt.
      dropped: async (reason) =>
        deps.workflows.onFireDropped(link, state ?? (await deps.workflows.nodeFireState(link)), {
          reason,
          ...(message.retry ? { retryOf: message.retry.ofLogId } : {}),
        }),
      // For the run's page, a cancel's kill and the monitors; a broadcast shard's retry leaves the
      // node's shard list as it was. Best-effort: the monitors find the node by its fire again.
      noteRuns: async (logIds, first) => {
        if (logIds.length === 0) return;
        const shard = message.retry && first && first.shardTotal > 1 ? first.shardIndex : undefined;
        await deps.workflows.noteNodeRuns(link, logIds, shard);
      },
      sending: (run, nowMs) => {
        if (run.triggerType !== 'WORKFLOW') return;
        deps.metrics.add(METRIC.workflowNodeLateness, 'Milliseconds', Math.max(0, nowMs - run.scheduledTime));
      },
    };
  }

  ownedJob(job: Job, workflowId: number): OwnedJob {
    return {
      addresses: [starterAddress(workflowId)],
      addressSource: 'workflow',
      send: async (run) => {
        // Started where an executor would be called: a dispatcher that dies after this and before its
        // record is written leaves the fire to be taken over, which finds the run started.
        const result = await this.startScheduled(run, workflowId);
        return {
          reply: { code: TRIGGER_CODE.success, msg: result.handleMsg },
          finish: () => this.finishStarterRun(job, run, result),
        };
      },
    };
  }

  /**
   * A workflow's schedule fired (its starter job's run): the workflow run starts (one per fire,
   * `scheduledRunId`, whoever starts it; a start repeated finds it started), and what happened is
   * the starter run's result, a success also when the overlap policy skipped the start.
   */
  private async startScheduled(run: Run, workflowId: number): Promise<StarterResult> {
    let handleCode: number = HANDLE_CODE.success;
    let handleMsg: string;
    try {
      // A backfill's fire starts a BACKFILL run that names its past scheduled time (its nodes see it as input).
      const backfill = run.triggerType === 'BACKFILL';
      const started = await this.deps.workflows.start({
        workflowId,
        runId: scheduledRunId(run.logId),
        ...(backfill ? { input: { scheduledTime: new Date(run.scheduledTime).toISOString() } } : {}),
        trigger: backfill
          ? { type: 'BACKFILL', starterLogId: run.logId, scheduledTime: run.scheduledTime }
          : { type: 'SCHEDULE', starterLogId: run.logId },
      });
      handleMsg =
        started.kind === 'skipped'
          ? `workflow run not started: ${started.reason}`
          : started.kind === 'exists'
            ? `workflow run ${started.runId} started`
            : `workflow run ${started.run.id} ${started.kind}`;
    } catch (err) {
      handleCode = HANDLE_CODE.fail;
      handleMsg = `workflow ${workflowId} not started: ${err instanceof Error ? err.message : String(err)}`;
    }
    return { handleCode, handleMsg };
  }

  /** The starter run's result: what became of the start. */
  private async finishStarterRun(job: Job, run: Run, result: StarterResult): Promise<void> {
    const { deps } = this;
    const { handleCode, handleMsg } = result;
    const outcome = await deps.runs.complete(
      run.logId,
      { handleCode, handleMsg, handleTime: deps.clock.now() },
      { markOutcomePending: handleCode !== HANDLE_CODE.success },
    );
    if (outcome.kind === 'completed') {
      await onRunFinished(deps, outcome.run, true, { job, marked: handleCode !== HANDLE_CODE.success });
    }
  }
}

interface StarterResult {
  readonly handleCode: number;
  readonly handleMsg: string;
}
