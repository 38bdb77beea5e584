import type { Env } from '@tickring/core/config';
import { loadRunFinisherConfig, type RunFinisherConfig } from '../wiring/run-finisher-config.js';

/** The callback reads nothing beyond what every function that finishes runs reads. */
export type CallbackConfig = RunFinisherConfig;

export function loadConfig(env: Env): CallbackConfig {
  return loadRunFinisherConfig(env);
}
