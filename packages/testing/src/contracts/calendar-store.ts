/**
 * What the calendar use-cases rely on from a CalendarStore, run over each adapter: in memory and on
 * SQLite (unit: packages/testing/src/memory/calendar-store.contract.test.ts,
 * packages/embedded/src/sqlite/calendar-store.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/calendar-store.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import type { Calendar, CalendarStore } from '@tickring/core/calendars';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { allPages, PAGE_SIZES, refusal } from './pages.js';

/** A calendar with every kind of field filled (labels, a range, a make-up day), changed by `fields`. */
export function testCalendar(fields: Partial<Calendar> = {}): Calendar {
  return {
    id: 'cn-2030',
    name: 'China workdays',
    description: 'Public holidays and make-up days',
    timeZone: 'Asia/Shanghai',
    workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
    excluded: [
      { from: '2030-01-01', label: 'New Year' },
      { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
      { from: '2030-12-31' },
    ],
    included: [{ date: '2030-09-28', label: 'Make-up day' }, { date: '2030-10-12' }],
    version: 1,
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_000,
    updatedBy: 'ana',
    ...fields,
  };
}

export function calendarStoreContract(label: string, newStore: () => Promise<CalendarStore>): void {
  describe(`CalendarStore contract (${label})`, () => {
    it('creates a calendar once and reads it back as written; a second create is a ConflictError', async () => {
      const store = await newStore();
      const calendar = testCalendar();
      await store.create(calendar);
      expect(await store.get('cn-2030')).toEqual(calendar);
      expect(await store.get('missing')).toBeUndefined();
      expect(await refusal(store.create(testCalendar({ name: 'Other' })))).toBeInstanceOf(ConflictError);
      expect(await store.get('cn-2030')).toEqual(calendar);
    });

    it('keeps an empty calendar empty (no exclusions, no inclusions, no working day)', async () => {
      const store = await newStore();
      const empty = testCalendar({
        id: 'empty',
        description: '',
        workingDays: [],
        excluded: [],
        included: [],
      });
      await store.create(empty);
      expect(await store.get('empty')).toEqual(empty);
    });

    it('lets one of many concurrent creates of an id win', async () => {
      const store = await newStore();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => store.create(testCalendar({ id: 'racing', name: `racer ${i}` }))),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected.every((r) => r.reason instanceof ConflictError)).toBe(true);
    });

    it('updates only at the expected version; a stale or missing one changes nothing', async () => {
      const store = await newStore();
      await store.create(testCalendar());
      const v2 = testCalendar({
        name: 'v2',
        excluded: [],
        version: 2,
        updatedAt: 2_000_000_000_000,
        updatedBy: 'bo',
      });
      await store.update(v2, 1);
      expect(await store.get('cn-2030')).toEqual(v2);

      expect(await refusal(store.update(testCalendar({ name: 'stale', version: 2 }), 1))).toBeInstanceOf(
        ConflictError,
      );
      expect(await store.get('cn-2030')).toEqual(v2);
      expect(await refusal(store.update(testCalendar({ id: 'missing', version: 2 }), 1))).toBeInstanceOf(
        NotFoundError,
      );
      expect(await store.get('missing')).toBeUndefined();
    });

    it('lets one of two writers that read the same version win', async () => {
      const store = await newStore();
      await store.create(testCalendar());
      const results = await Promise.allSettled(
        ['a', 'b', 'c'].map((name) => store.update(testCalendar({ name, version: 2 }), 1)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await store.get('cn-2030'))?.version).toBe(2);
    });

    it('deletes only at the expected version', async () => {
      const store = await newStore();
      await store.create(testCalendar());
      await store.update(testCalendar({ version: 2 }), 1);
      expect(await refusal(store.delete('cn-2030', 1))).toBeInstanceOf(ConflictError);
      expect(await store.get('cn-2030')).toBeDefined();
      await store.delete('cn-2030', 2);
      expect(await store.get('cn-2030')).toBeUndefined();
      expect(await refusal(store.delete('cn-2030', 2))).toBeInstanceOf(NotFoundError);
      // The id is free again.
      await store.create(testCalendar());
      expect((await store.get('cn-2030'))?.version).toBe(1);
    });

    it('lists every calendar once, by id, at every page size', async () => {
      const store = await newStore();
      const ids = ['us-federal', 'cn-2030', 'a', 'de-by', 'weekends', 'z-last', '0-first'];
      for (const id of ids) await store.create(testCalendar({ id }));
      for (const limit of PAGE_SIZES) {
        const pages = await allPages(limit, (cursor) => store.list({ limit, ...(cursor ? { cursor } : {}) }));
        expect(
          pages.flatMap((page) => page.items.map((c) => c.id)),
          `limit ${limit}`,
        ).toEqual([...ids].sort());
      }
      expect((await store.list({ limit: 100 })).items[0]).toEqual(testCalendar({ id: '0-first' }));
      const empty = await newStore();
      expect(await empty.list({ limit: 10 })).toEqual({ items: [] });
    });

    it('holds a calendar at its limits (1,000 exclusions, 400 inclusions, 100-character labels)', async () => {
      const store = await newStore();
      const day = (i: number) => new Date(Date.UTC(2030, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const label = 'L'.repeat(100);
      const big = testCalendar({
        id: 'big',
        excluded: Array.from({ length: 1000 }, (_, i) => ({ from: day(i * 2), label })),
        included: Array.from({ length: 400 }, (_, i) => ({ date: day(i * 2 + 1), label })),
      });
      await store.create(big);
      expect(await store.get('big')).toEqual(big);
    });
  });
}
