import { describe, expect, it } from 'vitest';
import { alertChannelsText, bytesText, retentionFigures, retentionText } from './alerts-retention';

describe('alertChannelsText', () => {
  const known = [
    { id: 'ch-ops', name: 'ops webhook' },
    { id: 'ch-chat', name: 'chat' },
  ];

  it('says group default for absent or null, none for [], and the channels by name', () => {
    expect(alertChannelsText(undefined, known)).toBe('group default');
    expect(alertChannelsText(null, known)).toBe('group default');
    expect(alertChannelsText([], known)).toBe('none');
    expect(alertChannelsText(['ch-chat', 'ch-ops'], known)).toBe('chat, ops webhook');
  });

  it("names the group's default channels once the group is read", () => {
    expect(alertChannelsText(null, known, ['ch-ops'])).toBe('group default: ops webhook');
    expect(alertChannelsText(undefined, undefined, ['ch-ops'])).toBe('group default: ch-ops');
    expect(alertChannelsText(null, known, [])).toBe('group default: none');
    // A job's own list stands, whatever its group's.
    expect(alertChannelsText([], known, ['ch-ops'])).toBe('none');
  });

  it('names a channel by its id when it is gone or the list was not read', () => {
    expect(alertChannelsText(['ch-ops', 'ch-gone'], known)).toBe('ops webhook, ch-gone');
    expect(alertChannelsText(['ch-ops'], undefined)).toBe('ch-ops');
  });
});

describe('retentionText', () => {
  it('says the install’s default and every success when neither is set', () => {
    expect(retentionText({ logRetentionDays: null, keepSuccessfulRuns: null })).toBe(
      'the install’s default; every success kept',
    );
  });

  it('says the days and the share of successes kept', () => {
    expect(retentionText({ logRetentionDays: 90, keepSuccessfulRuns: 0.1 })).toBe(
      '90 days; 10 % of successes kept (the others 1 day)',
    );
    expect(retentionText({ logRetentionDays: 1, keepSuccessfulRuns: 1 })).toBe('1 day; every success kept');
  });
});

describe('retentionFigures', () => {
  // As the API works it out: 4,380 records × 1,150 bytes at 0.25 USD per GB-month, four significant digits.
  const bytes = 4380 * 1150;
  const cost = Number(((bytes / 1024 ** 3) * 0.25).toPrecision(4));

  it('gives the records, the size, the monthly cost and the price per GB-month it assumes', () => {
    expect(
      retentionFigures({
        days: 30,
        successSample: 1,
        estimatedRecords: 4380,
        estimatedBytes: bytes,
        estimatedMonthlyCostUsd: cost,
      }),
    ).toEqual({
      records: '4,380 run records',
      size: '4.8 MB',
      monthlyCost: '0.001173 USD a month',
      pricePerGbMonth: '0.25 USD per GB-month',
    });
  });

  it('works the price out of a single record too, and gives none when nothing is kept', () => {
    const one = Number(((1150 / 1024 ** 3) * 0.25).toPrecision(4));
    expect(
      retentionFigures({
        days: 1,
        successSample: 1,
        estimatedRecords: 1,
        estimatedBytes: 1150,
        estimatedMonthlyCostUsd: one,
      }),
    ).toMatchObject({ records: '1 run record', pricePerGbMonth: '0.25 USD per GB-month' });
    expect(
      retentionFigures({
        days: 30,
        successSample: 1,
        estimatedRecords: 0,
        estimatedBytes: 0,
        estimatedMonthlyCostUsd: 0,
      }).pricePerGbMonth,
    ).toBeUndefined();
  });
});

describe('bytesText', () => {
  it('counts in powers of 1024 with one decimal below 10', () => {
    expect(bytesText(850)).toBe('850 bytes');
    expect(bytesText(1150 * 1024)).toBe('1.1 MB');
    expect(bytesText(50 * 1024 ** 3)).toBe('50 GB');
  });
});
