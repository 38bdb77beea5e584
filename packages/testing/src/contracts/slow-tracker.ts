/**
 * What the dispatcher relies on from a SlowTracker, run over each adapter: in memory (unit,
 * packages/testing/src/memory/slow-tracker.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/slow-tracker.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import type { SlowTracker } from '@tickring/core/dispatch';
import { describe, expect, it } from 'vitest';

const MINUTE = Date.UTC(2030, 0, 1, 12, 0, 0);

export function slowTrackerContract(label: string, newTracker: () => Promise<SlowTracker>): void {
  describe(`SlowTracker contract (${label})`, () => {
    it('counts slow dispatches per job and wall-clock minute, from 1', async () => {
      const tracker = await newTracker();
      expect(await tracker.countSlowDispatch(7, MINUTE)).toBe(1);
      expect(await tracker.countSlowDispatch(7, MINUTE + 59_999)).toBe(2);
      expect(await tracker.countSlowDispatch(8, MINUTE + 1_000)).toBe(1);
      expect(await tracker.countSlowDispatch(7, MINUTE + 60_000)).toBe(1); // the next minute starts over
      expect(await tracker.countSlowDispatch(7, MINUTE + 30_000)).toBe(3); // a late one counts in its own
    });

    it('loses no count to concurrent dispatchers', async () => {
      const tracker = await newTracker();
      const counts = await Promise.all(
        Array.from({ length: 15 }, () => tracker.countSlowDispatch(9, MINUTE + 10)),
      );
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(await tracker.countSlowDispatch(9, MINUTE + 20)).toBe(16);
    });
  });
}
