import { SCRYPT_COST } from '../identity/password.js';
import { ENV, type Env, optionalInt } from './env.js';

/** A numeric setting: its env var, its default and the values it may take. */
interface Setting {
  readonly env: string;
  readonly default: number;
  readonly min: number;
  readonly max?: number;
}

/**
 * The numeric settings of the functions, each defined once: its env var, default and lowest valid
 * value. Every `loadConfig` reads them through `loadSetting`; `infra/` passes them on.
 */
export const SETTINGS = {
  /** Shards of the job index, each with its own lease; every function that files jobs must agree. */
  shardCount: { env: ENV.shardCount, default: 4, min: 1 },
  /** Most jobs read per shard per iteration (XXL-JOB's preReadCount). */
  preReadCount: { env: ENV.preReadCount, default: 5000, min: 1 },
  /**
   * How far ahead a due job's fires are planned (>= the 5 s pre-read). A job is picked up once it is
   * due within 5 s and then gets every fire up to this horizon in one advance: a every-second job
   * costs one conditional write per ~5 fires instead of one per fire.
   */
  planAheadSeconds: { env: ENV.planAheadSeconds, default: 10, min: 5 },
  /** Shard lease length; a dead tick's shards are taken over after it. */
  leaseMs: { env: ENV.leaseMs, default: 3000, min: 1000 },
  /**
   * How long one tick invocation loops. Longer than the rule's minute, so invocations overlap even
   * when EventBridge starts the next ones late (it only promises "within that minute").
   */
  tickLoopSeconds: { env: ENV.tickLoopSeconds, default: 80, min: 1 },
  /** Admin → executor call timeout (XXL-JOB's `xxl.job.timeout`, 3 s). */
  executorTimeoutMs: { env: ENV.executorTimeoutMs, default: 3000, min: 100 },
  /** An executor not seen for this long is offline (XXL-JOB: 90 s). */
  registryDeadSeconds: { env: ENV.registryDeadSeconds, default: 90, min: 1 },
  /**
   * callback: a refused executor request's key is written at most this often per instance, the
   * refusals in between with its next write (a flood costs one write per key per interval). 0 writes
   * every refusal (tests).
   */
  refusalWriteSeconds: { env: ENV.refusalWriteSeconds, default: 10, min: 0 },
  /**
   * The lost-run watch reads a dispatch record this long after it was begun: its dispatcher has
   * written it by then (within the dispatcher's 15 s timeout). Lower only in tests.
   */
  lostRunSettleSeconds: { env: ENV.lostRunSettleSeconds, default: 60, min: 1 },
  /**
   * A workflow run that has not moved for this long (to 10 s more) is re-driven by the monitors:
   * longer than a dispatch and a callback take, so a run on its way is left alone. Lower only in tests.
   */
  workflowStalledSeconds: { env: ENV.workflowStalledSeconds, default: 60, min: 1 },
  /** Run records expire (DynamoDB TTL) after this many days. */
  logRetentionDays: { env: ENV.logRetentionDays, default: 30, min: 1 },
  /** Audit records expire (DynamoDB TTL) after this many days. */
  auditRetentionDays: { env: ENV.auditRetentionDays, default: 365, min: 1 },
  /** A session not used for this long expires (sliding: each use moves it on). */
  sessionIdleMinutes: { env: ENV.sessionIdleMinutes, default: 30, min: 1 },
  /** A session ends this long after sign-in, however much it is used. */
  sessionMaxHours: { env: ENV.sessionMaxHours, default: 12, min: 1 },
  /**
   * api: scrypt's cost of a password hashed from now on, as log2 N (15: 32 MiB a hash). A hash keeps
   * its own cost, so a change leaves the passwords set before it working. Lower only in tests.
   */
  passwordHashCost: { env: ENV.passwordHashCost, ...SCRYPT_COST },
  /** executor-runner: Lambda time kept back to report the result. */
  reportMarginMs: { env: ENV.reportMarginMs, default: 3000, min: 0 },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/** A setting from the environment, or its default; a malformed value names the variable. */
export function loadSetting(env: Env, name: SettingName): number {
  const setting: Setting = SETTINGS[name];
  return optionalInt(env, setting.env, setting.default, setting.min, setting.max);
}
