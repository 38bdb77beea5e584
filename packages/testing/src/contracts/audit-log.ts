/**
 * What the audit use-cases rely on from an AuditLog, run over each adapter: in memory (unit,
 * packages/testing/src/memory/audit-log.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/audit-log.contract.int.test.ts). Each test gets a fresh, empty log.
 */

import type { AuditLog, AuditQuery, AuditRecord } from '@tickring/core/audit';
import { type Clock, ValidationError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { makeAuditEntry } from '../audit-entries.js';
import { FakeClock } from '../fake-clock.js';
import { allPages, PAGE_SIZES, refusal } from './pages.js';

/** What the suite asks of a new log. */
export interface AuditLogContractOptions {
  /** "Now" of the default time range and of the retention bound. */
  readonly clock: Clock;
  /** Records older than this many days are gone for readers. */
  readonly retentionDays: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Short, so a list walking day by day back to it stays a few requests on a real store. */
const RETENTION_DAYS = 40;
const NOW = Date.parse('2031-01-01T12:00:00.000Z');
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const entry = makeAuditEntry;

const ids = (records: readonly AuditRecord[]) => records.map((r) => r.id);
const newestFirst = (records: readonly AuditRecord[]) =>
  [...records].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));

export function auditLogContract(
  label: string,
  newLog: (options: AuditLogContractOptions) => Promise<AuditLog>,
): void {
  const fresh = () => newLog({ clock: new FakeClock(NOW), retentionDays: RETENTION_DAYS });
  const listAll = async (log: AuditLog, query: Omit<AuditQuery, 'limit' | 'cursor'>, limit = 100) =>
    (await allPages(limit, (cursor) => log.list({ ...query, limit, cursor }))).flatMap((p) => p.items);

  describe(`AuditLog contract (${label})`, () => {
    it('appends a record with a ULID of its own, and reads it back as written', async () => {
      const log = await fresh();
      const full = entry(NOW, {
        detail: { executorParam: 'date=2030-01-01', logIds: [30064771073] },
        changes: { options: { before: { a: [1, { b: null }] }, after: { a: [] } }, name: { after: 'x' } },
      });
      const record = await log.append(full);
      expect(record.id).toMatch(ULID);
      expect(record).toEqual({ id: record.id, ...full });
      const { appName: _app, ...ungrouped } = entry(NOW - 1, {
        target: 'bootstrap',
        action: 'bootstrap.rotate',
        actor: { kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap' },
      });
      const bare = await log.append(ungrouped);
      const listed = await listAll(log, {});
      expect(listed).toEqual([record, bare]);
      expect(listed[1]).not.toHaveProperty('appName');
      expect(listed[1]).not.toHaveProperty('detail');
      expect(listed[1]?.actor).not.toHaveProperty('credentialId');
    });

    it('keeps every one of 20 records of one target written in the same millisecond', async () => {
      const log = await fresh();
      const written = await Promise.all(
        Array.from({ length: 20 }, (_, i) => log.append(entry(NOW, { requestId: `parallel-${i}` }))),
      );
      expect(new Set(ids(written)).size).toBe(20);
      for (const query of [{ from: NOW - DAY_MS }, { from: NOW - DAY_MS, target: 'job#7' }]) {
        const listed = await listAll(log, query);
        expect(new Set(listed.map((r) => r.requestId))).toEqual(new Set(written.map((r) => r.requestId)));
        expect(listed).toHaveLength(20);
      }
    });

    it('lists newest first across days, by default the last 30 days up to now; further back when asked', async () => {
      const log = await fresh();
      const times = [NOW - 35 * DAY_MS, NOW - 29 * DAY_MS, NOW - 2 * DAY_MS, NOW - HOUR_MS, NOW - 1, NOW];
      const written: AuditRecord[] = [];
      for (const at of times) written.push(await log.append(entry(at)));
      expect(ids(await listAll(log, {}))).toEqual(ids(newestFirst(written.slice(1))));
      expect(ids(await listAll(log, { from: NOW - 36 * DAY_MS }))).toEqual(ids(newestFirst(written)));
    });

    it('takes from and to as inclusive bounds, and refuses from after to', async () => {
      const log = await fresh();
      const written: AuditRecord[] = [];
      for (let i = 0; i < 5; i++) written.push(await log.append(entry(NOW - 10 * DAY_MS + i * 1_000)));
      const at = (i: number) => (written[i] as AuditRecord).at;
      expect(ids(await listAll(log, { from: at(1), to: at(3) }))).toEqual(
        ids([written[3], written[2], written[1]] as AuditRecord[]),
      );
      expect(ids(await listAll(log, { target: 'job#7', from: at(1), to: at(3) }))).toEqual(
        ids([written[3], written[2], written[1]] as AuditRecord[]),
      );
      expect(await refusal(log.list({ limit: 10, from: at(3), to: at(1) }))).toBeInstanceOf(ValidationError);
    });

    it('never lists a record older than the retention, whatever the range asked', async () => {
      const log = await fresh();
      const kept = await log.append(entry(NOW - (RETENTION_DAYS - 1) * DAY_MS));
      await log.append(entry(NOW - (RETENTION_DAYS + 1) * DAY_MS));
      expect(ids(await listAll(log, { from: NOW - 60 * DAY_MS }))).toEqual([kept.id]);
      expect(ids(await listAll(log, { target: 'job#7', from: NOW - 60 * DAY_MS }))).toEqual([kept.id]);
      expect(await listAll(log, { from: NOW - 60 * DAY_MS, to: NOW - 41 * DAY_MS })).toEqual([]);
    });

    it('filters by target, actor (name or id), action (or the actions a prefix begins), group, groups, and grouped only', async () => {
      const log = await fresh();
      const a = await log.append(entry(NOW - 3 * DAY_MS, { target: 'job#7', action: 'job.create' }));
      const b = await log.append(
        entry(NOW - 2 * DAY_MS, {
          target: 'job#8',
          appName: 'search',
          actor: { kind: 'token', id: 'tok-1', name: 'token:ci', credentialId: 'tok-1' },
        }),
      );
      const c = await log.append(entry(NOW - DAY_MS, { target: 'job#7', action: 'job.trigger' }));
      const { appName: _, ...ungrouped } = entry(NOW - HOUR_MS, {
        target: 'user#bo',
        action: 'user.update',
        actor: { kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap' },
      });
      const d = await log.append(ungrouped);
      // From just before the first record: the default range is another test's.
      const listed = async (query: Omit<AuditQuery, 'limit'>) =>
        ids(await listAll(log, { from: NOW - 4 * DAY_MS, ...query }));

      expect(await listed({})).toEqual([d.id, c.id, b.id, a.id]);
      expect(await listed({ target: 'job#7' })).toEqual([c.id, a.id]);
      expect(await listed({ target: 'job#9' })).toEqual([]);
      expect(await listed({ actor: 'token:ci' })).toEqual([b.id]);
      expect(await listed({ actor: 'tok-1' })).toEqual([b.id]);
      expect(await listed({ actor: 'ana' })).toEqual([c.id, a.id]);
      expect(await listed({ action: 'job.trigger' })).toEqual([c.id]);
      expect(await listed({ action: 'job.*' })).toEqual([c.id, b.id, a.id]);
      expect(await listed({ action: 'user.*' })).toEqual([d.id]);
      expect(await listed({ action: 'job' })).toEqual([]);
      expect(await listed({ appName: 'search' })).toEqual([b.id]);
      expect(await listed({ appNames: ['billing', 'other'] })).toEqual([c.id, a.id]);
      expect(await listed({ appNames: [] })).toEqual([]);
      expect(await listed({ onlyGrouped: true })).toEqual([c.id, b.id, a.id]);
      expect(
        await listed({ target: 'job#7', action: 'job.create', actor: 'ana', appName: 'billing' }),
      ).toEqual([a.id]);
      expect(await listed({ target: 'job#7', from: NOW - 2 * DAY_MS })).toEqual([c.id]);
      expect(await listed({ target: 'user#bo' })).toEqual([d.id]);
    });

    it('pages across day partitions at sizes 1, 2, 3 and 100: each record once, newest first', async () => {
      const log = await fresh();
      const written: AuditRecord[] = [];
      // Days back with 3, 0, 1, 0, 0, 4 and 2 records; two records in the same millisecond.
      const perDay = [3, 0, 1, 0, 0, 4, 2];
      for (const [day, count] of perDay.entries()) {
        for (let i = 0; i < count; i++) {
          written.push(await log.append(entry(NOW - day * DAY_MS - i * HOUR_MS, { target: `job#${i % 2}` })));
        }
      }
      written.push(await log.append(entry(NOW - 5 * DAY_MS, { target: 'job#1' })));
      const weekAgo = NOW - 7 * DAY_MS;
      for (const limit of PAGE_SIZES) {
        const what = `limit ${limit}`;
        expect(ids(await listAll(log, { from: weekAgo }, limit)), what).toEqual(ids(newestFirst(written)));
        expect(ids(await listAll(log, { from: weekAgo, target: 'job#1' }, limit)), what).toEqual(
          ids(newestFirst(written.filter((r) => r.target === 'job#1'))),
        );
        expect(
          ids(await listAll(log, { from: weekAgo, target: 'job#0', actor: 'ana' }, limit)),
          what,
        ).toEqual(ids(newestFirst(written.filter((r) => r.target === 'job#0'))));
        expect(
          ids(await listAll(log, { from: weekAgo, action: 'job.*', appName: 'billing' }, limit)),
          what,
        ).toEqual(ids(newestFirst(written)));
      }
    });

    it('refuses a cursor of another list, or one it never gave out, as a ValidationError', async () => {
      const log = await fresh();
      for (let i = 0; i < 3; i++) await log.append(entry(NOW - i * 1_000));
      const byDay = (await log.list({ limit: 1 })).nextCursor;
      const byTarget = (await log.list({ limit: 1, target: 'job#7' })).nextCursor;
      expect(byDay).toBeDefined();
      expect(byTarget).toBeDefined();
      for (const [query, cursor] of [
        [{ target: 'job#7' }, byDay],
        [{}, byTarget],
        [{ target: 'job#8' }, byTarget],
        [{}, 'not-a-cursor'],
      ] as const) {
        expect(await refusal(log.list({ ...query, limit: 1, cursor }))).toBeInstanceOf(ValidationError);
      }
    });
  });
}
