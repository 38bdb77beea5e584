import { describe, expect, it } from 'vitest';
import { countLine, filterTokens, filterUsers } from './list-filters';

const users = [
  { username: 'ana', displayName: 'Ana Lima', role: 'operator', disabled: false },
  { username: 'bo', displayName: 'Bo', role: 'viewer', disabled: true },
  { username: 'admin', displayName: 'admin', role: 'admin', disabled: false },
];

const tokens = [
  { id: 'k1', name: 'ci-deploy', role: 'operator', status: 'active', createdBy: 'ana' },
  { id: 'k2', name: 'old-cron', role: 'viewer', status: 'revoked', createdBy: 'bootstrap' },
];

describe('filterUsers', () => {
  it('matches username or display name, any case', () => {
    expect(filterUsers(users, { q: 'LIMA' }).map((u) => u.username)).toEqual(['ana']);
    expect(filterUsers(users, { q: 'a' }).map((u) => u.username)).toEqual(['ana', 'admin']);
  });

  it('filters by role and state', () => {
    expect(filterUsers(users, { role: 'viewer' }).map((u) => u.username)).toEqual(['bo']);
    expect(filterUsers(users, { state: 'disabled' }).map((u) => u.username)).toEqual(['bo']);
    expect(filterUsers(users, { state: 'active' }).map((u) => u.username)).toEqual(['ana', 'admin']);
    expect(filterUsers(users, {})).toHaveLength(3);
  });
});

describe('filterTokens', () => {
  it('matches name, exact id or creator; role; status', () => {
    expect(filterTokens(tokens, { q: 'deploy' }).map((t) => t.id)).toEqual(['k1']);
    expect(filterTokens(tokens, { q: 'k2' }).map((t) => t.id)).toEqual(['k2']);
    expect(filterTokens(tokens, { q: 'k' })).toEqual([]);
    expect(filterTokens(tokens, { q: 'boot' }).map((t) => t.id)).toEqual(['k2']);
    expect(filterTokens(tokens, { status: 'active', role: 'operator' }).map((t) => t.id)).toEqual(['k1']);
  });
});

describe('countLine', () => {
  it('counts in the singular and plural, and says when filtered', () => {
    expect(countLine(1, 1, 'token')).toBe('1 token.');
    expect(countLine(3, 3, 'user')).toBe('3 users.');
    expect(countLine(1, 5, 'token')).toBe('1 of 5 tokens.');
  });
});
