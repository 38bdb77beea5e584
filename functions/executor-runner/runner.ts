import { Logger } from '@aws-lambda-powertools/logger';
import { resolveToken, type SecretReader } from '@tickring/aws/secrets';
import {
  builtInHandlers,
  type ExecutorLogger,
  type LambdaTriggerHandler,
  lambdaExecutor,
} from '@tickring/executor';
import type { ExecutorRunnerConfig } from './config.js';

export interface RunnerDeps {
  /** @default a Powertools Logger, service "executor-runner" */
  logger?: ExecutorLogger;
  /** @default Secrets Manager GetSecretValue */
  readSecret?: SecretReader;
}

/** The composition root, once per cold start: resolves the token and builds the Lambda executor. */
export async function buildRunner(
  config: ExecutorRunnerConfig,
  deps: RunnerDeps = {},
): Promise<LambdaTriggerHandler> {
  return lambdaExecutor({
    handlers: builtInHandlers({ httpAllowList: config.httpAllowList }),
    adminAddresses: config.adminAddresses,
    accessToken: await resolveToken(config.accessToken, deps.readSecret),
    logger: deps.logger ?? new Logger({ serviceName: 'executor-runner' }),
    reportMarginMs: config.reportMarginMs,
    abortGraceMs: config.abortGraceMs,
  });
}
