import { describe, expect, it } from 'vitest';
import { emptyRunsMessage, parseJobId, runListQuery } from './filters';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');

describe('runListQuery', () => {
  it('reads the URL filters into a listRuns query', () => {
    expect(runListQuery({ status: 'fail', appName: 'billing', jobId: '7', range: 'all' }, NOW)).toEqual({
      status: 'fail',
      appName: 'billing',
      jobId: 7,
    });
  });

  it('reads the last 24 hours when the URL names no time, and any time only when asked', () => {
    expect(runListQuery({}, NOW)).toEqual({ from: '2029-12-31T12:00:00.000Z' });
    expect(runListQuery({ jobId: '7' }, NOW)).toEqual({ jobId: 7, from: '2029-12-31T12:00:00.000Z' });
    expect(runListQuery({ range: 'all' }, NOW)).toEqual({});
    expect(runListQuery({ to: '2030-01-01T09:00:00.000Z' }, NOW)).toEqual({ to: '2030-01-01T09:00:00.000Z' });
  });

  it('counts a quick range back from now, ignoring from/to', () => {
    expect(runListQuery({ range: '1h', from: '2020-01-01T00:00:00Z' }, NOW)).toEqual({
      from: '2030-01-01T11:00:00.000Z',
    });
    expect(runListQuery({ range: '7d' }, NOW).from).toBe('2029-12-25T12:00:00.000Z');
  });

  it('passes a custom from/to as ISO instants', () => {
    expect(runListQuery({ from: '2030-01-01T10:00:00+02:00', to: '2030-01-01T09:00:00.000Z' }, NOW)).toEqual({
      from: '2030-01-01T08:00:00.000Z',
      to: '2030-01-01T09:00:00.000Z',
    });
  });

  it('leaves out what does not parse', () => {
    expect(runListQuery({ status: 'done', jobId: 'abc', from: 'yesterday', range: '2h' }, NOW)).toEqual({});
  });
});

describe('parseJobId', () => {
  it('takes positive whole numbers only', () => {
    expect(parseJobId(' 12 ')).toBe(12);
    expect(parseJobId('0')).toBeUndefined();
    expect(parseJobId('-3')).toBeUndefined();
    expect(parseJobId('1.5')).toBeUndefined();
    expect(parseJobId(undefined)).toBeUndefined();
  });
});

describe('emptyRunsMessage', () => {
  it('says how to see skipped runs', () => {
    expect(emptyRunsMessage({ status: 'skipped' }).title).toBe('Skipped runs are listed per job');
  });

  it('says what a new deployment should do', () => {
    expect(emptyRunsMessage({}).title).toBe('No runs in the last 24 hours');
    expect(emptyRunsMessage({}).hint).toContain('Any time');
    expect(emptyRunsMessage({ range: 'all' }).title).toBe('No runs yet');
  });

  it('names the filters that matched nothing', () => {
    expect(emptyRunsMessage({ status: 'fail', jobId: '3', range: '24h' }).title).toBe(
      'No failed runs of job 3 in the last 24 hours',
    );
    expect(emptyRunsMessage({ appName: 'billing', from: '2030-01-01T00:00:00Z' }).title).toBe(
      'No runs in group billing in this time range',
    );
    expect(emptyRunsMessage({ status: 'running' }).title).toBe('No runs running in the last 24 hours');
    expect(emptyRunsMessage({ status: 'running', range: 'all' }).title).toBe('No runs running');
  });
});
