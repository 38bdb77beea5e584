import { describe, expect, it } from 'vitest';
import { firesOf, rangeClockText, rangeCountText, skippedRange } from './skipped-range';

const skipped = {
  status: 'skipped' as const,
  scheduledTime: '2030-06-01T11:58:00.000Z',
  skippedCount: 12,
  skippedUntil: '2030-06-01T11:58:11.000Z',
};

describe('skippedRange', () => {
  it('is the count and the first and last due times of a skipped run standing for several fires', () => {
    const range = skippedRange(skipped);
    expect(range).toEqual({ count: 12, first: '2030-06-01T11:58:00.000Z', last: '2030-06-01T11:58:11.000Z' });
    expect(firesOf(skipped)).toBe(12);
    expect(rangeCountText(range!)).toBe('×12');
  });

  it('is none for a skipped run of one fire, one without the fields (an older server) and a run not skipped', () => {
    expect(
      skippedRange({ ...skipped, skippedCount: 1, skippedUntil: skipped.scheduledTime }),
    ).toBeUndefined();
    expect(skippedRange({ ...skipped, skippedCount: null, skippedUntil: null })).toBeUndefined();
    expect(
      skippedRange({ ...skipped, status: 'success', skippedCount: null, skippedUntil: null }),
    ).toBeUndefined();
    expect(firesOf({ ...skipped, status: 'success', skippedCount: null, skippedUntil: null })).toBe(1);
  });
});

describe('rangeClockText', () => {
  it('gives the clock times within one day of the viewer’s zone', () => {
    expect(rangeClockText(skippedRange(skipped)!, 'UTC')).toBe('11:58:00 – 11:58:11');
    expect(rangeClockText(skippedRange(skipped)!, 'Asia/Kolkata')).toBe('17:28:00 – 17:28:11');
  });

  it('gives the dates too when the range crosses midnight there', () => {
    const overnight = skippedRange({
      ...skipped,
      scheduledTime: '2030-05-31T23:59:50.000Z',
      skippedUntil: '2030-06-01T00:00:19.000Z',
    })!;
    expect(rangeClockText(overnight, 'UTC')).toBe('2030-05-31 23:59:50 – 2030-06-01 00:00:19');
    expect(rangeClockText(overnight, 'Europe/Berlin')).toBe('01:59:50 – 02:00:19');
  });
});
