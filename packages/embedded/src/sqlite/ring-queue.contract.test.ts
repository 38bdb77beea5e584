import { FakeClock, type RingDelivery, ringQueueContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteRingQueue } from './ring-queue.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('ring-contract');
afterAll(() => databases.removeAll());

ringQueueContract('SQLite', async () => {
  const clock = new FakeClock(Date.UTC(2030, 0, 1));
  const ring = new SqliteRingQueue({ database: databases.fresh(), clock });
  return {
    ring,
    /** Receives until the lane answers nothing visible, a few at a time (as a poller does). */
    receive: async (lane, visibilitySeconds) => {
      const deliveries: RingDelivery[] = [];
      for (;;) {
        const batch = await ring.receive(lane, { max: 10, visibilitySeconds });
        if (batch.length === 0) return deliveries;
        deliveries.push(
          ...batch.map(({ fires, receipt, receiveCount }) => ({ fires, receipt, receiveCount })),
        );
      }
    },
    ack: async (_lane, delivery) => {
      await ring.delete(delivery.receipt);
    },
    elapse: async (ms) => clock.advance(ms),
  };
});
