import { loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import { ENV, type Env, loadSetting, requireString } from '@tickring/core/config';
import { DEFAULT_MONITOR_BATCH } from '@tickring/core/runs/use-cases';
import { loadRunFinisherConfig, type RunFinisherConfig } from '../wiring/run-finisher-config.js';
import { loadStoreConfig, type StoreConfig } from '../wiring/store-config.js';

export interface MonitorsConfig extends RunFinisherConfig {
  /**
   * A run finisher's stores, the backfills (the backfill sweep), the calendars (the dead-man sweep)
   * and the alerts (the delivery sweep).
   */
  readonly store: StoreConfig<
    | 'jobs'
    | 'groups'
    | 'runs'
    | 'registry'
    | 'control'
    | 'workflows'
    | 'audit'
    | 'backfills'
    | 'calendars'
    | 'alerts'
  >;
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
    store: loadStoreConfig(env, () => ({
      tables: loadTables(env, [
        'jobs',
        'groups',
        'runs',
        'registry',
        'control',
        'workflows',
        'audit',
        'backfills',
        'calendars',
        'alerts',
      ]),
      queueUrls: loadRingQueueUrls(env),
      alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    })),
    lostRunSettleMs: loadSetting(env, 'lostRunSettleSeconds') * 1000,
    workflowStalledMs: loadSetting(env, 'workflowStalledSeconds') * 1000,
    executorTimeoutMs: loadSetting(env, 'executorTimeoutMs'),
    batchSize: DEFAULT_MONITOR_BATCH,
  };
}
