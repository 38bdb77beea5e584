import type { AwsClientOptions } from '@tickring/aws/clients';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import {
  ENV,
  type Env,
  loadSetting,
  optionalString,
  requireString,
  requireToken,
  type TokenSource,
} from '@tickring/core/config';
import { type DispatcherHandOffConfig, loadDispatcherFunction } from '../wiring/hand-off-config.js';
import { loadStoreConfig, type StoreConfig } from '../wiring/store-config.js';

/** The tables the api reads and writes (DynamoDB). */
export type ApiTable =
  | 'jobs'
  | 'groups'
  | 'control'
  | 'runs'
  | 'registry'
  | 'principals'
  | 'audit'
  | 'workflows'
  | 'calendars'
  | 'backfills'
  | 'alerts';

export interface ApiConfig extends DispatcherHandOffConfig {
  readonly aws: AwsClientOptions;
  /**
   * Jobs, groups, runs, registry, users, audit, workflows, calendars, backfills, alerts and the ring (manual triggers and the nodes
   * a workflow trigger or retry fires go on its fast lane); a workflow run that fails here (a node
   * killed, a retry that fails at once) is alarmed.
   */
  readonly store: StoreConfig<ApiTable>;
  /** The job store files running jobs under `id % shardCount`. */
  readonly shardCount: number;
  /** Required: with no token configured the function does not start (tokens fail closed). */
  readonly adminToken: TokenSource;
  /** Sent to executors (`/log`, `/kill`) as `XXL-JOB-ACCESS-TOKEN`; required (tokens fail closed). */
  readonly accessToken: TokenSource;
  /** Seals and opens the access tokens groups have of their own. */
  readonly tokenKey: TokenSource;
  /**
   * The secret the console's CloudFront distribution sends (`x-tickring-edge-secret`): only a request
   * carrying it has its `CloudFront-Viewer-Address` believed. None (the local stack): never believed.
   */
  readonly edgeSecret?: TokenSource;
  /** Admin → executor call timeout (XXL-JOB's `xxl.job.timeout`, 3 s). */
  readonly executorTimeoutMs: number;
  /** Executors not seen for this long are offline (XXL-JOB: 90 s). */
  readonly registryDeadSeconds: number;
  /** Run records expire after this many days; the log list looks back this far by default. */
  readonly logRetentionDays: number;
  /** Audit records expire after this many days. */
  readonly auditRetentionDays: number;
  /** Sessions: idle expiry (sliding) and the most a session lives. */
  readonly sessionIdleMinutes: number;
  readonly sessionMaxHours: number;
  /** scrypt's cost of new password hashes, log2 N (SETTINGS.passwordHashCost). */
  readonly passwordHashCost: number;
}

export function loadConfig(env: Env): ApiConfig {
  return {
    aws: loadAwsConfig(env),
    store: loadStoreConfig(env, () => ({
      tables: loadTables(env, [
        'jobs',
        'groups',
        'control',
        'runs',
        'registry',
        'principals',
        'audit',
        'workflows',
        'calendars',
        'backfills',
        'alerts',
      ]),
      queueUrls: loadRingQueueUrls(env),
      alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    })),
    shardCount: loadSetting(env, 'shardCount'),
    adminToken: requireToken(env, ENV.adminToken, ENV.adminTokenSecretArn),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    tokenKey: requireToken(env, ENV.tokenKey, ENV.tokenKeySecretArn),
    ...edgeSecret(env),
    executorTimeoutMs: loadSetting(env, 'executorTimeoutMs'),
    registryDeadSeconds: loadSetting(env, 'registryDeadSeconds'),
    logRetentionDays: loadSetting(env, 'logRetentionDays'),
    auditRetentionDays: loadSetting(env, 'auditRetentionDays'),
    sessionIdleMinutes: loadSetting(env, 'sessionIdleMinutes'),
    sessionMaxHours: loadSetting(env, 'sessionMaxHours'),
    passwordHashCost: loadSetting(env, 'passwordHashCost'),
    ...loadDispatcherFunction(env, { self: false }),
  };
}

/** The edge secret's ARN, when CloudFront stands in front (AWS). */
function edgeSecret(env: Env): { edgeSecret?: TokenSource } {
  const secretArn = optionalString(env, ENV.edgeSecretArn);
  return secretArn === undefined ? {} : { edgeSecret: { secretArn } };
}
