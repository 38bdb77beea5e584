import { silentLogger } from '@tickring/core/common';
import { type FireMessage, isHandedOffFires } from '@tickring/core/dispatch';
import { MemoryRingQueue } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { LocalDispatcherHandOff } from './dispatcher-hand-off.js';
import { LambdaHost } from './lambda-host.js';

const fire: FireMessage = {
  jobId: 7,
  scheduledTime: 1_700_000_000_000,
  triggerType: 'WORKFLOW',
  dedupKey: 'wf#wr-1#A#1',
  workflow: { runId: 'wr-1', node: 'A', attempt: 1 },
};

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('LocalDispatcherHandOff', () => {
  it('invokes the hosted dispatcher with the handed-off event, and puts nothing on the ring', async () => {
    const host = new LambdaHost('eu-west-1');
    const events: unknown[] = [];
    host.register({
      name: 'dispatcher',
      timeoutMs: 5_000,
      handler: async (event: unknown) => events.push(event),
    });
    const ring = new MemoryRingQueue();
    await new LocalDispatcherHandOff(host, 'dispatcher', ring, silentLogger).handOff([fire]);
    await eventually(() => events.length === 1);
    expect(isHandedOffFires(events[0])).toBe(true);
    expect(ring.size('fast')).toBe(0);
  });

  it('puts the fires on the ring when the dispatcher fails them (no wait for the stalled-run sweep)', async () => {
    const host = new LambdaHost('eu-west-1');
    host.register({
      name: 'dispatcher',
      timeoutMs: 5_000,
      handler: async () => {
        throw new Error('dispatcher crashed');
      },
    });
    const ring = new MemoryRingQueue();
    await new LocalDispatcherHandOff(host, 'dispatcher', ring, silentLogger).handOff([fire]);
    await eventually(() => ring.size('fast') === 1);
    const delivered = await ring.receive('fast', 30);
    expect(delivered.flatMap((d) => d.fires.map((f) => f.dedupKey))).toEqual([fire.dedupKey]);
  });

  it('refuses once closed, so that the engine puts the fires on the ring itself', async () => {
    const host = new LambdaHost('eu-west-1');
    host.register({ name: 'dispatcher', timeoutMs: 5_000, handler: async () => undefined });
    const handOff = new LocalDispatcherHandOff(host, 'dispatcher', new MemoryRingQueue(), silentLogger);
    handOff.close();
    await expect(handOff.handOff([fire])).rejects.toThrow(/stopping/);
  });
});
