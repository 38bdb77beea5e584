/**
 * What the dispatcher, the callbacks and the dashboard rely on from a ReportStore, run over each
 * adapter: in memory (unit, packages/testing/src/memory/report-store.contract.test.ts) and on
 * DynamoDB Local (integration, packages/aws/src/dynamodb/report-store.contract.int.test.ts). Each
 * test gets a fresh, empty store.
 */

import { ValidationError } from '@tickring/core/common';
import type { ReportStore } from '@tickring/core/runs';
import { describe, expect, it } from 'vitest';
import { refusal } from './pages.js';

const zero = (day: string) => ({ day, running: 0, success: 0, fail: 0, skipped: 0 });

export function reportStoreContract(label: string, newStore: () => Promise<ReportStore>): void {
  describe(`ReportStore contract (${label})`, () => {
    it('reads every day of a range, inclusive, in order; a day without counts is zero', async () => {
      const store = await newStore();
      await store.add('2030-01-02', { running: 2, success: 1, fail: 3, skipped: 4 });
      expect(await store.range('2029-12-31', '2030-01-03')).toEqual([
        zero('2029-12-31'),
        zero('2030-01-01'),
        { day: '2030-01-02', running: 2, success: 1, fail: 3, skipped: 4 },
        zero('2030-01-03'),
      ]);
      expect(await store.range('2030-01-02', '2030-01-02')).toEqual([
        { day: '2030-01-02', running: 2, success: 1, fail: 3, skipped: 4 },
      ]);
    });

    it('adds concurrent deltas without losing any (a run moves from running to its result)', async () => {
      const store = await newStore();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.add('2030-01-02', i % 2 === 0 ? { running: 1 } : { running: -1, success: 1, fail: 0 }),
        ),
      );
      await store.add('2030-01-02', { fail: 2 });
      await store.add('2030-01-02', {});
      expect(await store.range('2030-01-02', '2030-01-02')).toEqual([
        { day: '2030-01-02', running: 0, success: 10, fail: 2, skipped: 0 },
      ]);
    });

    it("counts a group's runs in the day's counters and the group's own; reads them summed over groups", async () => {
      const store = await newStore();
      await Promise.all(Array.from({ length: 10 }, () => store.add('2030-03-01', { skipped: 1 }, 'app-s')));
      await store.add('2030-03-01', { running: 1, skipped: 2 }, 'app-s');
      await store.add('2030-03-01', { success: 1 }, 'app-t');
      await store.add('2030-03-01', { fail: 1 }); // of no group's
      await store.add('2030-03-02', { fail: 5 }, 'app-t');
      expect(await store.range('2030-03-01', '2030-03-02')).toEqual([
        { day: '2030-03-01', running: 1, success: 1, fail: 1, skipped: 12 },
        { day: '2030-03-02', running: 0, success: 0, fail: 5, skipped: 0 },
      ]);
      expect(await store.range('2030-03-01', '2030-03-02', ['app-s'])).toEqual([
        { day: '2030-03-01', running: 1, success: 0, fail: 0, skipped: 12 },
        zero('2030-03-02'),
      ]);
      expect(await store.range('2030-03-01', '2030-03-02', ['app-s', 'app-t', 'app-none'])).toEqual([
        { day: '2030-03-01', running: 1, success: 1, fail: 0, skipped: 12 },
        { day: '2030-03-02', running: 0, success: 0, fail: 5, skipped: 0 },
      ]);
      expect(await store.range('2030-03-01', '2030-03-01', [])).toEqual([zero('2030-03-01')]);
    });

    it('reads a dashboard’s longest range (90 days) over several groups whole', async () => {
      const store = await newStore();
      const day = (i: number) => new Date(Date.UTC(2030, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      await store.add(day(0), { success: 1 }, 'app-a');
      await store.add(day(44), { fail: 2 }, 'app-b');
      await store.add(day(89), { running: 3 }, 'app-c');
      const days = await store.range(day(0), day(89), ['app-a', 'app-b', 'app-c']);
      expect(days.map((d) => d.day)).toEqual(Array.from({ length: 90 }, (_, i) => day(i)));
      expect(days.filter((d) => d.running + d.success + d.fail + d.skipped !== 0)).toEqual([
        { day: day(0), running: 0, success: 1, fail: 0, skipped: 0 },
        { day: day(44), running: 0, success: 0, fail: 2, skipped: 0 },
        { day: day(89), running: 3, success: 0, fail: 0, skipped: 0 },
      ]);
    });

    it('refuses a range that ends before it starts, or a day that is not one, as a ValidationError', async () => {
      const store = await newStore();
      for (const [from, to] of [
        ['2030-01-03', '2030-01-02'],
        ['2030-02-30', '2030-03-01'],
        ['2030-1-1', '2030-01-02'],
        ['2030-01-01', 'tomorrow'],
      ] as const) {
        expect(await refusal(store.range(from, to)), `${from} .. ${to}`).toBeInstanceOf(ValidationError);
      }
    });
  });
}
