import { describe, expect, it } from 'vitest';
import { parseJobSpec } from './job-validation.js';
import {
  BYTES_PER_RUN_RECORD,
  estimateRetention,
  firesPerDay,
  keepsSuccess,
  logRetentionProblems,
  runExpiresAt,
  runRetentionOf,
  sampledOutExpiresAt,
} from './log-retention.js';

const DAY_S = 86_400;
const T = Date.UTC(2030, 0, 10, 12);
const base = { appName: 'app', name: 'job', author: 'ops', executorHandler: 'h' };

describe('log retention per job', () => {
  it('records on a run only what differs from the deployment default', () => {
    expect(runRetentionOf({})).toBeUndefined();
    expect(runRetentionOf({ keepSuccessfulRuns: 1 })).toBeUndefined();
    expect(runRetentionOf({ logRetentionDays: 90 })).toEqual({ days: 90 });
    expect(runRetentionOf({ keepSuccessfulRuns: 0.1 })).toEqual({ successSample: 0.1 });
  });

  it('keeps about the asked share of successes, the same runs every time', () => {
    const logIds = Array.from({ length: 10_000 }, (_, i) => 7 * 2 ** 32 + i);
    const kept = logIds.filter((id) => keepsSuccess(id, 0.1));
    expect(kept.length / logIds.length).toBeGreaterThan(0.08);
    expect(kept.length / logIds.length).toBeLessThan(0.12);
    expect(logIds.filter((id) => keepsSuccess(id, 0.1))).toEqual(kept);
    expect(logIds.every((id) => keepsSuccess(id, undefined))).toBe(true);
  });

  it('expires a run its retention after its trigger; a sampled-out success a day after it', () => {
    const run = { logId: 1, triggerTime: T, retention: { days: 7, successSample: 0.5 } };
    expect(runExpiresAt(run, 30)).toBe(T / 1000 + 7 * DAY_S);
    expect(runExpiresAt({ triggerTime: T }, 30)).toBe(T / 1000 + 30 * DAY_S);
    const logIds = Array.from({ length: 20 }, (_, i) => 2 ** 32 + i);
    const out = logIds.find((logId) => !keepsSuccess(logId, 0.5)) ?? 0;
    const kept = logIds.find((logId) => keepsSuccess(logId, 0.5)) ?? 0;
    expect(sampledOutExpiresAt({ ...run, logId: out }, 30)).toBe(T / 1000 + DAY_S);
    expect(sampledOutExpiresAt({ ...run, logId: kept }, 30)).toBeUndefined();
    // A day's retention is not shortened, nor lengthened.
    expect(sampledOutExpiresAt({ ...run, logId: out, retention: { days: 1, successSample: 0.5 } }, 30)).toBe(
      undefined,
    );
  });

  it('names every problem of the two fields at once', () => {
    expect(logRetentionProblems({ logRetentionDays: 0, keepSuccessfulRuns: 0 }).map((p) => p.field)).toEqual([
      'logRetentionDays',
      'keepSuccessfulRuns',
    ]);
    expect(logRetentionProblems({ logRetentionDays: 3651, keepSuccessfulRuns: 1.5 })).toHaveLength(2);
    expect(logRetentionProblems({ logRetentionDays: 2.5 })[0]?.message).toMatch(
      /whole number of days from 1 to 3650/,
    );
    expect(logRetentionProblems({ logRetentionDays: 3650, keepSuccessfulRuns: 1 })).toEqual([]);
    expect(logRetentionProblems({ logRetentionDays: null, keepSuccessfulRuns: null })).toEqual([]);
    try {
      parseJobSpec({ ...base, logRetentionDays: 0, keepSuccessfulRuns: -1 });
      expect.unreachable();
    } catch (err) {
      expect((err as { problems: { field: string }[] }).problems.map((p) => p.field)).toEqual([
        'logRetentionDays',
        'keepSuccessfulRuns',
      ]);
    }
  });

  it('keeps the fields on a job, and clears them with null', () => {
    const spec = parseJobSpec({ ...base, logRetentionDays: 90, keepSuccessfulRuns: 0.25 });
    expect(spec).toMatchObject({ logRetentionDays: 90, keepSuccessfulRuns: 0.25 });
    const cleared = parseJobSpec({ logRetentionDays: null, keepSuccessfulRuns: null }, { base: spec });
    expect(cleared).not.toHaveProperty('logRetentionDays');
    expect(cleared).not.toHaveProperty('keepSuccessfulRuns');
  });

  it('counts the fires of the day ahead: cron, a rate scaled from its first fires, never for NONE, once for ONCE', () => {
    expect(firesPerDay({ type: 'CRON', conf: '0 */5 * * * ?', timeZone: 'UTC' }, T)).toBe(288);
    expect(firesPerDay({ type: 'FIX_RATE', conf: '1', timeZone: 'UTC' }, T)).toBe(86_400);
    expect(firesPerDay({ type: 'NONE', conf: '', timeZone: 'UTC' }, T)).toBe(0);
    expect(
      firesPerDay({ type: 'ONCE', conf: new Date(T + 3_600_000).toISOString(), timeZone: 'UTC' }, T),
    ).toBe(1);
  });

  it('estimates the history kept: fires × days, sampled-out successes a day, priced per GB-month', () => {
    const all = estimateRetention({ logRetentionDays: 30 }, 288, 30);
    expect(all).toMatchObject({ days: 30, successSample: 1, estimatedRecords: 8640 });
    expect(all.estimatedBytes).toBe(8640 * BYTES_PER_RUN_RECORD);
    const usd = ((8640 * BYTES_PER_RUN_RECORD) / 1024 ** 3) * 0.25;
    expect(all.estimatedMonthlyCostUsd).toBe(Number(usd.toPrecision(4)));
    // 10 % kept 30 days, 90 % one day: 288 × (3 + 0.9).
    expect(estimateRetention({ keepSuccessfulRuns: 0.1 }, 288, 30).estimatedRecords).toBe(1123);
    expect(estimateRetention({}, 0, 30).estimatedRecords).toBe(0);
  });
});
