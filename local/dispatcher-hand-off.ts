import type { Logger } from '@tickring/core/common';
import { type FireHandOff, type FireMessage, handedOffFires } from '@tickring/core/dispatch';
import type { LambdaHost } from './lambda-host.js';

/**
 * The local stack's hand-off of decided fires: the hosted dispatcher is invoked at once with the
 * `HandedOffFires` event through the LambdaHost (its timeout, and the drain at stop, apply), not
 * waited for, as Lambda runs an asynchronous invocation. Closed with the ring pollers at stop: from
 * then on it refuses, and the engine puts the fires on the ring (the SQLite ring keeps them).
 */
export class LocalDispatcherHandOff implements FireHandOff {
  private closed = false;

  constructor(
    private readonly host: LambdaHost,
    private readonly functionName: string,
    private readonly logger: Logger,
  ) {}

  async handOff(fires: readonly FireMessage[]): Promise<void> {
    if (this.closed) throw new Error('the local dispatcher takes no hand-off: the stack is stopping');
    if (!this.host.has(this.functionName)) throw new Error(`no function ${this.functionName} is hosted`);
    // The dispatcher puts what it could not dispatch on the ring itself; a failed invocation is
    // logged, and the monitors' stalled-run sweep fires the node again.
    this.host.invoke(this.functionName, handedOffFires(fires)).catch((err: unknown) => {
      this.logger.error('handed-off fires failed in the dispatcher', {
        dedupKeys: fires.map((fire) => fire.dedupKey),
        error: String(err),
      });
    });
  }

  /** Refuses hand-offs from now on. */
  close(): void {
    this.closed = true;
  }
}
