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

export interface CallbackConfig {
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
  /** Required: executors must present it (tokens fail closed). */
  readonly accessToken: TokenSource;
  /** Seals and opens the access tokens groups have of their own. */
  readonly tokenKey: TokenSource;
  /** Heartbeats expire (DynamoDB TTL) a few times this after they were last seen. */
  readonly registryDeadSeconds: number;
  readonly shardCount: number;
  readonly logRetentionDays: number;
}

export function loadConfig(env: Env): CallbackConfig {
  return {
    aws: loadAwsConfig(env),
    tables: loadTables(env, ['jobs', 'groups', 'runs', 'registry', 'control', 'workflows']),
    queueUrls: loadRingQueueUrls(env),
    alarmTopicArn: requireString(env, ENV.alarmTopicArn),
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    tokenKey: requireToken(env, ENV.tokenKey, ENV.tokenKeySecretArn),
    registryDeadSeconds: loadSetting(env, 'registryDeadSeconds'),
    shardCount: loadSetting(env, 'shardCount'),
    logRetentionDays: loadSetting(env, 'logRetentionDays'),
  };
}
