/**
 * What the tick and the dispatcher rely on from a RingQueue, run over each adapter: in memory
 * (unit, packages/testing/src/memory/ring-queue.contract.test.ts) and on the SQS stand-in
 * (integration, packages/aws/src/sqs/ring-queue.contract.int.test.ts). The port only sends; the
 * harness reads each lane as the dispatcher's event source does (receive, then delete what was
 * done). Each test gets fresh, empty queues.
 */

import type { FireMessage, RingEntry, RingGauge, RingLane, RingQueue } from '@tickring/core/dispatch';
import { describe, expect, it } from 'vitest';
import type { RingDelivery } from '../memory/ring-queue.js';

/** A ring and a consumer's view of its lanes. */
export interface RingQueueHarness {
  readonly ring: RingQueue & RingGauge;
  /**
   * Every message of the lane visible now, each then hidden for `visibilitySeconds` (the consumer's
   * visibility timeout) unless acked.
   */
  receive(lane: RingLane, visibilitySeconds: number): Promise<RingDelivery[]>;
  /** Deletes a received message: the consumer is done with it. */
  ack(lane: RingLane, delivery: RingDelivery): Promise<void>;
  /** Lets `ms` of the ring's time pass (its clock's, or a real wait). */
  elapse(ms: number): Promise<void>;
}

const T = Date.UTC(2030, 0, 1, 12, 0, 0);
/** Hidden long enough that a test never sees a message come back by itself. */
const LONG_VISIBILITY = 60;

function fire(jobId: number, second: number, extra: Partial<FireMessage> = {}): FireMessage {
  const scheduledTime = T + second * 1_000;
  return { jobId, scheduledTime, triggerType: 'CRON', dedupKey: `${jobId}#${scheduledTime}`, ...extra };
}

const entry = (message: FireMessage, lane: RingLane = 'fast', delaySeconds = 0): RingEntry => ({
  message,
  lane,
  delaySeconds,
});

const keysOf = (deliveries: readonly RingDelivery[]) =>
  deliveries.flatMap((d) => d.fires.map((f) => f.dedupKey)).sort();

export function ringQueueContract(label: string, newRing: () => Promise<RingQueueHarness>): void {
  describe(`RingQueue contract (${label})`, () => {
    it('delivers every fire once, as sent, on its own lane, however many travel together', async () => {
      const h = await newRing();
      // More fires than one message, and more messages than one send, hold.
      const fast = Array.from({ length: 600 }, (_, i) => fire(i + 1, 0));
      const slow = [
        fire(500, 0, { triggerType: 'MANUAL', executorParam: 'a=1', addressList: ['http://10.0.0.1:9999/'] }),
        fire(501, 0, {
          triggerType: 'RETRY',
          logId: 30064771073,
          retry: { attempt: 2, ofLogId: 30064771072, retriesLeft: 1 },
        }),
      ];
      await h.ring.enqueue([...fast.map((m) => entry(m)), ...slow.map((m) => entry(m, 'slow'))]);
      const fastDeliveries = await h.receive('fast', LONG_VISIBILITY);
      const slowDeliveries = await h.receive('slow', LONG_VISIBILITY);
      const received = fastDeliveries.flatMap((d) => d.fires);
      expect(received).toHaveLength(fast.length);
      expect([...received].sort((a, b) => a.jobId - b.jobId)).toEqual(fast);
      expect(slowDeliveries.flatMap((d) => d.fires).sort((a, b) => a.jobId - b.jobId)).toEqual(slow);
      await h.ring.enqueue([]);
      expect(await h.receive('fast', LONG_VISIBILITY)).toEqual([]);
    });

    it('holds each fire back for its delay, then delivers it', async () => {
      const h = await newRing();
      await h.ring.enqueue([
        entry(fire(1, 0), 'fast', 0),
        entry(fire(2, 1), 'fast', 1),
        entry(fire(3, 1), 'slow', 1),
        entry(fire(4, 900), 'fast', 900),
      ]);
      expect(keysOf(await h.receive('fast', LONG_VISIBILITY))).toEqual([fire(1, 0).dedupKey]);
      expect(await h.receive('slow', LONG_VISIBILITY)).toEqual([]);
      await h.elapse(1_200);
      expect(keysOf(await h.receive('fast', LONG_VISIBILITY))).toEqual([fire(2, 1).dedupKey]);
      expect(keysOf(await h.receive('slow', LONG_VISIBILITY))).toEqual([fire(3, 1).dedupKey]);
    });

    it('hides a received message for the visibility timeout, delivers it again unless acked, and never after the ack', async () => {
      const h = await newRing();
      await h.ring.enqueue([entry(fire(1, 0)), entry(fire(2, 0)), entry(fire(3, 0), 'slow')]);
      const first = await h.receive('fast', 1);
      expect(keysOf(first)).toEqual([fire(1, 0).dedupKey, fire(2, 0).dedupKey]);
      expect(first.map((d) => d.receiveCount)).toEqual(first.map(() => 1));
      for (const delivery of await h.receive('slow', 1)) await h.ack('slow', delivery);
      expect(await h.receive('fast', 1)).toEqual([]); // in flight

      await h.elapse(1_500);
      const again = await h.receive('fast', 1);
      expect(keysOf(again)).toEqual(keysOf(first));
      expect(again.map((d) => d.receiveCount)).toEqual(again.map(() => 2));
      for (const delivery of again) await h.ack('fast', delivery);

      await h.elapse(1_500);
      expect(await h.receive('fast', 1)).toEqual([]);
      expect(await h.receive('slow', 1)).toEqual([]);
    });

    it("counts the fast lane's messages past their delay: waiting until received, in flight until acked", async () => {
      const h = await newRing();
      // 120 fires due now travel in several messages; a delayed one and the slow lane's are not behind.
      const due = Array.from({ length: 120 }, (_, i) => entry(fire(i + 1, 0)));
      await h.ring.enqueue([...due, entry(fire(500, 60), 'fast', 60), entry(fire(501, 0), 'slow')]);
      const before = await h.ring.backlog();
      const received = await h.receive('fast', LONG_VISIBILITY);
      expect(received.flatMap((d) => d.fires)).toHaveLength(120);
      expect(received.length).toBeGreaterThan(1);
      expect(before).toEqual({ waiting: received.length, inFlight: 0 });
      expect(await h.ring.backlog()).toEqual({ waiting: 0, inFlight: received.length });

      const [done, ...rest] = received;
      if (done) await h.ack('fast', done);
      expect(await h.ring.backlog()).toEqual({ waiting: 0, inFlight: rest.length });
      for (const delivery of rest) await h.ack('fast', delivery);
      expect(await h.ring.backlog()).toEqual({ waiting: 0, inFlight: 0 });
    });
  });
}
