import { describe, expect, it } from 'vitest';
import { addGroups, describeGroups, draftOf, grantBody, parseGroupNames } from './grant';

describe('grantBody', () => {
  it('leaves an admin its implied groups and GLUE', () => {
    expect(grantBody({ role: 'admin', allGroups: false, groups: ['a'], glue: false })).toEqual({
      role: 'admin',
    });
  });

  it('sends an operator its groups and GLUE, a viewer never GLUE', () => {
    expect(grantBody({ role: 'operator', allGroups: false, groups: ['a', 'b'], glue: true })).toEqual({
      role: 'operator',
      groups: ['a', 'b'],
      glue: true,
    });
    expect(grantBody({ role: 'viewer', allGroups: true, groups: ['a'], glue: true })).toEqual({
      role: 'viewer',
      groups: '*',
      glue: false,
    });
  });

  it('round-trips a stored grant', () => {
    const stored = { role: 'operator' as const, groups: ['billing'], glue: false };
    expect(grantBody(draftOf(stored))).toEqual(stored);
    expect(draftOf({ role: 'viewer', groups: '*', glue: false })).toMatchObject({
      allGroups: true,
      groups: [],
    });
  });
});

describe('group names', () => {
  it('splits on commas and spaces, each once', () => {
    expect(parseGroupNames(' billing, reports  etl,billing ,, ')).toEqual(['billing', 'reports', 'etl']);
    expect(parseGroupNames('   ')).toEqual([]);
    expect(addGroups(['a'], 'b, a')).toEqual(['a', 'b']);
  });

  it('describes a grant’s groups', () => {
    expect(describeGroups('*')).toBe('every group');
    expect(describeGroups([])).toBe('none');
    expect(describeGroups(['a', 'b'])).toBe('a, b');
  });
});
