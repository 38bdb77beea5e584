import type { Env } from '@tickring/core/config';
import { loadSetting } from '@tickring/core/config';
import { loadRunFinisherConfig, type RunFinisherConfig } from '../wiring/run-finisher-config.js';

/** What every function that finishes runs reads, and how often a refused request's count is written. */
export interface CallbackConfig extends RunFinisherConfig {
  /** A refused executor request's key is written at most this often per instance (0: every one). */
  readonly refusalWriteSeconds: number;
}

export function loadConfig(env: Env): CallbackConfig {
  return { ...loadRunFinisherConfig(env), refusalWriteSeconds: loadSetting(env, 'refusalWriteSeconds') };
}
