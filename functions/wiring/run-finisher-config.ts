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
import { type DispatcherHandOffConfig, loadDispatcherFunction } from './hand-off-config.js';
import { loadStoreConfig, type StoreConfig } from './store-config.js';

/**
 * The settings of a function that finishes executors' runs (the callback, the monitors): the stores
 * and ring a run's outcome writes to, the executor registry, and the executors' tokens.
 */
export interface RunFinisherConfig extends DispatcherHandOffConfig {
  readonly aws: AwsClientOptions;
  /** The stores and ring a run's outcome writes to, the executor registry, the alarm topic, the alerts. */
  readonly store: StoreConfig<
    'jobs' | 'groups' | 'runs' | 'registry' | 'control' | 'workflows' | 'audit' | 'alerts'
  >;
  /**
   * The executors' global token, required (tokens fail closed): executors present it to the
   * callback, the monitors send it with `beat` to executors no registry vouches for.
   */
  readonly accessToken: TokenSource;
  /** Seals and opens the access tokens groups have of their own. */
  readonly tokenKey: TokenSource;
  /**
   * An executor not seen for this long is offline; its heartbeats expire (DynamoDB TTL) a few times
   * this after they were last seen.
   */
  readonly registryDeadSeconds: number;
  readonly shardCount: number;
  readonly logRetentionDays: number;
  /** A job paused (or started again) by its failure policy is recorded in the audit log, kept this long. */
  readonly auditRetentionDays: number;
}

export function loadRunFinisherConfig(env: Env): RunFinisherConfig {
  return {
    aws: loadAwsConfig(env),
    store: loadStoreConfig(env, () => ({
      tables: loadTables(env, [
        'jobs',
        'groups',
        'runs',
        'registry',
        'control',
        'workflows',
        'audit',
        'alerts',
      ]),
      queueUrls: loadRingQueueUrls(env),
      alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    })),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    tokenKey: requireToken(env, ENV.tokenKey, ENV.tokenKeySecretArn),
    registryDeadSeconds: loadSetting(env, 'registryDeadSeconds'),
    shardCount: loadSetting(env, 'shardCount'),
    logRetentionDays: loadSetting(env, 'logRetentionDays'),
    auditRetentionDays: loadSetting(env, 'auditRetentionDays'),
    ...loadDispatcherFunction(env, { self: false }),
  };
}
