import { FakeClock } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import type { LogAttributes, Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import { LIST_READ_ON_MS } from '../common/paging.js';
import { ALL_GROUPS, type Principal } from '../identity/access.js';
import type { Page } from '../jobs/job-store.js';
import { type AuditEntry, type AuditRecord, REDACTED } from './audit.js';
import type { AuditLog, AuditQuery } from './audit-log.js';
import { type AuditChange, type AuditDeps, auditEntry, listAudit, recordChange } from './record-change.js';

const NOW = Date.parse('2030-01-01T02:00:00.000Z');

const ana: Principal = {
  kind: 'session',
  id: 'ana',
  name: 'ana',
  grant: { role: 'operator', groups: ['billing'], glue: false },
  credentialId: 'sess-1',
};

/**
 * An in-memory audit log: records newest first, filtered as the DynamoDB one filters, pages cut
 * by position. `pages` are answered first, in turn, when set.
 */
class MemoryAuditLog implements AuditLog {
  readonly records: AuditRecord[] = [];
  readonly queries: AuditQuery[] = [];
  pages: Page<AuditRecord>[] = [];
  failWith: Error | undefined;
  private next = 0;

  constructor(private readonly clock?: FakeClock) {}

  async append(entry: AuditEntry): Promise<AuditRecord> {
    if (this.failWith) throw this.failWith;
    const record = { id: `r${String(++this.next).padStart(4, '0')}`, ...entry };
    this.records.push(record);
    return record;
  }

  async list(query: AuditQuery): Promise<Page<AuditRecord>> {
    this.queries.push(query);
    if (this.clock) this.clock.advance(100);
    const scripted = this.pages.shift();
    if (scripted) return scripted;
    const matching = [...this.records]
      .sort((a, b) => b.at - a.at || b.id.localeCompare(a.id))
      .filter(
        (r) =>
          (query.target === undefined || r.target === query.target) &&
          (query.actor === undefined || r.actor.name === query.actor || r.actor.id === query.actor) &&
          (query.action === undefined || r.action === query.action) &&
          (query.appName === undefined || r.appName === query.appName) &&
          (query.appNames === undefined || (r.appName !== undefined && query.appNames.includes(r.appName))) &&
          (query.onlyGrouped !== true || r.appName !== undefined),
      );
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    const items = matching.slice(start, start + query.limit);
    const end = start + query.limit;
    return end < matching.length ? { items, nextCursor: String(end) } : { items };
  }
}

class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; attributes?: LogAttributes }[] = [];
  debug(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'debug', message, attributes });
  }
  info(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'info', message, attributes });
  }
  warn(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'warn', message, attributes });
  }
  error(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'error', message, attributes });
  }
}

class CountingMetrics implements Metrics {
  readonly counts = new Map<string, number>();
  add(name: string, _unit: string, value: number) {
    this.counts.set(name, (this.counts.get(name) ?? 0) + value);
  }
}

function makeDeps(): AuditDeps & { log: MemoryAuditLog; logger: RecordingLogger; metrics: CountingMetrics } {
  const clock = new FakeClock(NOW);
  return {
    log: new MemoryAuditLog(clock),
    clock,
    logger: new RecordingLogger(),
    metrics: new CountingMetrics(),
  };
}

const jobChange: AuditChange = {
  principal: ana,
  source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
  action: 'job.update',
  target: 'job#7',
  appName: 'billing',
  before: { id: 7, executorParam: 'region=eu', version: 3, childJobIds: [1] },
  after: { id: 7, executorParam: 'region=us', version: 4, childJobIds: [1] },
  requestId: 'req-1',
};

describe('auditEntry', () => {
  it('records when, who, from where, what and the changed fields only', () => {
    expect(auditEntry(jobChange, NOW)).toEqual({
      at: NOW,
      actor: { kind: 'session', id: 'ana', name: 'ana', credentialId: 'sess-1' },
      source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
      action: 'job.update',
      target: 'job#7',
      appName: 'billing',
      changes: {
        executorParam: { before: 'region=eu', after: 'region=us' },
        version: { before: 3, after: 4 },
      },
      requestId: 'req-1',
    });
  });

  it('redacts secrets in the changes and the detail', () => {
    const entry = auditEntry(
      {
        ...jobChange,
        action: 'group.accessToken.set',
        target: 'group#billing',
        before: { appName: 'billing', accessTokenSetAt: null },
        after: { appName: 'billing', accessToken: 'q9V2k1bY', accessTokenSetAt: '2030-01-01T02:00:00.000Z' },
        detail: { request: { accessToken: 'q9V2k1bY' }, result: { tokens: [{ id: 't1', secretHash: 'x' }] } },
      },
      NOW,
    );
    expect(entry.changes).toEqual({
      accessToken: { after: REDACTED },
      accessTokenSetAt: { before: null, after: '2030-01-01T02:00:00.000Z' },
    });
    expect(entry.detail).toEqual({
      request: { accessToken: REDACTED },
      result: { tokens: [{ id: 't1', secretHash: REDACTED }] },
    });
    expect(JSON.stringify(entry)).not.toContain('q9V2k1bY');
  });

  it('names a token, the bootstrap and no principal as actors; keeps a non-object detail as {value}', () => {
    const token: Principal = {
      kind: 'token',
      id: 'tok-9',
      name: 'token:ci',
      grant: { role: 'admin', groups: ALL_GROUPS, glue: true },
      credentialId: 'tok-9',
    };
    const bootstrap: Principal = { ...token, kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap' };
    const { credentialId: _, ...noCredential } = bootstrap;
    expect(auditEntry({ ...jobChange, principal: token }, NOW).actor).toEqual({
      kind: 'token',
      id: 'tok-9',
      name: 'token:ci',
      credentialId: 'tok-9',
    });
    expect(auditEntry({ ...jobChange, principal: noCredential }, NOW).actor).toEqual({
      kind: 'bootstrap',
      id: 'bootstrap',
      name: 'bootstrap',
    });
    expect(auditEntry({ ...jobChange, principal: undefined }, NOW).actor).toEqual({
      kind: 'anonymous',
      id: '',
      name: 'anonymous',
    });
    expect(auditEntry({ ...jobChange, detail: [1, 2] }, NOW).detail).toEqual({ value: [1, 2] });
    expect(auditEntry({ ...jobChange, detail: null }, NOW)).not.toHaveProperty('detail');
  });

  it('leaves out an absent appName and cuts an overlong user agent', () => {
    const { appName: _, ...noGroup } = jobChange;
    const entry = auditEntry({ ...noGroup, source: { ip: '::1', userAgent: 'x'.repeat(5000) } }, NOW);
    expect(entry).not.toHaveProperty('appName');
    expect(entry.source.userAgent).toHaveLength(512);
  });

  it('records a creation with every field after, a deletion with every field before', () => {
    expect(auditEntry({ ...jobChange, before: null, after: { id: 7, name: 'a' } }, NOW).changes).toEqual({
      id: { after: 7 },
      name: { after: 'a' },
    });
    expect(auditEntry({ ...jobChange, before: { id: 7 }, after: null }, NOW).changes).toEqual({
      id: { before: 7 },
    });
  });
});

describe('recordChange', () => {
  it('appends the record at the clock’s time and counts it', async () => {
    const deps = makeDeps();
    const record = await recordChange(deps, jobChange);
    expect(record).toEqual({ id: 'r0001', ...auditEntry(jobChange, NOW) });
    expect(deps.log.records).toEqual([record]);
    expect(deps.metrics.counts.get(METRIC.auditWrites)).toBe(1);
    expect(deps.metrics.counts.get(METRIC.auditWriteFailures)).toBeUndefined();
  });

  it('does not throw when the record cannot be written: logs it as an error and counts it', async () => {
    const deps = makeDeps();
    deps.log.failWith = Object.assign(new Error('Requested resource not found'), {
      name: 'ResourceNotFoundException',
    });
    await expect(recordChange(deps, jobChange)).resolves.toBeUndefined();
    expect(deps.logger.lines).toEqual([
      {
        level: 'error',
        message: 'audit record not written',
        attributes: {
          action: 'job.update',
          target: 'job#7',
          appName: 'billing',
          actor: 'ana',
          requestId: 'req-1',
          error: 'ResourceNotFoundException: Requested resource not found',
        },
      },
    ]);
    expect(deps.metrics.counts.get(METRIC.auditWriteFailures)).toBe(1);
    expect(deps.metrics.counts.get(METRIC.auditWrites)).toBeUndefined();
  });
});

describe('listAudit', () => {
  /** Records of two groups and of no group (a user's change), oldest first. */
  async function seeded() {
    const deps = makeDeps();
    const changes: AuditChange[] = [
      { ...jobChange, target: 'job#1', appName: 'billing' },
      { ...jobChange, target: 'job#2', appName: 'search' },
      { ...jobChange, action: 'user.update', target: 'user#bo', appName: undefined },
      { ...jobChange, target: 'group#billing', action: 'group.update', appName: 'billing' },
      { ...jobChange, target: 'job#3', appName: 'search' },
    ];
    for (const [i, change] of changes.entries()) {
      const { appName, ...rest } = change;
      await deps.log.append(auditEntry(appName === undefined ? rest : change, NOW + i));
    }
    deps.log.queries.length = 0;
    return deps;
  }
  const targets = (page: Page<AuditRecord>) => page.items.map((r) => r.target);

  it('shows an admin every record, newest first', async () => {
    const deps = await seeded();
    const page = await listAudit(deps, { limit: 10 }, ALL_GROUPS, true);
    expect(targets(page)).toEqual(['job#3', 'group#billing', 'user#bo', 'job#2', 'job#1']);
    expect(deps.log.queries).toEqual([{ limit: 10, cursor: undefined }]);
  });

  it('shows anyone else only the records of its groups, asking the log for them', async () => {
    const deps = await seeded();
    const page = await listAudit(deps, { limit: 10 }, new Set(['billing']), false);
    expect(targets(page)).toEqual(['group#billing', 'job#1']);
    expect(deps.log.queries[0]?.appNames).toEqual(['billing']);
  });

  it('shows a non-admin who reaches every group the records of all groups, never those of users and tokens', async () => {
    const deps = await seeded();
    const page = await listAudit(deps, { limit: 10 }, ALL_GROUPS, false);
    expect(targets(page)).toEqual(['job#3', 'group#billing', 'job#2', 'job#1']);
    expect(deps.log.queries[0]?.onlyGrouped).toBe(true);
  });

  it('answers an empty page for a group outside the caller’s, without reading', async () => {
    const deps = await seeded();
    expect(await listAudit(deps, { limit: 10, appName: 'search' }, new Set(['billing']), false)).toEqual({
      items: [],
    });
    expect(await listAudit(deps, { limit: 10 }, new Set(), false)).toEqual({ items: [] });
    expect(deps.log.queries).toEqual([]);
    const own = await listAudit(deps, { limit: 10, appName: 'billing' }, new Set(['billing']), false);
    expect(targets(own)).toEqual(['group#billing', 'job#1']);
    expect(deps.log.queries[0]).toMatchObject({ appName: 'billing' });
  });

  it('filters the page itself when the caller has more groups than one log filter takes', async () => {
    const deps = await seeded();
    const many = new Set(['billing', ...Array.from({ length: 150 }, (_, i) => `g${i}`)]);
    const page = await listAudit(deps, { limit: 10 }, many, false);
    expect(targets(page)).toEqual(['group#billing', 'job#1']);
    expect(deps.log.queries[0]).toMatchObject({ onlyGrouped: true });
    expect(deps.log.queries[0]).not.toHaveProperty('appNames');
  });

  it('filters what the log answers even when it answers more (a record of another group never shows)', async () => {
    const deps = await seeded();
    const foreign = deps.log.records.find((r) => r.target === 'job#2');
    deps.log.pages = [{ items: [foreign as AuditRecord] }];
    expect(await listAudit(deps, { limit: 10 }, new Set(['billing']), false)).toEqual({ items: [] });
  });

  it('ignores groups the query itself names for the log (the caller’s grant decides)', async () => {
    const deps = await seeded();
    const page = await listAudit(
      deps,
      { limit: 10, appNames: ['search'], onlyGrouped: false },
      new Set(['billing']),
      false,
    );
    expect(targets(page)).toEqual(['group#billing', 'job#1']);
  });

  it('reads on past empty pages with a cursor, up to the read-on budget', async () => {
    const deps = await seeded();
    const record = deps.log.records[0] as AuditRecord;
    deps.log.pages = [
      { items: [], nextCursor: 'a' },
      { items: [], nextCursor: 'b' },
      { items: [record], nextCursor: 'c' },
    ];
    const page = await listAudit(deps, { limit: 10 }, ALL_GROUPS, true);
    expect(page).toEqual({ items: [record], nextCursor: 'c' });
    expect(deps.log.queries.map((q) => q.cursor)).toEqual([undefined, 'a', 'b']);

    // Each read takes 100 ms on the fake clock: past the budget the empty page is the answer.
    deps.log.pages = Array.from({ length: LIST_READ_ON_MS / 100 + 5 }, (_, i) => ({
      items: [],
      nextCursor: `e${i}`,
    }));
    deps.log.queries.length = 0;
    const empty = await listAudit(deps, { limit: 10, cursor: 'start' }, ALL_GROUPS, true);
    expect(empty.items).toEqual([]);
    expect(empty.nextCursor).toBeDefined();
    expect(deps.log.queries.length).toBe(LIST_READ_ON_MS / 100);
  });

  it('pages through the records with the cursor', async () => {
    const deps = await seeded();
    const first = await listAudit(deps, { limit: 2 }, ALL_GROUPS, true);
    expect(targets(first)).toEqual(['job#3', 'group#billing']);
    const second = await listAudit(deps, { limit: 2, cursor: first.nextCursor }, ALL_GROUPS, true);
    expect(targets(second)).toEqual(['user#bo', 'job#2']);
  });

  it('refuses from after to', async () => {
    const deps = await seeded();
    await expect(listAudit(deps, { limit: 10, from: NOW, to: NOW - 1 }, ALL_GROUPS, true)).rejects.toThrow(
      ValidationError,
    );
  });
});
