import type { AwsClients } from '@tickring/aws/clients';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import type { Clock, Logger } from '@tickring/core/common';
import { type Metrics, type MetricUnit, noMetrics } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import * as apiConfig from '../functions/api/config.js';
import * as api from '../functions/api/handler.js';
import * as callbackConfig from '../functions/callback/config.js';
import * as callback from '../functions/callback/handler.js';
import * as dispatcherConfig from '../functions/dispatcher/config.js';
import * as dispatcher from '../functions/dispatcher/handler.js';
import * as executorRunnerConfig from '../functions/executor-runner/config.js';
import * as executorRunner from '../functions/executor-runner/handler.js';
import * as monitorsConfig from '../functions/monitors/config.js';
import * as monitors from '../functions/monitors/handler.js';
import * as schedulerTickConfig from '../functions/scheduler-tick/config.js';
import * as schedulerTick from '../functions/scheduler-tick/handler.js';
import type { LambdaHandler, LocalFunctionSpec } from './lambda-host.js';

/** What every locally hosted function shares: one set of SDK clients, a clock, a logger per function. */
export interface LocalRuntime {
  readonly clients: AwsClients;
  readonly clock: Clock;
  readonly loggerFor: (name: FunctionName) => Logger;
  /** Aborted on stop, so long-running invocations (the tick loop) end within seconds. */
  readonly signal: AbortSignal;
  /** Optional: receives the functions' business metrics (dropped by default). */
  readonly onMetric?: MetricSink;
  /** Optional: wraps a handler before it is hosted (the bench's fault injection); none by default. */
  readonly wrapHandler?: HandlerWrapper;
  /** Optional: where the workflow engine hands the nodes it fires (the hosted dispatcher); else the ring. */
  readonly handOff?: FireHandOff;
}

/** Where the functions' metrics go when the caller wants them: one call per `metrics.add`. */
export type MetricSink = (functionName: FunctionName, name: string, unit: MetricUnit, value: number) => void;

/** Returns the handler to host instead of `handler` (which it may call). */
export type HandlerWrapper = (functionName: FunctionName, handler: LambdaHandler) => LambdaHandler;

const quietMetrics = { ...noMetrics, flush() {} };

/** The metrics port of one function: the sink's when given, else nothing. */
function metricsFor(name: FunctionName, sink: MetricSink | undefined): Metrics & { flush(): void } {
  if (!sink) return quietMetrics;
  return { add: (metric, unit, value) => sink(name, metric, unit, value), flush() {} };
}

/**
 * The real handlers of `functions/`, each built the way its Lambda entry builds itself
 * (`loadConfig(env)` then `createHandler`), with the local runtime swapped in.
 */
export function localFunctions(env: Record<string, string>, runtime: LocalRuntime): LocalFunctionSpec[] {
  const spec = (name: FunctionName, handler: LambdaHandler<never, unknown>): LocalFunctionSpec => ({
    name,
    timeoutMs: FUNCTIONS[name].timeoutSeconds * 1000,
    memoryMb: FUNCTIONS[name].memoryMb,
    handler: runtime.wrapHandler
      ? runtime.wrapHandler(name, handler as LambdaHandler)
      : (handler as LambdaHandler),
  });
  const common = (name: FunctionName) => ({
    clients: runtime.clients,
    clock: runtime.clock,
    metrics: metricsFor(name, runtime.onMetric),
  });
  // The functions that run the workflow engine.
  const engine = runtime.handOff ? { handOff: runtime.handOff } : {};
  return [
    spec(
      'scheduler-tick',
      schedulerTick.createHandler(schedulerTickConfig.loadConfig(env), {
        ...common('scheduler-tick'),
        logger: runtime.loggerFor('scheduler-tick'),
        signal: runtime.signal,
      }),
    ),
    spec(
      'api',
      api.createHandler(apiConfig.loadConfig(env), {
        ...common('api'),
        ...engine,
        logger: runtime.loggerFor('api'),
      }),
    ),
    // Dispatch: the ring queues' consumer, and the Lambda executor that `lambda:executor-runner` invokes.
    spec(
      'dispatcher',
      dispatcher.createHandler(dispatcherConfig.loadConfig(env), {
        ...common('dispatcher'),
        ...engine,
        logger: runtime.loggerFor('dispatcher'),
      }),
    ),
    spec(
      'executor-runner',
      executorRunner.createHandler(executorRunnerConfig.loadConfig(env), {
        logger: runtime.loggerFor('executor-runner'),
      }),
    ),
    // Results and registry from executors (XXL-JOB's /api/*), and the lost-run monitor.
    spec(
      'callback',
      callback.createHandler(callbackConfig.loadConfig(env), {
        ...common('callback'),
        ...engine,
        logger: runtime.loggerFor('callback'),
      }),
    ),
    spec(
      'monitors',
      monitors.createHandler(monitorsConfig.loadConfig(env), {
        ...common('monitors'),
        ...engine,
        logger: runtime.loggerFor('monitors'),
      }),
    ),
  ];
}
