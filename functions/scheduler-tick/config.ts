import type { AwsClientOptions } from '@tickring/aws/clients';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import type { Env } from '@tickring/core/config';
import { loadSetting } from '@tickring/core/config';

export interface SchedulerTickConfig {
  readonly aws: AwsClientOptions;
  readonly tables: { readonly jobs: string; readonly control: string };
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  readonly shardCount: number;
  readonly preReadCount: number;
  readonly planAheadSeconds: number;
  readonly leaseMs: number;
  /** How long one invocation keeps ticking; EventBridge starts new ones every minute. */
  readonly loopSeconds: number;
}

export function loadConfig(env: Env): SchedulerTickConfig {
  return {
    aws: loadAwsConfig(env),
    tables: loadTables(env, ['jobs', 'control']),
    queueUrls: loadRingQueueUrls(env),
    shardCount: loadSetting(env, 'shardCount'),
    preReadCount: loadSetting(env, 'preReadCount'),
    planAheadSeconds: loadSetting(env, 'planAheadSeconds'),
    leaseMs: loadSetting(env, 'leaseMs'),
    loopSeconds: loadSetting(env, 'tickLoopSeconds'),
  };
}
