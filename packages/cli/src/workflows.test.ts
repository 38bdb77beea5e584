import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const RUN = 'wr-m5x8k2a1-3f9c1d2e6b8a';
const T0 = '2030-06-01T11:59:00.000Z';
const T1 = '2030-06-01T11:59:04.200Z';

const node = (key: string, status: string, extra: Record<string, unknown> = {}) => ({
  key,
  jobId: 7,
  status,
  attempt: status === 'PENDING' ? 0 : 1,
  upstream: [],
  result: null,
  resultJson: null,
  reason: null,
  logIds: [],
  firedAt: null,
  finishedAt: null,
  ...extra,
});

const run = (status: string, nodes: unknown[], extra: Record<string, unknown> = {}) => ({
  id: RUN,
  workflowId: 3,
  version: 1,
  workflowName: 'ETL',
  appName: 'my-app',
  status,
  input: {},
  trigger: { type: 'MANUAL', starterLogId: null, by: 'ana' },
  createdAt: T0,
  startedAt: T0,
  finishedAt: null,
  failedNodes: [],
  nodes,
  ...extra,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-cli-wf-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('workflows trigger --wait', () => {
  it('prints the run id, notes each node as it changes, and exits 1 when the run FAILED', async () => {
    const polls = [
      run('RUNNING', [
        node('a', 'SUCCEEDED', { result: 'ok', logIds: [11] }),
        node('b', 'RUNNING', { logIds: [12] }),
      ]),
      run(
        'FAILED',
        [node('a', 'SUCCEEDED', { result: 'ok', logIds: [11] }), node('b', 'FAILED', { result: 'boom' })],
        {
          finishedAt: T1,
          failedNodes: ['b'],
        },
      ),
    ];
    const server = fakeServer({
      'POST /v1/workflows/3/trigger': {
        status: 202,
        body: run('RUNNING', [node('a', 'RUNNING'), node('b', 'PENDING')]),
      },
      [`GET /v1/workflow-runs/${RUN}`]: () => ({ status: 200, body: polls.shift() ?? polls[0] }),
    });
    const io = fakeIo({ env: ENV, fetch: server.fetch });
    expect(await main(['workflows', 'trigger', '3', '--input', '{"day": 1}', '--wait'], io)).toBe(1);
    expect(server.seen[0]?.body).toEqual({ input: { day: 1 } });
    expect(io.stdout.text).toBe(`${RUN}\n`);
    expect(io.stderr.text.split('\n').slice(1, -1)).toEqual([
      '12:00:00  a  RUNNING',
      '12:00:00  a  SUCCEEDED (run 11): ok',
      '12:00:00  b  RUNNING (run 12)',
      '12:00:00  b  FAILED: boom',
      `Run ${RUN} FAILED in 4.2 s: failed nodes b`,
    ]);
  });

  it('Ctrl-C stops waiting (exit 130); the run goes on', async () => {
    const running = run('RUNNING', [node('a', 'RUNNING')]);
    const interrupt = { press: () => {} };
    const server = fakeServer({
      'POST /v1/workflows/3/trigger': { status: 202, body: running },
      [`GET /v1/workflow-runs/${RUN}`]: () => {
        setTimeout(() => interrupt.press(), 10);
        return { status: 200, body: running };
      },
    });
    const io = fakeIo({ env: ENV, fetch: server.fetch });
    interrupt.press = () => io.interrupt();
    expect(await main(['workflows', 'trigger', '3', '--wait'], io)).toBe(130);
    expect(io.stdout.text).toBe(`${RUN}\n`);
    expect(io.stderr.text).toContain(
      `Stopped waiting for run ${RUN}; it goes on (tickring wf-runs cancel ${RUN}`,
    );
  });
});

describe('workflows input and files', () => {
  it('refuses --input with --input-file, and input that is not JSON (exit 2, nothing sent)', async () => {
    const server = fakeServer({});
    for (const argv of [
      ['workflows', 'trigger', '3', '--input', '{}', '--input-file', 'x.json'],
      ['workflows', 'trigger', '3', '--input', '{day: 1}'],
      ['wf-runs', 'get', 'run-1'],
    ]) {
      const io = fakeIo({ env: ENV, fetch: server.fetch });
      expect(await main(argv, io), argv.join(' ')).toBe(2);
      expect(io.stderr.text).toMatch(/^error: /);
    }
    expect(server.seen).toEqual([]);
  });

  it('update sends the file as it is, its version included', async () => {
    const file = join(dir, 'wf.json');
    const body = { id: 3, version: 4, name: 'ETL', appName: 'my-app', nodes: [{ key: 'a', jobId: 7 }] };
    await writeFile(file, JSON.stringify(body));
    const server = fakeServer({
      'PUT /v1/workflows/3': { status: 409, body: { error: 'ConflictError', message: 'version 4 is not 5' } },
    });
    const io = fakeIo({ env: ENV, fetch: server.fetch });
    expect(await main(['workflows', 'update', '3', '--file', file], io)).toBe(1);
    expect(server.seen[0]?.body).toEqual(body);
    expect(io.stderr.text).toBe('ConflictError: version 4 is not 5\n');
  });

  it('--deadline sets or clears the file’s deadline, and get shows it with where it stands', async () => {
    const file = join(dir, 'wf.json');
    const body = { name: 'ETL', appName: 'my-app', nodes: [{ key: 'a', jobId: 7 }] };
    await writeFile(file, JSON.stringify({ ...body, deadline: { time: '05:00', timeZone: 'UTC' } }));
    const deadline = { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' };
    const shown = {
      id: 3,
      version: 1,
      ...body,
      nodes: [{ key: 'a', jobId: 7, upstream: [] }],
      scheduleType: 'NONE',
      scheduleConf: '',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      startAt: null,
      endAt: null,
      maxRuns: null,
      jitterSeconds: 0,
      calendars: { only: [], exclude: [] },
      overlapPolicy: 'SKIP',
      deadline,
      triggerStatus: 'STOPPED',
      starterJobId: null,
      triggerNextTime: null,
      runsRemaining: null,
      scheduleEnded: null,
      deadlineStatus: {
        window: { from: '2030-06-03T04:00:00.000Z', to: '2030-06-04T04:00:00.000Z' },
        state: 'missed',
        at: '2030-06-04T04:00:00.000Z',
      },
      activeRuns: 0,
      bufferedRunId: null,
      createdAt: T0,
      updatedAt: T0,
    };
    const server = fakeServer({
      'POST /v1/workflows': { status: 201, body: shown },
      'PUT /v1/workflows/3': { status: 200, body: { ...shown, deadline: null, deadlineStatus: null } },
    });
    const io = fakeIo({ env: ENV, fetch: server.fetch });
    expect(
      await main(['workflows', 'create', '-f', file, '--deadline', '06:00 Europe/Berlin weekdays'], io),
    ).toBe(0);
    expect(server.seen[0]?.body).toEqual({ ...body, deadline });
    expect(io.stdout.text).toMatch(/deadline: +06:00 Europe\/Berlin \(weekdays\) — missed/);
    const again = fakeIo({ env: ENV, fetch: server.fetch });
    expect(await main(['workflows', 'edit', '3', '-f', file, '--deadline', 'none'], again)).toBe(0);
    expect(server.seen[1]?.body).toEqual({ ...body, deadline: null });
    expect(again.stdout.text).not.toMatch(/deadline:/);
  });
});
