import type { FunctionName } from '@tickring/aws/topology';
import { ENV, SETTINGS } from '@tickring/core/config';

/**
 * Scheduler settings the stack passes to the functions as env vars (each function has a default
 * for every one, see the README's settings table). Unset settings are left to those defaults,
 * except the shard count, which every function that files jobs must agree on, so the stack
 * always sets it.
 */
export interface TickringSettings {
  /** Shards of the job index, each with its own lease (TICKRING_SHARD_COUNT). @default 4 */
  readonly shardCount?: number;
  /** Most jobs read per shard per second (TICKRING_PRE_READ_COUNT). */
  readonly preReadCount?: number;
  /** About how far ahead a due job's fires are planned, s (TICKRING_PLAN_AHEAD_SECONDS; see `planHorizonMs`). @default 10 */
  readonly planAheadSeconds?: number;
  /** Shard lease length in ms (TICKRING_LEASE_MS). */
  readonly leaseMs?: number;
  /** Admin → executor HTTP timeout in ms (TICKRING_EXECUTOR_TIMEOUT_MS). */
  readonly executorTimeoutMs?: number;
  /** An executor not seen for this long is offline (TICKRING_REGISTRY_DEAD_SECONDS). */
  readonly registryDeadSeconds?: number;
  /** Run records expire (DynamoDB TTL) after this many days (TICKRING_LOG_RETENTION_DAYS). */
  readonly logRetentionDays?: number;
}

export const DEFAULT_SHARD_COUNT = SETTINGS.shardCount.default;

type SettingKey = keyof TickringSettings;

/** The env var of each setting and the functions that read it (their `loadConfig`). */
export const SETTING_ENV: Readonly<
  Record<SettingKey, { readonly env: string; readonly readers: readonly FunctionName[] }>
> = {
  shardCount: {
    env: ENV.shardCount,
    readers: ['scheduler-tick', 'dispatcher', 'callback', 'api', 'monitors'],
  },
  preReadCount: { env: ENV.preReadCount, readers: ['scheduler-tick'] },
  planAheadSeconds: { env: ENV.planAheadSeconds, readers: ['scheduler-tick'] },
  leaseMs: { env: ENV.leaseMs, readers: ['scheduler-tick'] },
  executorTimeoutMs: { env: ENV.executorTimeoutMs, readers: ['dispatcher', 'monitors', 'api'] },
  registryDeadSeconds: {
    env: ENV.registryDeadSeconds,
    readers: ['dispatcher', 'callback', 'monitors', 'api'],
  },
  logRetentionDays: { env: ENV.logRetentionDays, readers: ['dispatcher', 'callback', 'monitors', 'api'] },
};

/** The settings env vars of one function. */
export function settingsEnv(settings: TickringSettings, fn: FunctionName): Record<string, string> {
  const resolved: TickringSettings = { ...settings, shardCount: settings.shardCount ?? DEFAULT_SHARD_COUNT };
  const env: Record<string, string> = {};
  for (const [key, { env: name, readers }] of Object.entries(SETTING_ENV) as [
    SettingKey,
    (typeof SETTING_ENV)[SettingKey],
  ][]) {
    const value = resolved[key];
    if (value === undefined || !readers.includes(fn)) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`setting ${key} must be a positive integer, got ${value}`);
    env[name] = String(value);
  }
  return env;
}
