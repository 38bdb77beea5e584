import { describe, expect, it } from 'vitest';
import { diffRows, fieldCount, showValue, targetView } from './audit-view';

describe('diffRows', () => {
  it('shows a creation as added fields, a deletion as removed ones, an update as before → after', () => {
    const rows = diffRows({
      name: { before: 'old', after: 'new' },
      id: { after: 7 },
      title: { before: 'gone' },
    });
    expect(rows.map((r) => [r.field, r.kind])).toEqual([
      ['name', 'changed'],
      ['id', 'added'],
      ['title', 'removed'],
    ]);
    expect(rows[0]!.before.text).toBe('old');
    expect(rows[0]!.after.text).toBe('new');
    expect(rows[1]!.before).toMatchObject({ absent: true, text: '—' });
    expect(rows[1]!.after.text).toBe('7');
    expect(rows[2]!.after.absent).toBe(true);
  });

  it('tells a field set to null from a field not there', () => {
    const [row] = diffRows({ lastLoginAt: { before: null, after: '2030-01-01T00:00:00.000Z' } });
    expect(row!.kind).toBe('changed');
    expect(row!.before).toMatchObject({ absent: false, blank: true, text: 'null' });
  });

  it('marks secrets the server redacted', () => {
    const [row] = diffRows({ password: { after: '[redacted]' } });
    expect(row!.after).toMatchObject({ redacted: true, text: '[redacted]' });
    expect(row!.before.redacted).toBe(false);
  });

  it('is empty when nothing changed', () => {
    expect(diffRows({})).toEqual([]);
    expect(fieldCount({})).toBe('no fields');
    expect(fieldCount({ a: {} })).toBe('1 field');
    expect(fieldCount({ a: {}, b: {} })).toBe('2 fields');
  });
});

describe('showValue', () => {
  it('writes values inline, long or structured ones as blocks', () => {
    expect(showValue(true, true)).toMatchObject({ text: 'true', block: false });
    expect(showValue('', true)).toMatchObject({ text: '""', blank: true });
    expect(showValue(['a', 'b'], true)).toMatchObject({ text: '["a","b"]', block: false });
    const long = showValue({ source: 'x'.repeat(80) }, true);
    expect(long.block).toBe(true);
    expect(long.text).toContain('\n');
    expect(showValue('line one\nline two', true).block).toBe(true);
  });
});

describe('targetView', () => {
  it('links jobs, runs and groups to their pages', () => {
    expect(targetView('job#7', false)).toMatchObject({ kind: 'job', id: '7', href: '/jobs/7' });
    expect(targetView('run#4294967296', false)).toMatchObject({ kind: 'run', href: '/runs/4294967296' });
    expect(targetView('group#my-app', false)).toMatchObject({ kind: 'group', href: '/jobs?appName=my-app' });
  });

  it('links users and tokens for admins only (others cannot open those pages)', () => {
    expect(targetView('user#ana', true).href).toBe('/users?q=ana');
    expect(targetView('user#ana', false).href).toBeUndefined();
    expect(targetView('token#abc', true).href).toBe('/tokens?q=abc');
    expect(targetView('token#abc', false).href).toBeUndefined();
  });

  it('does not link the bootstrap token or what it does not know', () => {
    expect(targetView('bootstrap', true)).toMatchObject({ kind: 'bootstrap' });
    expect(targetView('bootstrap', true).href).toBeUndefined();
    expect(targetView('thing#1', true)).toMatchObject({ kind: 'other' });
    expect(targetView('thing#1', true).href).toBeUndefined();
    expect(targetView('job#a b', true).href).toBe('/jobs/a%20b');
  });
});
