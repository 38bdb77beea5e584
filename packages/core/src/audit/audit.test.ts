import { describe, expect, it } from 'vitest';
import {
  auditTarget,
  deepEqual,
  diffFields,
  isSecretName,
  parseAuditTarget,
  REDACTED,
  redactChanges,
  redactSecrets,
} from './audit.js';

describe('diffFields', () => {
  const job = {
    id: 7,
    name: 'Nightly report',
    executorParam: 'region=eu',
    childJobIds: [3, 4],
    triggerNextTime: null,
    options: { retries: 2, backoff: { seconds: 10 } },
  };

  it('lists only the fields that changed, with their values before and after', () => {
    expect(
      diffFields(job, { ...job, executorParam: 'region=us', triggerNextTime: '2030-01-02T01:00:00.000Z' }),
    ).toEqual({
      executorParam: { before: 'region=eu', after: 'region=us' },
      triggerNextTime: { before: null, after: '2030-01-02T01:00:00.000Z' },
    });
  });

  it('lists nothing for equal views, nested values compared as values (not by reference)', () => {
    const copy = structuredClone(job);
    expect(copy.options).not.toBe(job.options);
    expect(diffFields(job, copy)).toEqual({});
  });

  it('lists a nested change as the whole top-level field', () => {
    const after = { ...job, options: { retries: 2, backoff: { seconds: 30 } } };
    expect(diffFields(job, after)).toEqual({
      options: {
        before: { retries: 2, backoff: { seconds: 10 } },
        after: { retries: 2, backoff: { seconds: 30 } },
      },
    });
  });

  it('compares arrays by their elements in order', () => {
    expect(diffFields(job, { ...job, childJobIds: [3, 4] })).toEqual({});
    expect(diffFields(job, { ...job, childJobIds: [4, 3] })).toEqual({
      childJobIds: { before: [3, 4], after: [4, 3] },
    });
    expect(diffFields(job, { ...job, childJobIds: [3] })).toEqual({
      childJobIds: { before: [3, 4], after: [3] },
    });
    expect(diffFields({ list: [{ a: 1 }] }, { list: [{ a: 1 }] })).toEqual({});
    expect(diffFields({ list: [{ a: 1 }] }, { list: [{ a: 2 }] })).toEqual({
      list: { before: [{ a: 1 }], after: [{ a: 2 }] },
    });
  });

  it('lists a new field with its value after only, a removed one with its value before only', () => {
    const { executorParam: _, ...without } = job;
    expect(diffFields(job, { ...without, note: 'new' })).toEqual({
      executorParam: { before: 'region=eu' },
      note: { after: 'new' },
    });
    // undefined counts as absent
    expect(diffFields({ a: 1, b: undefined }, { a: 1 })).toEqual({});
  });

  it('lists every field for a creation (before null) and a deletion (after null)', () => {
    expect(diffFields(null, { id: 7, name: 'x' })).toEqual({ id: { after: 7 }, name: { after: 'x' } });
    expect(diffFields({ id: 7, name: 'x' }, null)).toEqual({ id: { before: 7 }, name: { before: 'x' } });
    expect(diffFields(null, null)).toEqual({});
  });

  it('tells apart null, 0, false, "" and [] ', () => {
    expect(diffFields({ a: null, b: 0, c: false, d: '' }, { a: 0, b: false, c: '', d: [] })).toEqual({
      a: { before: null, after: 0 },
      b: { before: 0, after: false },
      c: { before: false, after: '' },
      d: { before: '', after: [] },
    });
  });

  it('takes a side that is not an object as the one field "value"', () => {
    expect(diffFields(null, ['a'])).toEqual({ value: { after: ['a'] } });
  });
});

describe('deepEqual', () => {
  it('compares objects by their defined fields, whatever their order', () => {
    expect(deepEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(deepEqual([1, [2]], [1, [2]])).toBe(true);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(new Date(5), new Date(5))).toBe(true);
    expect(deepEqual(new Date(5), new Date(6))).toBe(false);
    expect(deepEqual(Number.NaN, Number.NaN)).toBe(true);
  });
});

describe('redactSecrets', () => {
  it('replaces the values of fields named like secrets, at any depth, in objects and arrays', () => {
    const value = {
      username: 'ana',
      password: 'hunter2',
      passwordHash: 'scrypt$...',
      accessToken: 'q9V2k1bY0c',
      accessTokenSetAt: '2030-01-01T02:00:00.000Z',
      profile: { secret: 's', secretHash: 'h', nested: { tokenKey: 'k', token: 't', keep: 'x' } },
      tokens: [
        { id: 'a1', name: 'ci', token: 'tk-1' },
        { id: 'a2', name: 'cd', secretHash: 'h2' },
      ],
      list: ['password', 'token'],
    };
    expect(redactSecrets(value)).toEqual({
      username: 'ana',
      password: REDACTED,
      passwordHash: REDACTED,
      accessToken: REDACTED,
      accessTokenSetAt: '2030-01-01T02:00:00.000Z',
      profile: {
        secret: REDACTED,
        secretHash: REDACTED,
        nested: { tokenKey: REDACTED, token: REDACTED, keep: 'x' },
      },
      tokens: [
        { id: 'a1', name: 'ci', token: REDACTED },
        { id: 'a2', name: 'cd', secretHash: REDACTED },
      ],
      // values that merely read like secret names are kept
      list: ['password', 'token'],
    });
  });

  it('redacts whatever the secret is (an object, a number) but keeps null, and leaves its input as it was', () => {
    const value = { token: { a: 1 }, password: 1234, accessToken: null };
    const copy = structuredClone(value);
    expect(redactSecrets(value)).toEqual({ token: REDACTED, password: REDACTED, accessToken: null });
    expect(value).toEqual(copy);
  });

  it('survives a cycle', () => {
    const value: Record<string, unknown> = { token: 'x' };
    value.self = value;
    expect(redactSecrets(value)).toEqual({ token: REDACTED, self: '[circular]' });
  });

  it('knows secret names by their end, case and separators ignored', () => {
    for (const name of [
      'password',
      'passwordHash',
      'newPassword',
      'token',
      'accessToken',
      'access_token',
      'X-Api-Key',
      'tokenHash',
      'secret',
      'clientSecret',
      'secretHash',
      'tokenKey',
      'privateKey',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      'accessTokenSetAt',
      'tokenId',
      'tokens',
      'username',
      'passwordChangedAt',
      'secretName',
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });
});

describe('redactChanges', () => {
  it('redacts both sides of a secret field, keeping which sides there are', () => {
    const changes = diffFields(
      { appName: 'my-app', accessToken: 'old-token', accessTokenSetAt: null },
      { appName: 'my-app', accessToken: 'new-token', accessTokenSetAt: '2030-01-01T02:00:00.000Z' },
    );
    expect(redactChanges(changes)).toEqual({
      accessToken: { before: REDACTED, after: REDACTED },
      accessTokenSetAt: { before: null, after: '2030-01-01T02:00:00.000Z' },
    });
    expect(redactChanges(diffFields(null, { passwordHash: 'h' }))).toEqual({
      passwordHash: { after: REDACTED },
    });
  });

  it('redacts secrets nested in any field', () => {
    const changes = diffFields(
      { settings: { webhook: 'https://x', secret: 'a' } },
      { settings: { webhook: 'https://y', secret: 'b' } },
    );
    expect(redactChanges(changes)).toEqual({
      settings: {
        before: { webhook: 'https://x', secret: REDACTED },
        after: { webhook: 'https://y', secret: REDACTED },
      },
    });
  });
});

describe('audit targets', () => {
  it('names a target kind#id, the bootstrap alone', () => {
    expect(auditTarget('job', 7)).toBe('job#7');
    expect(auditTarget('group', 'billing')).toBe('group#billing');
    expect(auditTarget('bootstrap')).toBe('bootstrap');
    expect(() => auditTarget('user')).toThrow(TypeError);
  });

  it('reads a target back', () => {
    expect(parseAuditTarget('job#7')).toEqual({ kind: 'job', id: '7' });
    expect(parseAuditTarget('token#a#b')).toEqual({ kind: 'token', id: 'a#b' });
    expect(parseAuditTarget('bootstrap')).toEqual({ kind: 'bootstrap' });
    expect(parseAuditTarget('job')).toBeUndefined();
    expect(parseAuditTarget('job#')).toBeUndefined();
    expect(parseAuditTarget('cat#1')).toBeUndefined();
  });
});
