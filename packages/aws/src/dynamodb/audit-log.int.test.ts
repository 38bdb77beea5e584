import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '@tickring/core/audit';
import { type AuditDeps, listAudit, recordChange } from '@tickring/core/audit/use-cases';
import type { LogAttributes, Logger } from '@tickring/core/common';
import { METRIC, type Metrics, ValidationError } from '@tickring/core/common';
import { ALL_GROUPS, type Principal } from '@tickring/core/identity';
import type { Page } from '@tickring/core/jobs';
import { FakeClock, makeAuditEntry } from '@tickring/testing';
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

const entry = makeAuditEntry;

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

// The AuditLog's behaviour is pinned by its contract suite (audit-log.contract.int.test.ts runs it on
// DynamoDB Local); these tests keep what is DynamoDB's own: the item and its TTL, ids drawn again on
// a taken key, changes cut to fit an item, the target index, how far one request reads day by day,
// the cursor's form, and the use-cases on the table (a missing table's error).

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
  it("lists a target's records through its index, not the day partitions, in one page when they fit", async () => {
    const now = era();
    const { log } = logAt(now);
    const a = await log.append(entry(now - 3 * DAY_MS, { target: 'job#7', action: 'job.create' }));
    await log.append(entry(now - 2 * DAY_MS, { target: 'job#8' }));
    const c = await log.append(entry(now - DAY_MS, { target: 'job#7', action: 'job.trigger' }));
    const since = capacity.records.length;
    const page = await log.list({ limit: 100, target: 'job#7' });
    expect(ids(page.items)).toEqual([c.id, a.id]);
    expect(page.nextCursor).toBeUndefined();
    const queries = capacity.slice(since).filter((r) => r.command === 'QueryCommand');
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.input.IndexName === AUDIT_BY_TARGET_INDEX)).toBe(true);
  });

  it('answers no empty page before the last while the days it reads hold records', async () => {
    const now = era();
    const { log } = logAt(now);
    const written: AuditRecord[] = [];
    // Days with 3, 0, 1, 0, 0, 4 and 2 records.
    const perDay = [3, 0, 1, 0, 0, 4, 2];
    for (const [day, count] of perDay.entries()) {
      for (let i = 0; i < count; i++) written.push(await log.append(entry(now - day * DAY_MS - i * HOUR_MS)));
    }
    for (const limit of [1, 2, 3, 5, 100]) {
      const pages = await allPages((cursor) => log.list({ limit, cursor }));
      expect(
        pages.flatMap((p) => ids(p.items)),
        `limit ${limit}`,
      ).toEqual(ids(newestFirst(written)));
      for (const page of pages.slice(0, -1)) expect(page.items.length, `limit ${limit}`).toBeGreaterThan(0);
    }
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

  it('refuses a cursor whose day and key disagree (edited), before it reaches DynamoDB', async () => {
    const now = era();
    const { log } = logAt(now);
    for (let i = 0; i < 3; i++) await log.append(entry(now - i * 1000));
    const byDay = await log.list({ limit: 1 });
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
