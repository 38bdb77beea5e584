import { describe, expect, it } from 'vitest';
import { ALL_GROUPS, type Grant } from './access.js';
import {
  afterFailure,
  currentThrottle,
  DAY_MS,
  formatCredential,
  grantExcess,
  LOGIN_THROTTLE,
  lockedFor,
  normalizeUsername,
  parseCredential,
  passwordProblems,
  readGrant,
  sourceKey,
  type ThrottleState,
  tokenExpiry,
  tokenNameProblems,
  usernameProblems,
} from './identity.js';

const SECRET = 'Qm3nX0v8aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0u_-wX'; // 43 base64url characters

describe('usernames', () => {
  it('are kept trimmed and lower-case', () => {
    expect(normalizeUsername('  Ana.Lima ')).toBe('ana.lima');
  });

  it('are 3-64 characters of a-z 0-9 . _ -', () => {
    for (const ok of ['ana', 'a.b_c-d', 'x'.repeat(64), 'ops2']) expect(usernameProblems(ok)).toEqual([]);
    for (const bad of ['ab', 'x'.repeat(65), 'ana lima', 'ana@example', 'änne', 'Ana']) {
      expect(usernameProblems(bad), bad).toHaveLength(1);
      expect(usernameProblems(bad)[0]?.field).toBe('username');
    }
  });
});

describe('the password policy', () => {
  it('takes a long password', () => {
    expect(passwordProblems('correct horse battery staple', 'ana')).toEqual([]);
    expect(passwordProblems(`${'x'.repeat(11)}y`, 'ana')).toEqual([]);
  });

  it('reports every problem at once: too short, the username in it, one character repeated', () => {
    const problems = passwordProblems('aaaa', 'aa');
    expect(problems.map((p) => p.message)).toEqual([
      'password must be at least 12 characters; got 4',
      'password must not contain the username',
      'password must not be one character repeated',
    ]);
    expect(problems.every((p) => p.field === 'password')).toBe(true);
  });

  it('refuses more than 256 characters, the username in any case, and names the field given', () => {
    expect(passwordProblems('ab'.repeat(129), undefined).map((p) => p.message)).toEqual([
      'password must be at most 256 characters; got 258',
    ]);
    expect(passwordProblems('my name is ANA-LIMA, hello', 'ana-lima', 'newPassword')).toEqual([
      { field: 'newPassword', message: 'newPassword must not contain the username' },
    ]);
  });

  it('counts characters, not UTF-16 units, and never echoes the password', () => {
    const emoji = '🔑'.repeat(11); // 22 UTF-16 units, 11 characters
    const problems = passwordProblems(emoji, 'ana');
    expect(problems.map((p) => p.message)).toContain('password must be at least 12 characters; got 11');
    expect(JSON.stringify(problems)).not.toContain('🔑');
  });
});

describe('grants', () => {
  it('gives an admin every group and GLUE', () => {
    expect(readGrant({ role: 'admin' })).toEqual({
      grant: { role: 'admin', groups: '*', glue: true },
      problems: [],
    });
    expect(readGrant({ role: 'admin', groups: '*', glue: true }).grant?.groups).toBe(ALL_GROUPS);
  });

  it('refuses an admin limited to groups or without GLUE', () => {
    const { problems } = readGrant({ role: 'admin', groups: ['billing'], glue: false });
    expect(problems.map((p) => p.field)).toEqual(['groups', 'glue']);
  });

  it('needs at least one group (or *) for an operator; keeps groups sorted, once each', () => {
    expect(readGrant({ role: 'operator', groups: [] }).problems[0]?.field).toBe('groups');
    expect(readGrant({ role: 'operator' }).problems[0]?.message).toMatch(
      /groups is required for an operator/,
    );
    expect(
      readGrant({ role: 'operator', groups: ['reports', 'billing', 'reports'], glue: true }).grant,
    ).toEqual({
      role: 'operator',
      groups: ['billing', 'reports'],
      glue: true,
    });
    expect(readGrant({ role: 'operator', groups: '*' }).grant).toEqual({
      role: 'operator',
      groups: '*',
      glue: false,
    });
  });

  it('gives a viewer * or a list, never GLUE', () => {
    expect(readGrant({ role: 'viewer', groups: '*' }).grant).toEqual({
      role: 'viewer',
      groups: '*',
      glue: false,
    });
    expect(readGrant({ role: 'viewer', groups: ['billing'] }).grant?.groups).toEqual(['billing']);
    expect(readGrant({ role: 'viewer', groups: ['billing'], glue: true }).problems).toEqual([
      { field: 'glue', message: 'a viewer never edits GLUE sources: glue must be false or left out' },
    ]);
  });

  it('refuses group names that are not AppNames, and an unknown role', () => {
    const { problems } = readGrant({ role: 'operator', groups: ['ok-app', 'no', 'has space'] });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toContain('got "has space", "no"');
    expect(readGrant({ role: 'root' as never }).problems[0]?.field).toBe('role');
  });

  it('says what a grant has beyond another; an admin covers all', () => {
    const admin: Grant = { role: 'admin', groups: '*', glue: true };
    const op: Grant = { role: 'operator', groups: ['billing', 'reports'], glue: false };
    expect(grantExcess(admin, { role: 'admin', groups: '*', glue: true })).toEqual([]);
    expect(grantExcess(op, { role: 'viewer', groups: ['billing'], glue: false })).toEqual([]);
    expect(grantExcess(op, { role: 'operator', groups: ['reports'], glue: false })).toEqual([]);
    expect(grantExcess(op, { role: 'admin', groups: '*', glue: true }).map((p) => p.field)).toEqual([
      'role',
      'groups',
      'glue',
    ]);
    expect(grantExcess(op, { role: 'viewer', groups: ['billing', 'etl'], glue: false })).toEqual([
      { field: 'groups', message: 'groups etl are not yours' },
    ]);
    expect(grantExcess(op, { role: 'operator', groups: ['billing'], glue: true })[0]?.field).toBe('glue');
    expect(
      grantExcess(
        { role: 'operator', groups: '*', glue: true },
        { role: 'operator', groups: ['x-app'], glue: true },
      ),
    ).toEqual([]);
  });
});

describe('API token names and expiry', () => {
  const now = Date.UTC(2030, 0, 1);

  it('names: 1-64 of letters, digits, . _ -', () => {
    expect(tokenNameProblems('ci-deploy.v2_A')).toEqual([]);
    expect(tokenNameProblems('')).toHaveLength(1);
    expect(tokenNameProblems('with space')).toHaveLength(1);
    expect(tokenNameProblems('x'.repeat(65))).toHaveLength(1);
  });

  it('expire by expiresInDays or expiresAt, exactly one, in the future, within 365 days', () => {
    expect(tokenExpiry({ expiresInDays: 90 }, now)).toEqual({ expiresAt: now + 90 * DAY_MS, problems: [] });
    expect(tokenExpiry({ expiresAt: now + 1000 }, now).expiresAt).toBe(now + 1000);
    expect(tokenExpiry({ expiresAt: now + 365 * DAY_MS }, now).problems).toEqual([]);
    expect(tokenExpiry({}, now).problems[0]?.message).toMatch(/exactly one/);
    expect(tokenExpiry({ expiresAt: now + 1000, expiresInDays: 1 }, now).problems[0]?.message).toMatch(
      /exactly one/,
    );
    expect(tokenExpiry({ expiresAt: now }, now).problems[0]?.message).toBe('expiresAt must be in the future');
    expect(tokenExpiry({ expiresAt: now + 366 * DAY_MS }, now).problems[0]?.message).toMatch(
      /at most 365 days/,
    );
    expect(tokenExpiry({ expiresInDays: 366 }, now).problems[0]?.field).toBe('expiresInDays');
    expect(tokenExpiry({ expiresInDays: 0 }, now).problems[0]?.field).toBe('expiresInDays');
  });
});

describe('credential formats', () => {
  it('formats and parses API tokens and sessions', () => {
    const token = formatCredential('token', '4f9c2a7be01d5c33', SECRET);
    expect(token).toBe(`trk_4f9c2a7be01d5c33_${SECRET}`);
    expect(parseCredential(token)).toEqual({ kind: 'token', id: '4f9c2a7be01d5c33', secret: SECRET });
    expect(parseCredential(`trs_abcdefabcdef_${SECRET}`)).toEqual({
      kind: 'session',
      id: 'abcdefabcdef',
      secret: SECRET,
    });
  });

  it('keeps an underscore in the secret part (base64url) in the secret', () => {
    const secret = '_'.repeat(43);
    expect(parseCredential(`trk_4f9c2a7be01d5c33_${secret}`)?.secret).toBe(secret);
  });

  it('recognises neither a malformed credential nor anything else', () => {
    for (const bad of [
      '',
      'some-admin-token',
      `trb_${SECRET}`,
      `trk_${SECRET}`,
      `trk_short_${SECRET}`,
      `trk_4f9c2a7be01d5c33_${SECRET}x`,
      `trk_4f9c2a7be01d5c33_${SECRET.slice(1)}`,
      `trk_4f9c2a7b-01d5c33_${SECRET}`,
      `TRK_4f9c2a7be01d5c33_${SECRET}`,
      `trs_4f9c2a7be01d5c33_${SECRET.replace('Q', '=')}`,
    ]) {
      expect(parseCredential(bad), bad).toBeUndefined();
    }
  });
});

describe('the failed sign-in throttle', () => {
  const t0 = Date.UTC(2030, 0, 1);
  const fail = (times: number, at = t0, from?: ThrottleState) => {
    let state = from;
    for (let i = 0; i < times; i++) state = afterFailure(state, at);
    return state as ThrottleState;
  };

  it('lets 4 failures through, then locks 1 s, 2 s, 4 s, ... at most 15 minutes', () => {
    expect(lockedFor(fail(4), t0)).toBe(0);
    expect(lockedFor(fail(5), t0)).toBe(1_000);
    expect(lockedFor(fail(6), t0)).toBe(2_000);
    expect(lockedFor(fail(7), t0)).toBe(4_000);
    expect(lockedFor(fail(15), t0)).toBe(15 * 60_000);
    expect(lockedFor(fail(100), t0)).toBe(LOGIN_THROTTLE.maxLockMs);
    expect(lockedFor(fail(5), t0 + 1_000)).toBe(0);
  });

  it('forgets a count 15 minutes after its last failure (unless still locked)', () => {
    const four = fail(4);
    expect(currentThrottle(four, t0 + LOGIN_THROTTLE.windowMs - 1)).toBe(four);
    expect(currentThrottle(four, t0 + LOGIN_THROTTLE.windowMs)).toBeUndefined();
    expect(afterFailure(four, t0 + LOGIN_THROTTLE.windowMs).failures).toBe(1);
    const long = fail(20);
    expect(currentThrottle(long, t0 + LOGIN_THROTTLE.windowMs - 1)?.failures).toBe(20);
  });

  it('counts an IPv4 address as it is, an IPv6 one by its /64, no address not at all', () => {
    expect(sourceKey('203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(sourceKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(sourceKey('2001:DB8:0:1:bbbb:cccc:dddd:eeee')).toBe('2001:db8:0:1::/64');
    expect(sourceKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    expect(sourceKey('')).toBeUndefined();
  });
});
