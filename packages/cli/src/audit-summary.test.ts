import { describe, expect, it } from 'vitest';
import { formatValue, summarizeChanges } from './audit-summary.js';

describe('formatValue', () => {
  it('quotes strings, writes the rest as compact JSON, cuts long values, leaves [redacted] bare', () => {
    expect(formatValue('0 * * * * ?')).toBe('"0 * * * * ?"');
    expect(formatValue(3)).toBe('3');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(null)).toBe('null');
    expect(formatValue(['billing', 'reports'])).toBe('["billing","reports"]');
    expect(formatValue(undefined)).toBe('(none)');
    expect(formatValue('[redacted]')).toBe('[redacted]');
    expect(formatValue('x'.repeat(60), 10)).toBe('"xxxxxxxx…');
  });
});

describe('summarizeChanges', () => {
  it('an update: each changed field as field: before → after, the version and update time left out', () => {
    expect(
      summarizeChanges({
        changes: {
          scheduleConf: { before: '0 * * * * ?', after: '0 0 * * * ?' },
          version: { before: 3, after: 4 },
          updatedAt: { before: '2030-01-01T00:00:00.000Z', after: '2030-01-01T01:00:00.000Z' },
          executorFailRetryCount: { before: 0, after: 2 },
        },
        detail: null,
      }),
    ).toBe('scheduleConf: "0 * * * * ?" → "0 0 * * * ?"; executorFailRetryCount: 0 → 2');
  });

  it('a field that appears or goes, and an update of the bookkeeping alone', () => {
    expect(
      summarizeChanges({
        changes: { alarmEmail: { after: 'ops@example.com' }, x: { before: 1 } },
        detail: null,
      }),
    ).toBe('alarmEmail: (none) → "ops@example.com"; x: 1 → (none)');
    expect(summarizeChanges({ changes: { version: { before: 1, after: 2 } }, detail: null })).toBe(
      'version: 1 → 2',
    );
  });

  it('a creation by its telling fields; a deletion as such', () => {
    const job = {
      id: 7,
      appName: 'billing',
      name: 'Nightly report',
      scheduleType: 'CRON',
      scheduleConf: '0 0 2 * * ?',
      executorHandler: 'nightly',
      version: 1,
    };
    const created = Object.fromEntries(Object.entries(job).map(([k, v]) => [k, { after: v }]));
    expect(summarizeChanges({ changes: created, detail: null }, 200)).toBe(
      'created (name: "Nightly report", scheduleType: "CRON", scheduleConf: "0 0 2 * * ?", executorHandler: "nightly")',
    );
    const deleted = Object.fromEntries(Object.entries(job).map(([k, v]) => [k, { before: v }]));
    expect(summarizeChanges({ changes: deleted, detail: null })).toBe('deleted');
    expect(summarizeChanges({ changes: { id: { after: 1 } }, detail: null })).toBe('created');
  });

  it('a user: a secret reads [redacted], groups as JSON', () => {
    expect(
      summarizeChanges(
        {
          changes: {
            groups: { before: ['billing'], after: ['billing', 'etl'] },
            passwordHash: { before: '[redacted]', after: '[redacted]' },
            passwordChangedAt: { before: '2030-01-01T00:00:00.000Z', after: '2030-01-02T00:00:00.000Z' },
          },
          detail: null,
        },
        200,
      ),
    ).toBe(
      'groups: ["billing"] → ["billing","etl"]; passwordHash: [redacted] → [redacted]; passwordChangedAt: "2030-01-01T00:00:00.000Z" → "2030-01-02T00:00:00.000Z"',
    );
  });

  it('an event (a trigger): what it was asked, the runs it made; nothing changed: says so', () => {
    expect(
      summarizeChanges({
        changes: {},
        detail: {
          request: { executorParam: 'date=2030-01-01', addressList: null },
          result: { logIds: [31, 32] },
        },
      }),
    ).toBe('executorParam: "date=2030-01-01"; runs 31, 32');
    expect(summarizeChanges({ changes: {}, detail: { request: {}, result: { logId: 5 } } })).toBe('run 5');
    expect(
      summarizeChanges({ changes: {}, detail: { request: null, result: { token: '[redacted]' } } }),
    ).toBe('-');
    expect(summarizeChanges({ changes: {}, detail: null })).toBe('no change');
  });

  it('is one line of at most max characters', () => {
    const text = summarizeChanges(
      { changes: { executorParam: { before: 'a'.repeat(30), after: `b\n${'c'.repeat(30)}` } }, detail: null },
      50,
    );
    expect(text).toHaveLength(50);
    expect(text).not.toContain('\n');
    expect(text.endsWith('…')).toBe(true);
  });
});
