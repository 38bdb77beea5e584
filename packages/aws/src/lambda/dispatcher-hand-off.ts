import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { type FireHandOff, type FireMessage, handedOffFires } from '@tickring/core/dispatch';

/** Lambda answers an accepted asynchronous invocation with 202. */
const ACCEPTED = 202;
/** Most bytes of an asynchronous invocation's payload (Lambda's limit for InvocationType Event). */
export const MAX_EVENT_PAYLOAD_BYTES = 256 * 1024;

export interface LambdaDispatcherHandOffOptions {
  readonly lambda: LambdaClient;
  /** The dispatcher function (name or ARN). */
  readonly functionName: string;
  /** Per Invoke call; default 3 s (the engine then puts the fires on the ring). */
  readonly timeoutMs?: number;
}

/**
 * Hands decided fires to the dispatcher function with an asynchronous Invoke (`InvocationType:
 * 'Event'`) of the `HandedOffFires` event: accepted once Lambda queued it (202). Lambda retries an
 * invocation that fails (the dispatcher puts what it could not dispatch on the ring itself); a
 * refused or timed-out Invoke throws, and the engine puts the fires on the ring.
 */
export class LambdaDispatcherHandOff implements FireHandOff {
  constructor(private readonly options: LambdaDispatcherHandOffOptions) {}

  async handOff(fires: readonly FireMessage[]): Promise<void> {
    const { lambda, functionName, timeoutMs = 3_000 } = this.options;
    const payload = Buffer.from(JSON.stringify(handedOffFires(fires)));
    if (payload.byteLength > MAX_EVENT_PAYLOAD_BYTES) {
      throw new Error(
        `${fires.length} fires make ${payload.byteLength} bytes, more than an asynchronous invocation takes (${MAX_EVENT_PAYLOAD_BYTES})`,
      );
    }
    const result = await lambda.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: payload }),
      { abortSignal: AbortSignal.timeout(timeoutMs) },
    );
    if (result.StatusCode !== ACCEPTED) {
      throw new Error(`the asynchronous invoke of ${functionName} answered StatusCode ${result.StatusCode}`);
    }
  }
}
