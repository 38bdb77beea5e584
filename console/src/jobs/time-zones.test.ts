import { describe, expect, it } from 'vitest';
import {
  describeZone,
  fireRows,
  isValidTimeZone,
  offsetChange,
  offsetLabel,
  offsetMinutes,
  timeZoneNames,
  yearOffsets,
} from './time-zones';

describe('offsetMinutes', () => {
  it('reads Europe/Berlin across the last Sunday of March (2030-03-31, 01:00 UTC)', () => {
    expect(offsetMinutes('2030-03-31T00:59:59Z', 'Europe/Berlin')).toBe(60);
    expect(offsetMinutes('2030-03-31T01:00:00Z', 'Europe/Berlin')).toBe(120);
  });

  it('reads Europe/Berlin across the last Sunday of October (2030-10-27, 01:00 UTC)', () => {
    expect(offsetMinutes('2030-10-27T00:59:59Z', 'Europe/Berlin')).toBe(120);
    expect(offsetMinutes('2030-10-27T01:00:00Z', 'Europe/Berlin')).toBe(60);
  });

  it('reads America/New_York (second Sunday of March, first of November)', () => {
    expect(offsetMinutes('2030-03-10T06:59:59Z', 'America/New_York')).toBe(-300);
    expect(offsetMinutes('2030-03-10T07:00:00Z', 'America/New_York')).toBe(-240);
    expect(offsetMinutes('2030-11-03T05:59:59Z', 'America/New_York')).toBe(-240);
    expect(offsetMinutes('2030-11-03T06:00:00Z', 'America/New_York')).toBe(-300);
  });

  it('reads UTC as 0 all year', () => {
    expect(offsetMinutes('2030-01-15T12:00:00Z', 'UTC')).toBe(0);
    expect(offsetMinutes('2030-07-15T12:00:00Z', 'UTC')).toBe(0);
  });

  it('reads a zone without DST and with half hours (Asia/Kolkata)', () => {
    expect(offsetMinutes('2030-01-15T12:00:00Z', 'Asia/Kolkata')).toBe(330);
    expect(offsetMinutes('2030-07-15T12:00:00Z', 'Asia/Kolkata')).toBe(330);
  });

  it('answers undefined for an invalid zone name or instant', () => {
    expect(offsetMinutes('2030-01-15T12:00:00Z', 'Europe/Bxx')).toBeUndefined();
    expect(offsetMinutes('not a time', 'UTC')).toBeUndefined();
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA names and UTC, not typos or blanks', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Europe/Bxx')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('offsetLabel', () => {
  it('writes offsets as exactTime does', () => {
    expect(offsetLabel(0)).toBe('GMT');
    expect(offsetLabel(60)).toBe('GMT+1');
    expect(offsetLabel(-300)).toBe('GMT-5');
    expect(offsetLabel(330)).toBe('GMT+5:30');
    expect(offsetLabel(-210)).toBe('GMT-3:30');
  });
});

describe('offsetChange', () => {
  it('flags Berlin springing forward and finds the instant', () => {
    const change = offsetChange('2030-03-30T09:00:00Z', '2030-03-31T08:00:00Z', 'Europe/Berlin');
    expect(change).toMatchObject({
      fromMinutes: 60,
      toMinutes: 120,
      text: 'clocks change: GMT+1 → GMT+2',
      direction: 'forward',
    });
    expect(new Date(change!.at).toISOString()).toBe('2030-03-31T01:00:00.000Z');
  });

  it('flags Berlin falling back', () => {
    const change = offsetChange('2030-10-26T09:00:00Z', '2030-10-27T09:00:00Z', 'Europe/Berlin');
    expect(change?.text).toBe('clocks change: GMT+2 → GMT+1');
    expect(change?.direction).toBe('back');
    expect(new Date(change!.at).toISOString()).toBe('2030-10-27T01:00:00.000Z');
  });

  it('flags New York', () => {
    const change = offsetChange('2030-03-09T12:00:00Z', '2030-03-11T12:00:00Z', 'America/New_York');
    expect(change?.text).toBe('clocks change: GMT-5 → GMT-4');
    expect(new Date(change!.at).toISOString()).toBe('2030-03-10T07:00:00.000Z');
  });

  it('says nothing when the offset is the same, in UTC, in a zone without DST, or for an unknown zone', () => {
    expect(offsetChange('2030-05-01T00:00:00Z', '2030-06-01T00:00:00Z', 'Europe/Berlin')).toBeUndefined();
    expect(offsetChange('2030-01-01T00:00:00Z', '2030-12-31T00:00:00Z', 'UTC')).toBeUndefined();
    expect(offsetChange('2030-01-01T00:00:00Z', '2030-12-31T00:00:00Z', 'Asia/Kolkata')).toBeUndefined();
    expect(offsetChange('2030-01-01T00:00:00Z', '2030-12-31T00:00:00Z', 'Nowhere/Atlantis')).toBeUndefined();
  });
});

describe('fireRows', () => {
  // Daily at 10:00 Berlin time around the spring change: 09:00Z before it, 08:00Z after.
  const spring = ['2030-03-29T09:00:00.000Z', '2030-03-30T09:00:00.000Z', '2030-03-31T08:00:00.000Z'];

  it('writes each fire in both zones and flags the first fire after the change', () => {
    const rows = fireRows(spring, 'Europe/Berlin', 'America/New_York');
    expect(rows.map((r) => r.inJobZone)).toEqual([
      '2030-03-29 10:00:00.000 GMT+1',
      '2030-03-30 10:00:00.000 GMT+1',
      '2030-03-31 10:00:00.000 GMT+2',
    ]);
    expect(rows[2]!.inViewerZone).toBe('2030-03-31 04:00:00.000 GMT-4');
    expect(rows.map((r) => r.change?.text)).toEqual([undefined, undefined, 'clocks change: GMT+1 → GMT+2']);
  });

  it('flags the first fire against the instant before it', () => {
    const rows = fireRows(['2030-10-27T09:00:00.000Z'], 'Europe/Berlin', 'UTC', '2030-10-26T12:00:00Z');
    expect(rows[0]!.change?.text).toBe('clocks change: GMT+2 → GMT+1');
    expect(rows[0]!.inJobZone).toBe('2030-10-27 10:00:00.000 GMT+1');
    // ICU writes UTC's short offset as "GMT" or "GMT+0", depending on its version.
    expect(rows[0]!.inViewerZone).toMatch(/^2030-10-27 09:00:00\.000 GMT(\+0)?$/);
  });

  it('flags nothing in UTC or in a zone without DST', () => {
    expect(fireRows(spring, 'UTC', 'UTC').some((r) => r.change)).toBe(false);
    expect(fireRows(spring, 'Asia/Tokyo', 'UTC').some((r) => r.change)).toBe(false);
  });

  it('leaves the job zone column empty for an invalid zone, and still shows the viewer zone', () => {
    const rows = fireRows(spring, 'Europe/Bxx', 'UTC');
    expect(rows.every((r) => r.inJobZone === undefined && r.change === undefined)).toBe(true);
    expect(rows[0]!.inViewerZone).toMatch(/^2030-03-29 09:00:00\.000 GMT(\+0)?$/);
  });
});

describe('zones over a year', () => {
  it('tells zones with DST from zones without', () => {
    expect(yearOffsets('Europe/Berlin', 2030)).toEqual([60, 120]);
    expect(yearOffsets('Asia/Kolkata', 2030)).toEqual([330]);
    expect(yearOffsets('Bad/Zone', 2030)).toBeUndefined();
    expect(describeZone('Europe/Berlin', 2030)).toBe('GMT+1 / GMT+2 (daylight saving)');
    expect(describeZone('America/New_York', 2030)).toBe('GMT-5 / GMT-4 (daylight saving)');
    expect(describeZone('UTC', 2030)).toBe('GMT all year');
    expect(describeZone('Asia/Kolkata', 2030)).toBe('GMT+5:30 all year');
  });

  it('lists the zones with UTC first', () => {
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('Europe/Berlin');
    expect(new Set(names).size).toBe(names.length);
  });
});
