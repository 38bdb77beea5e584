import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './format';

describe('datetime-local values', () => {
  it('round-trips an instant through the local input value in the viewer zone (to the minute)', () => {
    for (const iso of ['2030-01-01T10:15:00.000Z', '2030-01-04T10:15:00.000Z']) {
      const local = toLocalInput(iso);
      expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      expect(fromLocalInput(local)).toBe(iso);
    }
  });

  it('is empty for nothing or nonsense', () => {
    expect(toLocalInput(undefined)).toBe('');
    expect(toLocalInput('nope')).toBe('');
    expect(toLocalInput('not a time')).toBe('');
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('2030-13-45T99:99')).toBeUndefined();
  });
});
