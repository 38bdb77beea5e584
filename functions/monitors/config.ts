import { type Env, loadSetting } from '@tickring/core/config';
import { DEFAULT_MONITOR_BATCH } from '@tickring/core/runs/use-cases';
import { loadRunFinisherConfig, type RunFinisherConfig } from '../wiring/run-finisher-config.js';

export interface MonitorsConfig extends RunFinisherConfig {
  /** How long after a dispatch record was begun the lost-run watch reads it. */
  readonly lostRunSettleMs: number;
  /** A workflow run not moved for this long is re-driven (see WorkflowEngine.sweepStalledRuns). */
  readonly workflowStalledMs: number;
  readonly executorTimeoutMs: number;
  readonly batchSize: number;
}

export function loadConfig(env: Env): MonitorsConfig {
  return {
    ...loadRunFinisherConfig(env),
    lostRunSettleMs: loadSetting(env, 'lostRunSettleSeconds') * 1000,
    workflowStalledMs: loadSetting(env, 'workflowStalledSeconds') * 1000,
    executorTimeoutMs: loadSetting(env, 'executorTimeoutMs'),
    batchSize: DEFAULT_MONITOR_BATCH,
  };
}
