import { describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const none = {
  until: null,
  logId: null,
  status: null,
  rule: null,
  fireAt: null,
  calendar: null,
  exception: null,
  stoppedBy: null,
};
const summary = (fields: Record<string, number>) => ({
  ran: 0,
  skipped: 0,
  calendar: 0,
  exception: 0,
  paused: 0,
  notYetDue: 0,
  unexplained: 0,
  skippedBy: { misfire: 0, overload: 0, overlap: 0, block: 0 },
  ...fields,
});
const ledger = (entries: unknown[], counts: Record<string, number>) => ({
  jobId: 7,
  from: '2030-01-02T09:00:00.000Z',
  to: '2030-01-02T09:05:00.000Z',
  summary: summary(counts),
  entries,
  definitionChangedInWindow: false,
  history: 'audit',
  calendars: [],
  calendarsChangedInWindow: [],
  runsRead: 2,
});

describe('tickring jobs ledger', () => {
  it('shows each fire with its fate and the counts, asking for the window given', async () => {
    const body = ledger(
      [
        {
          ...none,
          scheduledTime: '2030-01-02T09:00:00.000Z',
          count: 1,
          outcome: 'ran',
          logId: 11,
          status: 'success',
        },
        {
          ...none,
          scheduledTime: '2030-01-02T09:01:00.000Z',
          until: '2030-01-02T09:03:00.000Z',
          count: 3,
          outcome: 'paused',
          stoppedBy: 'job.pausedByPolicy',
        },
      ],
      { ran: 1, paused: 3 },
    );
    const fake = fakeServer({ 'GET /v1/jobs/7/ledger': { status: 200, body } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(
        ['jobs', 'ledger', '7', '--from', '2030-01-02T09:00:00Z', '--to', '2030-01-02T09:05:00Z'],
        io,
      ),
    ).toBe(0);
    expect(fake.seen[0]?.query).toEqual({ from: '2030-01-02T09:00:00.000Z', to: '2030-01-02T09:05:00.000Z' });
    expect(io.stdout.text).toMatch(/09:00:00.000Z +1 +ran success +log 11/);
    expect(io.stdout.text).toMatch(/2030-01-02T09:03:00.000Z +3 +paused +job.pausedByPolicy/);
    expect(io.stderr.text).toContain('ran 1, paused 3');
  });

  it('exits 1 when a fire is unexplained, and prints the ledger as is with --json', async () => {
    const body = ledger(
      [{ ...none, scheduledTime: '2030-01-02T09:00:00.000Z', count: 1, outcome: 'unexplained' }],
      {
        unexplained: 1,
      },
    );
    const fake = fakeServer({ 'GET /v1/jobs/7/ledger': { status: 200, body } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'ledger', '7', '--from', '5m', '--json'], io)).toBe(1);
    expect(JSON.parse(io.stdout.text)).toEqual(body);
  });
});

describe('tickring workflows ledger', () => {
  it('shows each fire with the run it started (or why none), and exits 1 when one is unexplained', async () => {
    const workflowNone = { ...none, runId: null, runStatus: null };
    const { jobId: _job, ...rest } = ledger(
      [
        {
          ...workflowNone,
          scheduledTime: '2030-01-02T09:00:00.000Z',
          count: 1,
          outcome: 'ran',
          logId: 11,
          status: 'success',
          runId: 'wr-s11',
          runStatus: 'SUCCEEDED',
        },
        {
          ...workflowNone,
          scheduledTime: '2030-01-02T09:01:00.000Z',
          count: 1,
          outcome: 'skipped',
          logId: 12,
          rule: 'overlap',
        },
        {
          ...workflowNone,
          scheduledTime: '2030-01-02T09:02:00.000Z',
          count: 1,
          outcome: 'unexplained',
          logId: 13,
        },
      ],
      { ran: 1, skipped: 1, unexplained: 1 },
    );
    const body = {
      ...rest,
      summary: { ...rest.summary, skippedBy: { ...rest.summary.skippedBy, overlap: 1 } },
      workflowId: 3,
      starterJobId: 12,
      workflowRunsRead: 1,
    };
    const fake = fakeServer({ 'GET /v1/workflows/3/ledger': { status: 200, body } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(
        ['workflows', 'ledger', '3', '--from', '2030-01-02T09:00:00Z', '--to', '2030-01-02T09:05:00Z'],
        io,
      ),
    ).toBe(1);
    expect(fake.seen[0]?.query).toEqual({ from: '2030-01-02T09:00:00.000Z', to: '2030-01-02T09:05:00.000Z' });
    expect(io.stdout.text).toMatch(/09:00:00.000Z +1 +ran success +run wr-s11 SUCCEEDED, log 11/);
    expect(io.stdout.text).toMatch(/09:01:00.000Z +1 +skipped overlap +log 12/);
    expect(io.stdout.text).toMatch(/09:02:00.000Z +1 +unexplained +claimed \(log 13\), no run started/);
    expect(io.stderr.text).toContain('ran 1, skipped 1, unexplained 1 (skipped: overlap 1)');
  });
});
