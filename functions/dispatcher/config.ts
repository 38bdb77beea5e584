import type { AwsClientOptions } from '../../shared/adapters/aws-clients.js';
import { DEFAULT_EXECUTOR_TIMEOUT_MS } from '../../shared/adapters/executor-http.js';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '../../shared/config/common.js';
import {
  ENV,
  type Env,
  optionalInt,
  requireString,
  requireToken,
  type TokenSource,
} from '../../shared/config/env.js';
import { FUNCTIONS } from '../../shared/schema/functions.js';
import { DISPATCH_DEFAULTS } from '../../shared/use-cases/dispatch-fire.js';

export interface DispatcherConfig {
  readonly aws: AwsClientOptions;
  readonly tables: {
    readonly jobs: string;
    readonly groups: string;
    readonly runs: string;
    readonly registry: string;
    readonly control: string;
  };
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  /** The job store files running jobs under `id % shardCount`. */
  readonly shardCount: number;
  /** Admin → executor call timeout (XXL-JOB's `xxl.job.timeout`, 3 s). */
  readonly executorTimeoutMs: number;
  /** Executors not seen for this long are offline (XXL-JOB: 90 s). */
  readonly registryDeadSeconds: number;
  readonly logRetentionDays: number;
  /** Sent to executors as `XXL-JOB-ACCESS-TOKEN`; required (tokens fail closed). */
  readonly accessToken: TokenSource;
  readonly alarmTopicArn: string;
  /** A run recorded but not dispatched for this long is taken over by a redelivery: the function's timeout. */
  readonly claimStaleMs: number;
}

export function loadConfig(env: Env): DispatcherConfig {
  return {
    aws: loadAwsConfig(env),
    tables: loadTables(env, ['jobs', 'groups', 'runs', 'registry', 'control']),
    queueUrls: loadRingQueueUrls(env),
    shardCount: optionalInt(env, ENV.shardCount, 4, 1),
    executorTimeoutMs: optionalInt(env, ENV.executorTimeoutMs, DEFAULT_EXECUTOR_TIMEOUT_MS, 1),
    registryDeadSeconds: optionalInt(env, ENV.registryDeadSeconds, DISPATCH_DEFAULTS.registryDeadSeconds, 1),
    logRetentionDays: optionalInt(env, ENV.logRetentionDays, 30, 1),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    claimStaleMs: FUNCTIONS.dispatcher.timeoutSeconds * 1000,
  };
}
