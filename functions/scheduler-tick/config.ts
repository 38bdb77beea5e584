import type { AwsClientOptions } from '../../shared/adapters/aws-clients.js';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '../../shared/config/common.js';
import type { Env } from '../../shared/config/env.js';
import { loadSetting } from '../../shared/config/settings.js';

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
