import { dispatchRingBatch, type RingBatchDeps } from './dispatch-batch.js';
import { type HandedOffFires, handedOffFiresOf } from './fire-hand-off.js';
import { dueNow } from './ring-queue.js';
import { type FireMessage, toFireMessage } from './trigger.js';

export interface HandedOffResult {
  /** Fires in the event. */
  readonly fires: number;
  /** Fires that met an infrastructure failure and were put on the ring to be tried again there. */
  readonly requeued: number;
}

/**
 * Dispatches fires handed to this dispatcher directly (see FireHandOff), each as a one-fire record
 * of a ring batch: the same reads, claim, turns and dispatch record as a ring batch's. No queue
 * delivers them again, so a fire that met an infrastructure failure goes on the fast ring (its claim
 * de-duplicates it if it got that far); only when that send fails too does this throw (an
 * asynchronous Lambda invocation is then retried, a local one logged, and the monitors re-fire the
 * node). A malformed event or fire is logged and dropped, as on the ring.
 */
export async function dispatchHandedOff(
  deps: RingBatchDeps,
  event: HandedOffFires,
  deadline: number,
  requestId?: string,
): Promise<HandedOffResult> {
  let fires: readonly unknown[];
  try {
    fires = handedOffFiresOf(event);
  } catch (err) {
    deps.logger.error('handed-off event dropped', { requestId, error: String(err) });
    return { fires: 0, requeued: 0 };
  }
  const records = fires.map((fire, i) => ({
    id: `hand-off#${i}`,
    lane: 'fast' as const,
    body: JSON.stringify(fire),
  }));
  const failed = new Set(await dispatchRingBatch(deps, records, deadline, requestId));
  const again: FireMessage[] = records
    .filter((record) => failed.has(record.id))
    .map((record) => toFireMessage(JSON.parse(record.body)));
  if (again.length > 0) {
    deps.logger.warn('handed-off fires failed; put on the ring to be tried again', {
      requestId,
      dedupKeys: again.map((fire) => fire.dedupKey),
    });
    await deps.ring.enqueue(dueNow(again));
  }
  return { fires: fires.length, requeued: again.length };
}
