import type { AwsClientOptions } from '@tickring/aws/clients';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import { FUNCTIONS } from '@tickring/aws/topology';
import {
  ENV,
  type Env,
  loadSetting,
  requireString,
  requireToken,
  type TokenSource,
} from '@tickring/core/config';
import { type DispatcherHandOffConfig, loadDispatcherFunction } from '../wiring/hand-off-config.js';
import { loadStoreConfig, type StoreConfig } from '../wiring/store-config.js';

export interface DispatcherConfig extends DispatcherHandOffConfig {
  readonly aws: AwsClientOptions;
  /** The tables it reads and claims in, the ring it consumes (and re-sends to), the alarm topic. */
  readonly store: StoreConfig<
    'jobs' | 'groups' | 'runs' | 'registry' | 'control' | 'workflows' | 'audit' | 'alerts'
  >;
  /** The job store files running jobs under `id % shardCount`. */
  readonly shardCount: number;
  /** Admin → executor call timeout (XXL-JOB's `xxl.job.timeout`, 3 s). */
  readonly executorTimeoutMs: number;
  /** Executors not seen for this long are offline (XXL-JOB: 90 s). */
  readonly registryDeadSeconds: number;
  readonly logRetentionDays: number;
  /** A job paused by its failure policy (a refused trigger's outcome) is recorded in the audit log, kept this long. */
  readonly auditRetentionDays: number;
  /** Sent to executors as `XXL-JOB-ACCESS-TOKEN`; required (tokens fail closed). */
  readonly accessToken: TokenSource;
  /** Seals and opens the access tokens groups have of their own. */
  readonly tokenKey: TokenSource;
  /**
   * A run recorded but not dispatched for this long is taken over by a redelivery: the function's
   * timeout (its dispatcher has ended by then) and a margin for the clocks of two dispatchers.
   */
  readonly claimStaleMs: number;
}

/** Beyond the dispatcher's timeout before a claim counts as stale. */
export const CLAIM_STALE_MARGIN_MS = 5_000;

export function loadConfig(env: Env): DispatcherConfig {
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
    shardCount: loadSetting(env, 'shardCount'),
    executorTimeoutMs: loadSetting(env, 'executorTimeoutMs'),
    registryDeadSeconds: loadSetting(env, 'registryDeadSeconds'),
    logRetentionDays: loadSetting(env, 'logRetentionDays'),
    auditRetentionDays: loadSetting(env, 'auditRetentionDays'),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    tokenKey: requireToken(env, ENV.tokenKey, ENV.tokenKeySecretArn),
    claimStaleMs: FUNCTIONS.dispatcher.timeoutSeconds * 1000 + CLAIM_STALE_MARGIN_MS,
    ...loadDispatcherFunction(env, { self: true }),
  };
}
