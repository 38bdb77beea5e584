import { ringQueueContract } from '../contracts/ring-queue.js';
import { FakeClock } from '../fake-clock.js';
import { MemoryRingQueue } from './ring-queue.js';

ringQueueContract('memory', async () => {
  const clock = new FakeClock(Date.UTC(2030, 0, 1));
  const ring = new MemoryRingQueue({ clock });
  return {
    ring,
    receive: (lane, visibilitySeconds) => ring.receive(lane, visibilitySeconds),
    ack: (lane, delivery) => ring.ack(lane, delivery.receipt),
    elapse: async (ms) => clock.advance(ms),
  };
});
