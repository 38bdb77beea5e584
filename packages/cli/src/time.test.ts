import { describe, expect, it } from 'vitest';
import { parseExpiresAt, parseExpiresIn, parseInstant, parseSpan } from './time.js';

const NOW = Date.parse('2030-06-01T12:00:00Z');

describe('parseSpan', () => {
  it.each([
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['30min', 1_800_000],
    ['1h', 3_600_000],
    ['2d', 172_800_000],
    ['1w', 604_800_000],
    ['1h30m', 5_400_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    [' 2H ', 7_200_000],
  ])('%s → %d ms', (text, ms) => {
    expect(parseSpan(text)).toBe(ms);
  });

  it.each(['', 'h', '1', '1.5h', '-1h', '1y', '1h 30m', 'soon'])('%j is not a span', (text) => {
    expect(parseSpan(text)).toBeUndefined();
  });
});

describe('parseInstant (--since, --until)', () => {
  it('counts a span back from now', () => {
    expect(parseInstant('1h', NOW).toISOString()).toBe('2030-06-01T11:00:00.000Z');
    expect(parseInstant('30m', NOW).toISOString()).toBe('2030-06-01T11:30:00.000Z');
    expect(parseInstant('2d', NOW).toISOString()).toBe('2030-05-30T12:00:00.000Z');
  });

  it('takes ISO-8601 instants with Z or an offset as they are', () => {
    expect(parseInstant('2030-01-01T08:00:00Z', NOW).toISOString()).toBe('2030-01-01T08:00:00.000Z');
    expect(parseInstant('2030-01-01T08:00:00+02:00', NOW).toISOString()).toBe('2030-01-01T06:00:00.000Z');
    expect(parseInstant('2030-01-01T08:00:00.250Z', NOW).toISOString()).toBe('2030-01-01T08:00:00.250Z');
  });

  it("reads a time without offset, and a bare date (its midnight), in the viewer's local zone", () => {
    const local = new Date(2030, 0, 1, 8, 0, 0).getTime();
    expect(parseInstant('2030-01-01T08:00', NOW).getTime()).toBe(local);
    expect(parseInstant('2030-01-01 08:00:00', NOW).getTime()).toBe(local);
    expect(parseInstant('2030-01-01', NOW).getTime()).toBe(new Date(2030, 0, 1).getTime());
  });

  it('says what it accepts when it cannot read the value', () => {
    expect(() => parseInstant('yesterday', NOW)).toThrow(
      /expected a span back from now .* or an ISO-8601 time/,
    );
    expect(() => parseInstant('2030-13-45', NOW)).toThrow(/got "2030-13-45"/);
    expect(() => parseInstant('1.5h', NOW)).toThrow(/30s, 15m, 1h/);
  });
});

describe('parseExpiresIn (--expires-in)', () => {
  it.each([
    ['30d', { expiresInDays: 30 }],
    ['30', { expiresInDays: 30 }],
    [' 2W ', { expiresInDays: 14 }],
    ['1y', { expiresInDays: 365 }],
    ['12h', { expiresAt: '2030-06-02T00:00:00.000Z' }],
    ['1h', { expiresAt: '2030-06-01T13:00:00.000Z' }],
  ])('%j → %j', (text, expiry) => {
    expect(parseExpiresIn(text, NOW)).toEqual(expiry);
  });

  it.each(['', '0d', '-1d', '1.5d', '30m', '1h30m', 'soon', 'd'])(
    '%j is refused, saying what is taken',
    (text) => {
      expect(() => parseExpiresIn(text, NOW)).toThrow(/expected a span ahead such as 30d, 12w, 1y or 12h/);
    },
  );
});

describe('parseExpiresAt (--expires-at)', () => {
  it('takes ISO-8601 instants, a local time without offset and a bare date', () => {
    expect(parseExpiresAt('2030-06-30T00:00:00Z')).toBe('2030-06-30T00:00:00.000Z');
    expect(parseExpiresAt('2030-06-30T02:00:00+02:00')).toBe('2030-06-30T00:00:00.000Z');
    expect(parseExpiresAt('2030-06-30')).toBe(new Date(2030, 5, 30).toISOString());
    expect(() => parseExpiresAt('30d')).toThrow(
      'expected an ISO-8601 time such as 2030-06-30T00:00:00Z; got "30d"',
    );
  });
});
