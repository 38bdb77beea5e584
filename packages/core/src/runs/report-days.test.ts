import { describe, expect, it } from 'vitest';
import { daysBetween, MAX_REPORT_RANGE_DAYS } from './report-days.js';

describe('daysBetween', () => {
  it('lists every UTC day of the range, both ends included, across a month end', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysBetween('2024-01-01', '2024-01-01')).toEqual(['2024-01-01']);
  });

  it('refuses a reversed range, a day that does not exist and a range over the most days asked', () => {
    expect(() => daysBetween('2024-01-02', '2024-01-01')).toThrow('is after');
    expect(() => daysBetween('2023-02-29', '2023-03-01')).toThrow('fromDay must be a day');
    expect(() => daysBetween('2020-01-01', '2024-01-01', MAX_REPORT_RANGE_DAYS)).toThrow('at most 400 days');
    expect(daysBetween('2020-01-01', '2024-01-01')).toHaveLength(1462);
  });
});
