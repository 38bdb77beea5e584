import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { ExecutorTarget, ExecutorTransport } from '@tickring/core/executors';
import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';

/** Addresses of Lambda executors: `lambda:<function name, partial or full ARN, optionally :qualifier>`. */
export const LAMBDA_SCHEME = 'lambda:';

const FAIL = 500;
/** Lambda answers an accepted asynchronous invocation with 202. */
const ACCEPTED = 202;

export function isLambdaAddress(address: string): boolean {
  return address.trim().startsWith(LAMBDA_SCHEME);
}

/** The FunctionName of a `lambda:` address. */
export function lambdaFunctionName(address: string): string {
  return address.trim().slice(LAMBDA_SCHEME.length);
}

export interface LambdaExecutorTransportOptions {
  readonly lambda: LambdaClient;
  /** Per Invoke call. Default 3 s, as for HTTP executors. */
  readonly timeoutMs?: number;
}

/**
 * Executors that are Lambda functions (built with the SDK's `lambdaExecutor`): a trigger is an
 * asynchronous Invoke (`InvocationType: 'Event'`) whose payload is the TriggerParam JSON; the function
 * reports its result to `/api/callback` like any executor.
 *
 * Lambda runs every invocation in its own sandbox and scales out on demand, so there is nothing to
 * probe: `beat` and `idleBeat` answer 200 without a call (FAILOVER and BUSYOVER take the first Lambda
 * address). A run cannot be killed and its log lives in CloudWatch Logs, so `kill` and `log` answer 500
 * saying so.
 */
export class LambdaExecutorTransport implements ExecutorTransport {
  private readonly timeoutMs: number;

  constructor(private readonly options: LambdaExecutorTransportOptions) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
  }

  async run({ address }: ExecutorTarget, param: TriggerParam): Promise<ReturnT<unknown>> {
    const functionName = lambdaFunctionName(address);
    if (functionName === '')
      return { code: FAIL, msg: `"${address}" names no function (expected lambda:<function>)` };
    try {
      const result = await this.options.lambda.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'Event',
          Payload: Buffer.from(JSON.stringify(param)),
        }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
      if (result.StatusCode !== ACCEPTED) {
        return {
          code: FAIL,
          msg: `lambda invoke of ${functionName} answered StatusCode ${result.StatusCode}`,
        };
      }
      return { code: 200, msg: `lambda ${functionName} invoked asynchronously` };
    } catch (err) {
      return { code: FAIL, msg: `lambda invoke of ${functionName} failed: ${describe(err, this.timeoutMs)}` };
    }
  }

  async beat({ address }: ExecutorTarget): Promise<ReturnT<unknown>> {
    return { code: 200, msg: `${lambdaFunctionName(address)} is a Lambda function: always available` };
  }

  async idleBeat({ address }: ExecutorTarget, _jobId: number): Promise<ReturnT<unknown>> {
    return {
      code: 200,
      msg: `${lambdaFunctionName(address)} is a Lambda function: each run gets its own sandbox`,
    };
  }

  async kill({ address }: ExecutorTarget, _jobId: number): Promise<ReturnT<unknown>> {
    return {
      code: FAIL,
      msg: `kill is not supported for Lambda executors (${lambdaFunctionName(address)}): a Lambda run ends by itself or at its timeout`,
    };
  }

  async log({ address }: ExecutorTarget): Promise<ReturnT<LogResult>> {
    return {
      code: FAIL,
      msg: `log is not supported for Lambda executors (${lambdaFunctionName(address)}): read the run's lines in CloudWatch Logs (log group /aws/lambda/<function>, keys jobId and logId)`,
    };
  }
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
