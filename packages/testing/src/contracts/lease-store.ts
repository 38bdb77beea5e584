/**
 * What the tick relies on from a LeaseStore, run over each adapter: in memory (unit,
 * packages/testing/src/memory/lease-store.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/lease-store.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import type { LeaseStore } from '@tickring/core/tick';
import { describe, expect, it } from 'vitest';

const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const LEASE_MS = 3_000;

export function leaseStoreContract(label: string, newStore: () => Promise<LeaseStore>): void {
  describe(`LeaseStore contract (${label})`, () => {
    it('takes a free shard with fencing token 1, and renews it for its owner with the same token', async () => {
      const store = await newStore();
      expect(await store.acquire(0, 'a', T, LEASE_MS)).toEqual({
        shard: 0,
        owner: 'a',
        leaseUntil: T + LEASE_MS,
        fencingToken: 1,
        tookOver: false,
      });
      // Renewed up to and including the last millisecond of the lease.
      expect(await store.acquire(0, 'a', T + LEASE_MS, LEASE_MS)).toEqual({
        shard: 0,
        owner: 'a',
        leaseUntil: T + 2 * LEASE_MS,
        fencingToken: 1,
        tookOver: false,
      });
    });

    it('refuses every other owner while the lease lasts, up to and including its last millisecond', async () => {
      const store = await newStore();
      await store.acquire(0, 'a', T, LEASE_MS);
      expect(await store.acquire(0, 'b', T, LEASE_MS)).toBeUndefined();
      expect(await store.acquire(0, 'b', T + LEASE_MS, LEASE_MS)).toBeUndefined();
      // The refused attempts changed nothing: the owner still renews with its token.
      expect(await store.acquire(0, 'a', T + 1_000, LEASE_MS)).toMatchObject({ owner: 'a', fencingToken: 1 });
    });

    it('lets another owner take an expired lease over: a new fencing token, marked as a takeover', async () => {
      const store = await newStore();
      await store.acquire(0, 'a', T, LEASE_MS);
      expect(await store.acquire(0, 'b', T + LEASE_MS + 1, LEASE_MS)).toEqual({
        shard: 0,
        owner: 'b',
        leaseUntil: T + 2 * LEASE_MS + 1,
        fencingToken: 2,
        tookOver: true,
      });
      // The old owner, back late, is refused: the shard is b's now.
      expect(await store.acquire(0, 'a', T + LEASE_MS + 2, LEASE_MS)).toBeUndefined();
    });

    it('hands a released lease over at once, not as a takeover; only its owner can release it', async () => {
      const store = await newStore();
      await store.acquire(0, 'a', T, LEASE_MS);
      await store.release(0, 'b'); // not b's: nothing happens
      expect(await store.acquire(0, 'b', T + 1, LEASE_MS)).toBeUndefined();
      await store.release(0, 'a');
      expect(await store.acquire(0, 'b', T + 2, LEASE_MS)).toEqual({
        shard: 0,
        owner: 'b',
        leaseUntil: T + 2 + LEASE_MS,
        fencingToken: 2,
        tookOver: false,
      });
      await store.release(1, 'a'); // a shard never leased: nothing to release
      expect(await store.acquire(1, 'c', T, LEASE_MS)).toMatchObject({ fencingToken: 1, tookOver: false });
    });

    it('gives an owner taking its own expired (or released) lease again a new token, without a takeover', async () => {
      const store = await newStore();
      await store.acquire(0, 'a', T, LEASE_MS);
      expect(await store.acquire(0, 'a', T + LEASE_MS + 1, LEASE_MS)).toMatchObject({
        owner: 'a',
        fencingToken: 2,
        tookOver: false,
      });
      await store.release(0, 'a');
      expect(await store.acquire(0, 'a', T + LEASE_MS + 2, LEASE_MS)).toMatchObject({
        owner: 'a',
        fencingToken: 3,
        tookOver: false,
      });
    });

    it('lets exactly one of many concurrent takers win a free shard, and an expired one', async () => {
      const store = await newStore();
      const race = (at: number) =>
        Promise.all(Array.from({ length: 10 }, (_, i) => store.acquire(0, `taker-${i}`, at, LEASE_MS)));
      const first = (await race(T)).filter((lease) => lease !== undefined);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ fencingToken: 1 });
      const second = (await race(T + LEASE_MS + 1)).filter((lease) => lease !== undefined);
      expect(second).toHaveLength(1);
      expect(second[0]).toMatchObject({ fencingToken: 2 });
      // The winner renews; the rest are still refused.
      const owner = second[0]?.owner ?? '';
      expect(await store.acquire(0, owner, T + LEASE_MS + 2, LEASE_MS)).toMatchObject({ fencingToken: 2 });
      const loser = owner === 'taker-0' ? 'taker-1' : 'taker-0';
      expect(await store.acquire(0, loser, T + LEASE_MS + 3, LEASE_MS)).toBeUndefined();
    });

    it('hands the released lease’s admission to whoever takes it next, until a release without one', async () => {
      const store = await newStore();
      const handover = {
        share: 0.343,
        backlogSeconds: 2.75,
        messagesPerIteration: 41.5,
        readAt: T + 900,
        cutAt: T + 400,
      };
      await store.acquire(0, 'a', T, LEASE_MS);
      await store.release(0, 'a', handover);
      // Not b's to release: neither another handover nor none replaces a's.
      await store.release(0, 'b', { ...handover, share: 0.05 });
      await store.release(0, 'b');
      const taken = await store.acquire(0, 'b', T + 1_000, LEASE_MS);
      expect(taken).toEqual({
        shard: 0,
        owner: 'b',
        leaseUntil: T + 1_000 + LEASE_MS,
        fencingToken: 2,
        tookOver: false,
        admission: handover,
      });
      // A renewal carries none; the next release without one clears it.
      expect((await store.acquire(0, 'b', T + 1_500, LEASE_MS))?.admission).toBeUndefined();
      await store.release(0, 'b');
      expect((await store.acquire(0, 'c', T + 2_000, LEASE_MS))?.admission).toBeUndefined();
      // Without cutAt (a share never cut) it comes back without it, and apart per shard.
      const uncut = { share: 0.9, backlogSeconds: 0.5, messagesPerIteration: 3, readAt: T + 2_500 };
      await store.release(0, 'c', uncut);
      expect((await store.acquire(0, 'a', T + 3_000, LEASE_MS))?.admission).toEqual(uncut);
      expect((await store.acquire(1, 'a', T + 3_000, LEASE_MS))?.admission).toBeUndefined();
    });

    it('hands a handover to one taker only: a holder that dies after taking it hands nothing on', async () => {
      const store = await newStore();
      const handover = { share: 0.5, backlogSeconds: 3, messagesPerIteration: 10, readAt: T + 500 };
      await store.acquire(0, 'a', T, LEASE_MS);
      await store.release(0, 'a', handover);
      expect((await store.acquire(0, 'b', T + 1_000, LEASE_MS))?.admission).toEqual(handover);
      // b dies holding the lease; c takes it over once it has expired.
      const taken = await store.acquire(0, 'c', T + 1_000 + LEASE_MS + 1, LEASE_MS);
      expect(taken).toMatchObject({ owner: 'c', tookOver: true });
      expect(taken?.admission).toBeUndefined();
    });

    it('keeps each shard’s lease apart', async () => {
      const store = await newStore();
      const leases = await Promise.all(
        [0, 1, 2, 3].map((shard) => store.acquire(shard, `owner-${shard}`, T, LEASE_MS)),
      );
      expect(leases.map((l) => [l?.shard, l?.owner, l?.fencingToken])).toEqual([
        [0, 'owner-0', 1],
        [1, 'owner-1', 1],
        [2, 'owner-2', 1],
        [3, 'owner-3', 1],
      ]);
      await store.release(1, 'owner-1');
      expect(await store.acquire(0, 'owner-1', T + 1, LEASE_MS)).toBeUndefined();
      expect(await store.acquire(1, 'owner-0', T + 1, LEASE_MS)).toMatchObject({
        fencingToken: 2,
        tookOver: false,
      });
    });
  });
}
