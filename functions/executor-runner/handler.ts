import type { HandleCallbackParam, LambdaTriggerHandler } from '@tickring/executor';
import type { Context } from 'aws-lambda';
import { type ExecutorRunnerConfig, loadConfig } from './config.js';
import { buildRunner, type RunnerDeps } from './runner.js';

type RunnerContext = Pick<Context, 'getRemainingTimeInMillis' | 'awsRequestId' | 'functionName'>;
/** Async-invoked with a TriggerParam; resolves to the reported result, throws if no admin accepted it. */
export type RunnerHandler = (event: unknown, context: RunnerContext) => Promise<HandleCallbackParam>;

/** The handler for an explicit config (the local stack uses this); built on the first call, once. */
export function createHandler(config: ExecutorRunnerConfig, deps: RunnerDeps = {}): RunnerHandler {
  let runner: Promise<LambdaTriggerHandler> | undefined;
  return async (event, context) => {
    runner ??= buildRunner(config, deps).catch((err: unknown) => {
      runner = undefined;
      throw err;
    });
    return (await runner)(event, context);
  };
}

let fromEnv: RunnerHandler | undefined;
/** The Lambda entry point, configured from the environment on first call. */
export const handler: RunnerHandler = (event, context) => {
  fromEnv ??= createHandler(loadConfig(process.env));
  return fromEnv(event, context);
};
