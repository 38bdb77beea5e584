import type { Backfill } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { backfillProgress, backfillRequest, backfillStateText } from './backfill-form';

describe('backfillRequest', () => {
  it('sends the range as instants, the parallelism, and a rate only when typed', () => {
    const made = backfillRequest({
      from: '2030-01-01T00:00',
      to: '2030-01-02T00:00',
      parallelism: '2',
      ratePerMinute: '',
    });
    expect(made).toEqual({
      body: {
        from: new Date('2030-01-01T00:00').toISOString(),
        to: new Date('2030-01-02T00:00').toISOString(),
        parallelism: 2,
      },
    });
    const rated = backfillRequest({
      from: '2030-01-01T00:00',
      to: '2030-01-02T00:00',
      parallelism: '1',
      ratePerMinute: '30',
    });
    expect('body' in rated && rated.body.ratePerMinute).toBe(30);
  });

  it('names every problem at once: no start, an end before it, numbers out of range', () => {
    const made = backfillRequest({
      from: '',
      to: '2030-01-01T00:00',
      parallelism: '0',
      ratePerMinute: '6001',
    });
    expect('error' in made && made.error.problems.map((p) => p.field)).toEqual([
      'from',
      'parallelism',
      'ratePerMinute',
    ]);
    const backwards = backfillRequest({
      from: '2030-01-02T00:00',
      to: '2030-01-01T00:00',
      parallelism: '1',
      ratePerMinute: '',
    });
    expect('error' in backwards && backwards.error.problems).toEqual([
      { field: 'to', message: 'The end must be after the start.' },
    ]);
  });
});

const running: Backfill = {
  id: 'bf-7-a',
  jobId: 7,
  workflowId: null,
  appName: 'orders',
  from: '2030-01-01T00:00:00.000Z',
  to: '2030-01-02T00:00:00.000Z',
  parallelism: 2,
  ratePerMinute: null,
  scheduleType: 'CRON',
  scheduleConf: '0 0 * * * ?',
  timeZone: 'UTC',
  state: 'RUNNING',
  total: 24,
  dispatched: 10,
  succeeded: 7,
  failed: 1,
  running: 2,
  runningFires: [],
  failures: ['2030-01-01T03:00:00.000Z'],
  nextFireTime: '2030-01-01T10:00:00.000Z',
  createdAt: '2030-01-03T10:00:00.000Z',
  createdBy: 'ana',
  cancelledAt: null,
  cancelledBy: null,
  stopReason: null,
  endedAt: null,
};

describe('backfillProgress', () => {
  it('counts finished fires of the total, with the failed and running ones', () => {
    expect(backfillProgress(running)).toEqual({
      done: 8,
      share: 8 / 24,
      text: '8 of 24 done, 1 failed, 2 running',
    });
    expect(backfillProgress({ ...running, total: 0, succeeded: 0, failed: 0, running: 0 }).share).toBe(1);
  });
});

describe('backfillStateText', () => {
  it('says who cancelled it, or why the system stopped it', () => {
    expect(backfillStateText(running)).toBe('running');
    expect(backfillStateText({ ...running, state: 'COMPLETED', failed: 0 })).toBe('completed');
    expect(backfillStateText({ ...running, state: 'COMPLETED' })).toBe('completed with failures');
    expect(backfillStateText({ ...running, state: 'CANCELLED', cancelledBy: 'bo' })).toBe('cancelled by bo');
    expect(backfillStateText({ ...running, state: 'CANCELLED', stopReason: 'job deleted' })).toBe(
      'stopped: job deleted',
    );
  });
});
