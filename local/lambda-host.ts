import { randomUUID } from 'node:crypto';
import type { Logger } from '@tickring/core/common';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

/** A Lambda handler as the local stack drives it: AWS-shaped event in, result out. */
export type LambdaHandler<E = unknown, R = unknown> = (event: E, context: Context) => Promise<R>;

export interface LocalFunctionSpec<E = unknown, R = unknown> {
  readonly name: string;
  readonly timeoutMs: number;
  readonly memoryMb?: number;
  readonly handler: LambdaHandler<E, R>;
}

export class LambdaTimeoutError extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(`${functionName}: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'LambdaTimeoutError';
  }
}

const ACCOUNT = '000000000000';

/** One invocation as an observer sees it (epoch ms). */
export interface InvocationInfo {
  readonly functionName: string;
  readonly requestId: string;
  /** The function's configured memory (256 when not set, as the context reports it). */
  readonly memoryMb: number;
  readonly startedAt: number;
}

/**
 * Told when each invocation starts and ends (the bench counts invocations and their durations).
 * Called synchronously; an observer that throws is ignored.
 */
export interface InvocationObserver {
  started?(call: InvocationInfo): void;
  finished?(call: InvocationInfo & { readonly endedAt: number; readonly ok: boolean }): void;
}

export function functionArn(region: string, name: string): string {
  return `arn:aws:lambda:${region}:${ACCOUNT}:function:${name}`;
}

/** A Lambda-like context: request id, remaining time against the configured timeout, names. */
export function createLambdaContext(spec: LocalFunctionSpec, region: string, deadline: number): Context {
  const stub = () => undefined;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: spec.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: functionArn(region, spec.name),
    memoryLimitInMB: String(spec.memoryMb ?? 256),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${spec.name}`,
    logStreamName: `local/${new Date().toISOString().slice(0, 10)}/[$LATEST]${randomUUID().replaceAll('-', '')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: stub,
    fail: stub,
    succeed: stub,
  };
}

/**
 * Hosts functions in this process the way Lambda runs them: one context per invocation, the
 * configured timeout enforced (the invocation fails with Lambda's message), and `drain()` waiting
 * for invocations in flight so a stop is clean.
 */
export class LambdaHost {
  private readonly functions = new Map<string, LocalFunctionSpec>();
  /** Invocations in flight, with their function's name. */
  private readonly inFlight = new Map<Promise<unknown>, string>();

  constructor(
    private readonly region: string,
    /** Optional: sees every invocation start and end; none by default. */
    private readonly observer?: InvocationObserver,
  ) {}

  register(spec: LocalFunctionSpec<never, unknown>): void {
    this.functions.set(spec.name, spec as LocalFunctionSpec);
  }

  has(name: string): boolean {
    return this.functions.has(name);
  }

  names(): string[] {
    return [...this.functions.keys()];
  }

  invoke<R = unknown>(name: string, event: unknown): Promise<R> {
    const spec = this.functions.get(name);
    if (!spec) return Promise.reject(new Error(`Function not found: ${name}`));
    const deadline = Date.now() + spec.timeoutMs;
    const context = createLambdaContext(spec, this.region, deadline);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LambdaTimeoutError(spec.name, spec.timeoutMs)), spec.timeoutMs);
    });
    const call: InvocationInfo = {
      functionName: spec.name,
      requestId: context.awsRequestId,
      memoryMb: spec.memoryMb ?? 256,
      startedAt: Date.now(),
    };
    this.notify(() => this.observer?.started?.(call));
    let ok = false;
    const run = Promise.race([spec.handler(event, context), timeout])
      .then((result) => {
        ok = true;
        return result;
      })
      .finally(() => {
        clearTimeout(timer);
        this.notify(() => this.observer?.finished?.({ ...call, endedAt: Date.now(), ok }));
      });
    const tracked = run.catch(() => undefined);
    this.inFlight.set(tracked, spec.name);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return run as Promise<R>;
  }

  private notify(tell: () => void): void {
    if (!this.observer) return;
    try {
      tell();
    } catch {
      // An observer's failure must not change what the function does.
    }
  }

  /** Waits for invocations in flight (of the named functions only, when given), at most `timeoutMs`. */
  async drain(timeoutMs: number, names?: readonly string[]): Promise<void> {
    const waited = [...this.inFlight].filter(([, name]) => !names || names.includes(name)).map(([p]) => p);
    if (waited.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(waited),
      new Promise((r) => {
        timer = setTimeout(r, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

/**
 * Hands a queue consumer's batch to its function as the Lambda event source does: the records it
 * handled (all but those it reported in `batchItemFailures`), to be deleted; none when the function
 * failed on the batch (logged: every message then returns after its visibility timeout).
 */
export async function invokeSqsBatch(
  host: LambdaHost,
  functionName: string,
  event: SQSEvent,
  logger: Logger,
): Promise<SQSRecord[]> {
  let failed: Set<string>;
  try {
    const result = await host.invoke<SQSBatchResponse | undefined>(functionName, event);
    failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (err) {
    logger.error('function failed on a batch; messages return after the visibility timeout', {
      functionName,
      error: String(err),
    });
    return [];
  }
  return event.Records.filter((r) => !failed.has(r.messageId));
}
