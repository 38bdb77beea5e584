import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry, AuditQuery, AuditRecord } from '@tickring/core/audit';
import { type AuditDeps, listAudit, recordChange } from '@tickring/core/audit/use-cases';
import type { LogAttributes, Logger } from '@tickring/core/common';
import { METRIC, type Metrics, ValidationError } from '@tickring/core/common';
import { ALL_GROUPS, type Principal } from '@tickring/core/identity';
import type { Page } from '@tickring/core/jobs';
import { FakeClock } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CapacityRecorder, recordConsumedCapacity } from '../../../../test/consumed-capacity.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { AUDIT_BY_TARGET_INDEX } from '../topology/tables.js';
import { DynamoAuditLog } from './audit-log.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const RETENTION_DAYS = 365;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

let env: TestResources;
let capacity: CapacityRecorder;

beforeAll(async () => {
  env = await isolatedResources('audit');
  capacity = recordConsumedCapacity(env.clients.doc);
});
afterAll(() => env?.close());

/**
 * Each test lives in its own era, 1,000 days from any other's: lists look back at most the
 * retention (365 days) and never past their `to` (by default now), so the tests share the table
 * without seeing each other's records.
 */
let eras = 0;
function era(): number {
  eras += 1;
  return Date.parse('2031-01-01T12:00:00.000Z') + eras * 1000 * DAY_MS;
}

function logAt(now: number, options: { random?: (size: number) => Uint8Array; table?: string } = {}) {
  const clock = new FakeClock(now);
  const log = new DynamoAuditLog({
    doc: env.clients.doc,
    auditTable: options.table ?? env.resources.tables.audit,
    retentionDays: RETENTION_DAYS,
    clock,
    ...(options.random ? { random: options.random } : {}),
  });
  return { log, clock };
}

function entry(at: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at,
    actor: { kind: 'session', id: 'ana', name: 'ana', credentialId: 'sess-1' },
    source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
    action: 'job.update',
    target: 'job#7',
    appName: 'billing',
    changes: { executorParam: { before: 'region=eu', after: 'region=us' } },
    requestId: `req-${at}`,
    ...fields,
  };
}

/** Every page of a list, following the cursors. */
async function allPages(
  read: (cursor: string | undefined) => Promise<Page<AuditRecord>>,
): Promise<Page<AuditRecord>[]> {
  const pages: Page<AuditRecord>[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor;
    if (pages.length > 200) throw new Error('too many pages');
  } while (cursor !== undefined);
  return pages;
}

const ids = (records: readonly AuditRecord[]) => records.map((r) => r.id);
const newestFirst = (records: readonly AuditRecord[]) =>
  [...records].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));

describe('DynamoAuditLog.append', () => {
  it('writes one item per record in its day, keyed by a ULID, expiring after the retention', async () => {
    const now = era();
    const { log } = logAt(now);
    const record = await log.append(
      entry(now, {
        detail: { executorParam: 'date=2030-01-01', logIds: [30064771073] },
        changes: { options: { before: { a: [1, { b: null }] }, after: { a: [] } }, name: { after: 'x' } },
      }),
    );
    expect(record.id).toMatch(ULID);
    const { Item } = await env.clients.doc.send(
      new GetCommand({
        TableName: env.resources.tables.audit,
        Key: { pk: `day#${new Date(now).toISOString().slice(0, 10)}`, sk: record.id },
        ConsistentRead: true,
      }),
    );
    expect(Item).toMatchObject({
      target: 'job#7',
      at: now,
      action: 'job.update',
      actorKind: 'session',
      actorName: 'ana',
      appName: 'billing',
      expiresAt: Math.floor(now / 1000) + RETENTION_DAYS * 86_400,
    });
    // And it reads back as it was written.
    const { items } = await log.list({ limit: 10 });
    expect(items).toEqual([record]);
    expect(items[0]).toEqual({
      id: record.id,
      ...entry(now, { detail: record.detail, changes: record.changes }),
    });
  });

  it('keeps every one of 20 records of the same target written in the same millisecond', async () => {
    const now = era();
    const { log } = logAt(now);
    const written = await Promise.all(
      Array.from({ length: 20 }, (_, i) => log.append(entry(now, { requestId: `parallel-${i}` }))),
    );
    expect(new Set(ids(written)).size).toBe(20);
    const { items, nextCursor } = await log.list({ target: 'job#7', limit: 100 });
    expect(nextCursor).toBeUndefined();
    expect(items).toHaveLength(20);
    expect(new Set(items.map((r) => r.requestId))).toEqual(new Set(written.map((r) => r.requestId)));
  });

  it('never overwrites a record: an id drawn twice is drawn again', async () => {
    const now = era();
    const draws = [Buffer.alloc(16, 1), Buffer.alloc(16, 1), Buffer.alloc(16, 2)];
    const { log } = logAt(now, { random: () => draws.shift() ?? Buffer.alloc(16, 3) });
    const first = await log.append(entry(now, { requestId: 'first' }));
    const second = await log.append(entry(now, { requestId: 'second' }));
    expect(second.id).not.toBe(first.id);
    expect(draws).toEqual([]);
    const { items } = await log.list({ limit: 10 });
    expect(items.map((r) => r.requestId).sort()).toEqual(['first', 'second']);
  });

  it('keeps a change too large for one item by cutting its longest strings', async () => {
    const now = era();
    const { log } = logAt(now);
    const before = 'é'.repeat(100_000);
    const after = '€'.repeat(100_000);
    await log.append(
      entry(now, { changes: { glueSource: { before, after }, version: { before: 1, after: 2 } } }),
    );
    const [stored] = (await log.list({ limit: 1 })).items;
    const glue = stored?.changes.glueSource as { before: string; after: string };
    expect(glue.before.startsWith('éé')).toBe(true);
    expect(glue.before).toMatch(/… \[\d+ more characters\]$/);
    expect(glue.after.startsWith('€€')).toBe(true);
    expect(stored?.changes.version).toEqual({ before: 1, after: 2 });
  });
});

describe('DynamoAuditLog.list', () => {
  it('lists newest first, across days, by default the last 30 days', async () => {
    const now = era();
    const { log } = logAt(now);
    const times = [now - 45 * DAY_MS, now - 29 * DAY_MS, now - 2 * DAY_MS, now - HOUR_MS, now - 1, now];
    const written: AuditRecord[] = [];
    for (const at of times) written.push(await log.append(entry(at)));
    const { items, nextCursor } = await log.list({ limit: 100 });
    expect(nextCursor).toBeUndefined();
    expect(ids(items)).toEqual(ids(newestFirst(written.slice(1))));
    // Further back when asked (one request reads a bounded number of days: follow the cursor).
    const older = await allPages((cursor) => log.list({ limit: 100, from: now - 60 * DAY_MS, cursor }));
    expect(older.flatMap((p) => ids(p.items))).toEqual(ids(newestFirst(written)));
  });

  it('never looks back further than the retention', async () => {
    const now = era();
    const { log } = logAt(now);
    const kept = await log.append(entry(now - (RETENTION_DAYS - 1) * DAY_MS));
    await log.append(entry(now - (RETENTION_DAYS + 1) * DAY_MS));
    const pages = await allPages((cursor) => log.list({ limit: 100, from: now - 400 * DAY_MS, cursor }));
    expect(pages.flatMap((p) => ids(p.items))).toEqual([kept.id]);
    // The target's index holds both; the list still stops at the retention.
    expect(ids((await log.list({ limit: 100, target: 'job#7', from: now - 400 * DAY_MS })).items)).toEqual([
      kept.id,
    ]);
    expect(await log.list({ limit: 100, from: now - 400 * DAY_MS, to: now - 380 * DAY_MS })).toEqual({
      items: [],
    });
  });

  it('takes from and to as inclusive bounds', async () => {
    const now = era();
    const { log } = logAt(now);
    const written: AuditRecord[] = [];
    for (let i = 0; i < 5; i++) written.push(await log.append(entry(now - 10 * DAY_MS + i * 1000)));
    const t = (i: number) => (written[i] as AuditRecord).at;
    const { items } = await log.list({ limit: 100, from: t(1), to: t(3) });
    expect(ids(items)).toEqual(ids([written[3], written[2], written[1]] as AuditRecord[]));
    await expect(log.list({ limit: 10, from: t(3), to: t(1) })).rejects.toThrow(ValidationError);
  });

  it('filters by target through the index, by actor (name or id), action (or its prefix) and appName', async () => {
    const now = era();
    const { log } = logAt(now);
    const a = await log.append(entry(now - 3 * DAY_MS, { target: 'job#7', action: 'job.create' }));
    const b = await log.append(
      entry(now - 2 * DAY_MS, {
        target: 'job#8',
        appName: 'search',
        actor: { kind: 'token', id: 'tok-1', name: 'token:ci', credentialId: 'tok-1' },
      }),
    );
    const c = await log.append(entry(now - DAY_MS, { target: 'job#7', action: 'job.trigger' }));
    const { appName: _, ...ungrouped } = entry(now - HOUR_MS, {
      target: 'user#bo',
      action: 'user.update',
      actor: { kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap' },
    });
    const d = await log.append(ungrouped);
    const listed = async (query: Omit<AuditQuery, 'limit'>) =>
      ids((await log.list({ limit: 100, ...query })).items);

    const since = capacity.records.length;
    expect(await listed({ target: 'job#7' })).toEqual([c.id, a.id]);
    const queries = capacity.slice(since).filter((r) => r.command === 'QueryCommand');
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.input.IndexName === AUDIT_BY_TARGET_INDEX)).toBe(true);

    expect(await listed({ target: 'job#9' })).toEqual([]);
    expect(await listed({ actor: 'token:ci' })).toEqual([b.id]);
    expect(await listed({ actor: 'tok-1' })).toEqual([b.id]);
    expect(await listed({ actor: 'ana' })).toEqual([c.id, a.id]);
    expect(await listed({ action: 'job.trigger' })).toEqual([c.id]);
    expect(await listed({ action: 'job.*' })).toEqual([c.id, b.id, a.id]);
    expect(await listed({ action: 'user.*' })).toEqual([d.id]);
    expect(await listed({ appName: 'search' })).toEqual([b.id]);
    expect(await listed({ appNames: ['billing', 'other'] })).toEqual([c.id, a.id]);
    expect(await listed({ appNames: [] })).toEqual([]);
    expect(await listed({ onlyGrouped: true })).toEqual([c.id, b.id, a.id]);
    expect(await listed({ target: 'job#7', action: 'job.create', actor: 'ana', appName: 'billing' })).toEqual(
      [a.id],
    );
    expect(await listed({ target: 'job#7', from: now - 2 * DAY_MS })).toEqual([c.id]);
    expect(await listed({ target: 'user#bo' })).toEqual([d.id]);
    const [user] = (await log.list({ limit: 1, target: 'user#bo' })).items;
    expect(user).not.toHaveProperty('appName');
    expect(user?.actor).toEqual({ kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap' });
  });

  it('pages with a cursor across day partitions, each record once, in order', async () => {
    const now = era();
    const { log } = logAt(now);
    const written: AuditRecord[] = [];
    // Days with 3, 0, 1, 0, 0, 4 and 2 records.
    const perDay = [3, 0, 1, 0, 0, 4, 2];
    for (const [day, count] of perDay.entries()) {
      for (let i = 0; i < count; i++) {
        written.push(await log.append(entry(now - day * DAY_MS - i * HOUR_MS, { target: `job#${i % 2}` })));
      }
    }
    const expected = ids(newestFirst(written));
    for (const limit of [1, 2, 3, 5, 100]) {
      const pages = await allPages((cursor) => log.list({ limit, cursor }));
      const listed = pages.flatMap((p) => ids(p.items));
      expect(listed, `limit ${limit}`).toEqual(expected);
      for (const page of pages) expect(page.items.length).toBeLessThanOrEqual(limit);
      for (const page of pages.slice(0, -1)) expect(page.items.length, `limit ${limit}`).toBeGreaterThan(0);
    }
    // By target too.
    const byTarget = await allPages((cursor) => log.list({ limit: 2, target: 'job#1', cursor }));
    expect(byTarget.flatMap((p) => ids(p.items))).toEqual(
      ids(newestFirst(written.filter((r) => r.target === 'job#1'))),
    );
    // Filtered.
    const filtered = await allPages((cursor) =>
      log.list({ limit: 2, target: 'job#0', actor: 'ana', cursor }),
    );
    expect(filtered.flatMap((p) => ids(p.items))).toEqual(
      ids(newestFirst(written.filter((r) => r.target === 'job#0'))),
    );
  });

  it('answers an empty page with a cursor when one request covered only empty days; listAudit reads on past it', async () => {
    const now = era();
    const { log, clock } = logAt(now);
    const old = await log.append(entry(now - 100 * DAY_MS, { action: 'job.delete' }));
    await log.append(entry(now - HOUR_MS, { action: 'job.update' }));
    const query = { limit: 10, action: 'job.delete', from: now - 200 * DAY_MS };
    // Alone, the log stops after a bounded number of (empty) days.
    const first = await log.list(query);
    expect(first.items).toEqual([]);
    expect(first.nextCursor).toBeDefined();
    // The use-case reads on: never an empty page while a cursor follows.
    const deps = { log, clock };
    const pages = await allPages((cursor) => listAudit(deps, { ...query, cursor }, ALL_GROUPS, true));
    expect(pages.flatMap((p) => ids(p.items))).toEqual([old.id]);
    for (const page of pages) if (page.nextCursor !== undefined) expect(page.items.length).toBeGreaterThan(0);
  });

  it('refuses a cursor of another list', async () => {
    const now = era();
    const { log } = logAt(now);
    for (let i = 0; i < 3; i++) await log.append(entry(now - i * 1000));
    const byDay = await log.list({ limit: 1 });
    const byTarget = await log.list({ limit: 1, target: 'job#7' });
    await expect(log.list({ limit: 1, target: 'job#7', cursor: byDay.nextCursor })).rejects.toThrow(
      ValidationError,
    );
    await expect(log.list({ limit: 1, cursor: byTarget.nextCursor })).rejects.toThrow(ValidationError);
    await expect(log.list({ limit: 1, target: 'job#8', cursor: byTarget.nextCursor })).rejects.toThrow(
      ValidationError,
    );
    await expect(log.list({ limit: 1, cursor: 'not-a-cursor' })).rejects.toThrow(ValidationError);
    // A cursor whose day and key disagree (edited) is refused, not sent to DynamoDB.
    const edited = {
      ...JSON.parse(Buffer.from(byDay.nextCursor ?? '', 'base64url').toString()),
      d: '2001-01-01',
    };
    const forged = Buffer.from(JSON.stringify(edited)).toString('base64url');
    await expect(log.list({ limit: 1, cursor: forged })).rejects.toThrow(ValidationError);
  });
});

describe('recordChange and listAudit on DynamoDB', () => {
  class RecordingLogger implements Logger {
    readonly errors: { message: string; attributes?: LogAttributes }[] = [];
    debug() {}
    info() {}
    warn() {}
    error(message: string, attributes?: LogAttributes) {
      this.errors.push({ message, attributes });
    }
  }
  const counter = () => {
    const counts = new Map<string, number>();
    const metrics: Metrics = {
      add: (name, _unit, value) => counts.set(name, (counts.get(name) ?? 0) + value),
    };
    return { counts, metrics };
  };
  const principal: Principal = {
    kind: 'session',
    id: 'ana',
    name: 'ana',
    grant: { role: 'operator', groups: ['billing'], glue: false },
    credentialId: 'sess-1',
  };

  it('records a change (redacted, changed fields only) and shows it to its group only', async () => {
    const now = era();
    const { log, clock } = logAt(now);
    const { counts, metrics } = counter();
    const deps: AuditDeps = { log, clock, logger: new RecordingLogger(), metrics };
    const source = { ip: '203.0.113.7', userAgent: 'ua' };
    await recordChange(deps, {
      principal,
      source,
      action: 'group.accessToken.set',
      target: 'group#billing',
      appName: 'billing',
      before: { appName: 'billing', title: 'Billing', accessTokenSetAt: null },
      after: { appName: 'billing', title: 'Billing', accessToken: 's3cret-token', accessTokenSetAt: 'x' },
      requestId: 'r1',
    });
    // (Records of the same millisecond have no order among themselves.)
    clock.advance(1);
    await recordChange(deps, {
      principal,
      source,
      action: 'user.update',
      target: 'user#bo',
      before: { username: 'bo', role: 'viewer' },
      after: { username: 'bo', role: 'operator', password: 'hunter2' },
      requestId: 'r2',
    });
    expect(counts.get(METRIC.auditWrites)).toBe(2);

    const all = await listAudit(deps, { limit: 10 }, ALL_GROUPS, true);
    expect(all.items.map((r) => r.requestId)).toEqual(['r2', 'r1']);
    expect(all.items[1]?.changes).toEqual({
      accessToken: { after: '[redacted]' },
      accessTokenSetAt: { before: null, after: 'x' },
    });
    expect(all.items[0]?.changes).toEqual({
      role: { before: 'viewer', after: 'operator' },
      password: { after: '[redacted]' },
    });
    expect(JSON.stringify(all)).not.toMatch(/s3cret-token|hunter2/);

    const own = await listAudit(deps, { limit: 10 }, new Set(['billing']), false);
    expect(own.items.map((r) => r.requestId)).toEqual(['r1']);
    const other = await listAudit(deps, { limit: 10 }, new Set(['search']), false);
    expect(other.items).toEqual([]);
  });

  it('logs and counts a record it could not write, without failing the request', async () => {
    const now = era();
    const { log, clock } = logAt(now, { table: `${env.prefix}no-such-table` });
    const { counts, metrics } = counter();
    const logger = new RecordingLogger();
    const result = await recordChange(
      { log, clock, logger, metrics },
      {
        principal,
        source: { ip: '203.0.113.7', userAgent: 'ua' },
        action: 'job.update',
        target: 'job#7',
        appName: 'billing',
        before: { a: 1 },
        after: { a: 2 },
        requestId: 'req-lost',
      },
    );
    expect(result).toBeUndefined();
    expect(counts.get(METRIC.auditWriteFailures)).toBe(1);
    expect(counts.get(METRIC.auditWrites)).toBeUndefined();
    expect(logger.errors).toEqual([
      {
        message: 'audit record not written',
        attributes: expect.objectContaining({
          action: 'job.update',
          target: 'job#7',
          requestId: 'req-lost',
          error: expect.stringMatching(/^ResourceNotFoundException: /),
        }),
      },
    ]);
  });
});
