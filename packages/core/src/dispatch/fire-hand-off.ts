import { ValidationError } from '../common/errors.js';
import type { FireMessage } from './trigger.js';

/**
 * Hands fires that are decided already (a workflow node's, just saved as awaited by its engine) to a
 * dispatcher at once, instead of a hop through the ring. Resolves once a dispatcher has accepted them
 * (not once they are dispatched); throws when they could not be handed over, and the caller then puts
 * them on the ring, which stays the safety net.
 */
export interface FireHandOff {
  handOff(fires: readonly FireMessage[]): Promise<void>;
}

/** What tells a handed-off event from a ring batch (an SQS event has `Records`). */
export const HANDED_OFF_SOURCE = 'tickring.fire-hand-off';

/** The dispatcher's event for handed-off fires: the one definition of its shape (AWS and local). */
export interface HandedOffFires {
  readonly source: typeof HANDED_OFF_SOURCE;
  readonly fires: readonly FireMessage[];
}

export function handedOffFires(fires: readonly FireMessage[]): HandedOffFires {
  return { source: HANDED_OFF_SOURCE, fires };
}

/** Whether an event the dispatcher got is handed-off fires (else it is its ring's SQS event). */
export function isHandedOffFires(event: unknown): event is HandedOffFires {
  return (
    typeof event === 'object' &&
    event !== null &&
    (event as { source?: unknown }).source === HANDED_OFF_SOURCE
  );
}

/** The fires of a handed-off event; ValidationError when `fires` is not an array (each fire is checked as a ring fire is). */
export function handedOffFiresOf(event: HandedOffFires): readonly unknown[] {
  if (!Array.isArray(event.fires)) {
    throw new ValidationError('a handed-off event must carry its fires as an array', 'fires');
  }
  return event.fires;
}

/**
 * How long after its engine decided a node's fire (`FireMessage.decidedAt`) a dispatcher takes the
 * decision as it is instead of reading the run again. Within it a cancel may still land before the
 * claim: the same race as between that read and the claim, and the node run's outcome is then
 * recorded in the cancelled run. Later (a Lambda retry, a ring copy redelivered) the run is read.
 */
export const DECISION_TRUST_MS = 1_000;

/** Whether a fire's decision is fresh at `nowMs` (within the trust on either side: two functions' clocks differ a little). */
export function isFreshDecision(message: Pick<FireMessage, 'decidedAt'>, nowMs: number): boolean {
  return message.decidedAt !== undefined && Math.abs(nowMs - message.decidedAt) <= DECISION_TRUST_MS;
}
