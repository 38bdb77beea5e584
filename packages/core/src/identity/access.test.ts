import { describe, expect, it } from 'vitest';
import { ALL_GROUPS, listScope } from './access.js';

describe('listScope', () => {
  it('reads the group asked for when the caller sees it, nothing when not', () => {
    expect(listScope('a', ALL_GROUPS)).toEqual({ appName: 'a' });
    expect(listScope('a', new Set(['a', 'b']))).toEqual({ appName: 'a' });
    expect(listScope('c', new Set(['a', 'b']))).toBeNull();
  });

  it('reads every group for a caller who sees all, nothing for one who sees none', () => {
    expect(listScope(undefined, ALL_GROUPS)).toEqual({ appName: undefined });
    expect(listScope(undefined, new Set())).toBeNull();
  });

  it('narrows to the one group seen unless told not to; several groups are filtered', () => {
    expect(listScope(undefined, new Set(['a']))).toEqual({ appName: 'a' });
    expect(listScope(undefined, new Set(['a']), false)).toEqual({ appName: undefined });
    expect(listScope(undefined, new Set(['a', 'b']))).toEqual({ appName: undefined });
  });
});
