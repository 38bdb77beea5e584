import type { Logger } from '@tickring/core/common';
import {
  dueNow,
  type FireHandOff,
  type FireMessage,
  handedOffFires,
  type RingQueue,
} from '@tickring/core/dispatch';
import type { LambdaHost } from './lambda-host.js';

/**
 * The local stack's hand-off of decided fires: the hosted dispatcher is invoked at once with the
 * `HandedOffFires` event through the LambdaHost (its timeout, and the drain at stop, apply), not
 * waited for, as Lambda runs an asynchronous invocation; a failed invocation puts its fires on the
 * ring. Closed with the ring pollers at stop: from
 * then on it refuses, and the engine puts the fires on the ring (the SQLite ring keeps them).
 */
export class LocalDispatcherHandOff implements FireHandOff {
  private closed = false;

  constructor(
    private readonly host: LambdaHost,
    private readonly functionName: string,
    /** Where fires go when their invocation fails (the SQLite ring keeps them through a crash). */
    private readonly ring: RingQueue,
    private readonly logger: Logger,
  ) {}

  async handOff(fires: readonly FireMessage[]): Promise<void> {
    if (this.closed) throw new Error('the local dispatcher takes no hand-off: the stack is stopping');
    if (!this.host.has(this.functionName)) throw new Error(`no function ${this.functionName} is hosted`);
    // The dispatcher puts what it could not dispatch on the ring itself. A failed invocation (a
    // timeout, a throw) puts them all there, as Lambda retries a failed asynchronous invocation: a
    // fire it claimed already is a duplicate there. Only when that send fails too do they wait for
    // the monitors' stalled-run sweep.
    this.host.invoke(this.functionName, handedOffFires(fires)).catch(async (err: unknown) => {
      const dedupKeys = fires.map((fire) => fire.dedupKey);
      try {
        await this.ring.enqueue(dueNow(fires));
        this.logger.warn('handed-off fires failed in the dispatcher: put on the ring', {
          dedupKeys,
          error: String(err),
        });
      } catch (sendErr) {
        this.logger.error('handed-off fires failed in the dispatcher and on the ring', {
          dedupKeys,
          error: String(err),
          ringError: String(sendErr),
        });
      }
    });
  }

  /** Refuses hand-offs from now on. */
  close(): void {
    this.closed = true;
  }
}
