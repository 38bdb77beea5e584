import type { AwsClientOptions } from '../../shared/adapters/aws-clients.js';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '../../shared/config/common.js';
import { ENV, type Env, optionalInt } from '../../shared/config/env.js';

export interface SchedulerTickConfig {
  readonly aws: AwsClientOptions;
  readonly tables: { readonly jobs: string; readonly control: string };
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  readonly shardCount: number;
  readonly preReadCount: number;
  readonly leaseMs: number;
  /** How long one invocation keeps ticking; EventBridge starts new ones every minute. */
  readonly loopSeconds: number;
}

export function loadConfig(env: Env): SchedulerTickConfig {
  return {
    aws: loadAwsConfig(env),
    tables: loadTables(env, ['jobs', 'control']),
    queueUrls: loadRingQueueUrls(env),
    shardCount: optionalInt(env, ENV.shardCount, 4, 1),
    preReadCount: optionalInt(env, ENV.preReadCount, 5000, 1),
    leaseMs: optionalInt(env, ENV.leaseMs, 3000, 1000),
    loopSeconds: optionalInt(env, ENV.tickLoopSeconds, 60, 1),
  };
}
