import type { AwsClientOptions } from '@tickring/aws/clients';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import {
  ENV,
  type Env,
  loadSetting,
  requireString,
  requireToken,
  type TokenSource,
} from '@tickring/core/config';
import { DEFAULT_MONITOR_BATCH } from '@tickring/core/runs/use-cases';

export interface MonitorsConfig {
  readonly aws: AwsClientOptions;
  readonly tables: {
    readonly jobs: string;
    readonly groups: string;
    readonly runs: string;
    readonly registry: string;
    readonly control: string;
    readonly workflows: string;
  };
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  readonly alarmTopicArn: string;
  /** Sent with `beat` to executors no registry vouches for. */
  readonly accessToken: TokenSource;
  /** Seals and opens the access tokens groups have of their own. */
  readonly tokenKey: TokenSource;
  readonly registryDeadSeconds: number;
  /** How long after a dispatch record was begun the lost-run watch reads it. */
  readonly lostRunSettleMs: number;
  /** A workflow run not moved for this long is re-driven (see WorkflowEngine.sweepStalledRuns). */
  readonly workflowStalledMs: number;
  readonly executorTimeoutMs: number;
  readonly shardCount: number;
  readonly logRetentionDays: number;
  readonly batchSize: number;
}

export function loadConfig(env: Env): MonitorsConfig {
  return {
    aws: loadAwsConfig(env),
    tables: loadTables(env, ['jobs', 'groups', 'runs', 'registry', 'control', 'workflows']),
    queueUrls: loadRingQueueUrls(env),
    alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    tokenKey: requireToken(env, ENV.tokenKey, ENV.tokenKeySecretArn),
    registryDeadSeconds: loadSetting(env, 'registryDeadSeconds'),
    lostRunSettleMs: loadSetting(env, 'lostRunSettleSeconds') * 1000,
    workflowStalledMs: loadSetting(env, 'workflowStalledSeconds') * 1000,
    executorTimeoutMs: loadSetting(env, 'executorTimeoutMs'),
    shardCount: loadSetting(env, 'shardCount'),
    logRetentionDays: loadSetting(env, 'logRetentionDays'),
    batchSize: DEFAULT_MONITOR_BATCH,
  };
}
