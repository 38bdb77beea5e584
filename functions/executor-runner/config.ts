import {
  ConfigError,
  ENV,
  type Env,
  loadSetting,
  optionalString,
  requireString,
  requireToken,
  type TokenSource,
} from '@tickring/core/config';
import { parseAdminAddresses, validateAllowList } from '@tickring/executor';

export interface ExecutorRunnerConfig {
  /** Admin base URLs the result is reported to, tried in order. */
  adminAddresses: string[];
  /** The access token, given directly (local) or as a Secrets Manager ARN (AWS), read at cold start. */
  accessToken: TokenSource;
  httpAllowList: string[];
  reportMarginMs: number;
  /** How long an aborted handler may take to stop before its result is reported anyway. */
  abortGraceMs: number;
}

/** Reads the runner's configuration; throws a ConfigError naming the variable that is missing or wrong. */
export function loadConfig(env: Env): ExecutorRunnerConfig {
  const rawAddresses = requireString(env, ENV.adminAddresses);
  let adminAddresses: string[];
  try {
    adminAddresses = parseAdminAddresses(rawAddresses);
  } catch (err) {
    throw new ConfigError(`Environment variable ${ENV.adminAddresses} is invalid: ${(err as Error).message}`);
  }
  const httpAllowList = (optionalString(env, ENV.httpAllowList) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    validateAllowList(httpAllowList);
  } catch (err) {
    throw new ConfigError(`Environment variable ${ENV.httpAllowList} is invalid: ${(err as Error).message}`);
  }
  return {
    adminAddresses,
    accessToken: requireToken(env, ENV.accessToken, ENV.accessTokenSecretArn),
    httpAllowList,
    reportMarginMs: loadSetting(env, 'reportMarginMs'),
    abortGraceMs: 1_000,
  };
}
