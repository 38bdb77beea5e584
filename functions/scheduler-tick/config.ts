import type { AwsClientOptions } from '@tickring/aws/clients';
import { loadAwsConfig, loadRingQueueUrls, loadTables } from '@tickring/aws/clients';
import type { Env } from '@tickring/core/config';
import { loadSetting } from '@tickring/core/config';
import { loadStoreConfig, type StoreConfig } from '../wiring/store-config.js';

export interface SchedulerTickConfig {
  readonly aws: AwsClientOptions;
  /**
   * The jobs and the shard leases it reads and advances, the ring it plans onto, the audit log
   * where a schedule that stops itself is recorded, and the calendars due jobs follow.
   */
  readonly store: StoreConfig<'jobs' | 'control' | 'audit' | 'calendars'>;
  readonly auditRetentionDays: number;
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
    store: loadStoreConfig(env, () => ({
      tables: loadTables(env, ['jobs', 'control', 'audit', 'calendars']),
      queueUrls: loadRingQueueUrls(env),
    })),
    auditRetentionDays: loadSetting(env, 'auditRetentionDays'),
    shardCount: loadSetting(env, 'shardCount'),
    preReadCount: loadSetting(env, 'preReadCount'),
    planAheadSeconds: loadSetting(env, 'planAheadSeconds'),
    leaseMs: loadSetting(env, 'leaseMs'),
    loopSeconds: loadSetting(env, 'tickLoopSeconds'),
  };
}
