import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { ExecutorTarget, ExecutorTransport } from '@tickring/core/executors';
import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';
import { HttpExecutorTransport } from '@tickring/transport';
import { isLambdaAddress, LambdaExecutorTransport } from './lambda-transport.js';

/** The transport every function uses: XXL-JOB over HTTP, or Lambda invoke for `lambda:` addresses. */
export function createExecutorTransport(options: {
  /** The token for a group's executors: its own, or the global one (see `groupAccessTokens`). */
  readonly accessToken: (appName: string) => Promise<string>;
  readonly timeoutMs: number;
  readonly lambda: LambdaClient;
}): ExecutorTransport {
  return new SchemeExecutorTransport({
    http: new HttpExecutorTransport({ accessToken: options.accessToken, timeoutMs: options.timeoutMs }),
    lambda: new LambdaExecutorTransport({ lambda: options.lambda, timeoutMs: options.timeoutMs }),
  });
}

/**
 * Picks the transport by the address's scheme: `lambda:<function>` goes to Lambda, `http://` and
 * `https://` to the XXL-JOB HTTP protocol; anything else is a failed call naming the address.
 */
export class SchemeExecutorTransport implements ExecutorTransport {
  constructor(
    private readonly transports: { readonly http: ExecutorTransport; readonly lambda: ExecutorTransport },
  ) {}

  run(target: ExecutorTarget, param: TriggerParam): Promise<ReturnT<unknown>> {
    return this.pick(target, (t) => t.run(target, param));
  }

  beat(target: ExecutorTarget): Promise<ReturnT<unknown>> {
    return this.pick(target, (t) => t.beat(target));
  }

  idleBeat(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>> {
    return this.pick(target, (t) => t.idleBeat(target, jobId));
  }

  kill(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>> {
    return this.pick(target, (t) => t.kill(target, jobId));
  }

  log(
    target: ExecutorTarget,
    logDateTime: number,
    logId: number,
    fromLineNum: number,
  ): Promise<ReturnT<LogResult>> {
    return this.pick(target, (t) => t.log(target, logDateTime, logId, fromLineNum));
  }

  private async pick<T>(
    { address }: ExecutorTarget,
    call: (transport: ExecutorTransport) => Promise<ReturnT<T>>,
  ): Promise<ReturnT<T>> {
    if (isLambdaAddress(address)) return call(this.transports.lambda);
    if (/^https?:\/\//i.test(address.trim())) return call(this.transports.http);
    return {
      code: 500,
      msg: `unsupported executor address "${address}": expected http(s)://host:port/ or lambda:<function>`,
    };
  }
}
