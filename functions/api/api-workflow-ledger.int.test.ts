import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedLocalStack, startLocal } from '../../local/start-local.js';
import { adminApiCaller } from '../../test/api-call.js';
import { waitFor } from '../../test/stand-ins.js';

/**
 * A workflow's fire ledger and deadline through the admin API on the embedded engine (its tick and
 * dispatcher running): a workflow every second, stopped after a few runs, accounts for every fire
 * with the run it started. Every answer is checked against the OpenAPI document.
 */

let stack: EmbeddedLocalStack;
const suffix = randomUUID().slice(0, 8);
const APP = `wf-ledger-${suffix}`;
let nodeJob: number;

const call = adminApiCaller(() => stack);

// biome-ignore lint/suspicious/noExplicitAny: bodies are read field by field
async function ok(method: string, path: string, body: unknown, status: number): Promise<any> {
  const reply = await call(method, path, body);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(status);
  return reply.body;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ledgerPath = (id: number, from: number, to: number) =>
  `/v1/workflows/${id}/ledger?from=${iso(from)}&to=${iso(to)}`;

/** A workflow of the group whose one node fails at once (its parameter cannot be rendered: no executor needed). */
const definition = (fields: Record<string, unknown> = {}) => ({
  name: `ledger ${suffix}`,
  appName: APP,
  nodes: [{ key: 'only', jobId: nodeJob, executorParam: '{{ input.missing }}' }],
  ...fields,
});

beforeAll(async () => {
  stack = await startLocal({ store: 'sqlite', port: 0, inMemory: true, logLevel: 'silent', demo: false });
  await ok('POST', '/v1/groups', { appName: APP, title: 'ledger', addressType: 'AUTO' }, 201);
  nodeJob = (
    await ok('POST', '/v1/jobs', { appName: APP, name: 'node', author: 'test', executorHandler: 'noop' }, 201)
  ).id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('GET /v1/workflows/{id}/ledger', () => {
  it('matches every fire of a workflow every second to the run it started, through a stop', async () => {
    const workflow = await ok(
      'POST',
      '/v1/workflows',
      definition({ scheduleType: 'CRON', scheduleConf: '* * * * * ?', triggerStatus: 'RUNNING' }),
      201,
    );
    const from = Date.parse(workflow.createdAt);
    const scheduledRuns = async () =>
      (await ok('GET', `/v1/workflow-runs?workflowId=${workflow.id}&limit=100`, undefined, 200)).items.filter(
        (r: { trigger: { type: string } }) => r.trigger.type === 'SCHEDULE',
      );
    await waitFor(async () => ((await scheduledRuns()).length >= 3 ? true : undefined), {
      what: `3 scheduled runs of workflow ${workflow.id}`,
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    await ok('POST', `/v1/workflows/${workflow.id}/stop`, undefined, 200);
    const to = Date.now();
    // Every fire claimed before the stop has started its run (and the run has ended) by then.
    await waitFor(
      async () =>
        (await scheduledRuns()).every((r: { status: string }) => r.status === 'FAILED') ? true : undefined,
      { what: 'the runs ended', timeoutMs: 10_000, intervalMs: 200 },
    );

    const ledger = await ok('GET', ledgerPath(workflow.id, from, to), undefined, 200);
    expect(ledger).toMatchObject({
      workflowId: workflow.id,
      starterJobId: workflow.starterJobId,
      history: 'audit',
    });
    expect(ledger.summary.unexplained, JSON.stringify(ledger.entries)).toBe(0);
    expect(ledger.summary.notYetDue, JSON.stringify(ledger.entries)).toBe(0);
    const ran = ledger.entries.filter((e: { outcome: string }) => e.outcome === 'ran');
    for (const entry of ran) {
      expect(entry.runId).toBe(`wr-s${entry.logId}`);
      expect(entry).toMatchObject({ runStatus: 'FAILED', status: 'fail' });
    }
    // Each fire of the window its schedule job ran is in the ledger with the run it started, and nothing else is.
    const fires = (
      await ok(
        'GET',
        `/v1/logs?jobId=${workflow.starterJobId}&limit=100&from=${iso(from - 60_000)}`,
        undefined,
        200,
      )
    ).items.filter(
      (r: { scheduledTime: string; status: string }) =>
        Date.parse(r.scheduledTime) >= from && Date.parse(r.scheduledTime) < to && r.status !== 'skipped',
    );
    expect(fires.length).toBeGreaterThanOrEqual(3);
    const started = new Set((await scheduledRuns()).map((r: { id: string }) => r.id));
    const expected = fires.map((r: { logId: number }) => `wr-s${r.logId}`).sort();
    expect(expected.filter((id: string) => !started.has(id))).toEqual([]);
    expect(ran.map((e: { runId: string }) => e.runId).sort()).toEqual(expected);
    expect(ledger.workflowRunsRead).toBeGreaterThanOrEqual(ran.length);
  });

  it('owes nothing without a schedule; 404 for no workflow, 400 naming every problem of the window', async () => {
    const workflow = await ok('POST', '/v1/workflows', definition(), 201);
    const now = Date.now();
    const ledger = await ok('GET', ledgerPath(workflow.id, now - 3_600_000, now), undefined, 200);
    expect(ledger).toMatchObject({ starterJobId: null, entries: [], summary: { ran: 0, unexplained: 0 } });
    expect((await call('GET', ledgerPath(workflow.id + 1000, now - 60_000, now))).status).toBe(404);
    const bad = await call('GET', `/v1/workflows/${workflow.id}/ledger?from=later&to=sooner`);
    expect(bad.status).toBe(400);
    expect(bad.body.problems.map((p: { field: string }) => p.field).sort()).toEqual(['from', 'to']);
  });
});

describe('a workflow’s deadline', () => {
  it('is stored and shown with where the workflow stands; a bad one is refused naming each problem', async () => {
    const deadline = { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' };
    const created = await ok('POST', '/v1/workflows', definition({ deadline }), 201);
    const read = await ok('GET', `/v1/workflows/${created.id}`, undefined, 200);
    expect(read.deadline).toEqual(deadline);
    // Set just now: the window it is in began before, so it is pending until its deadline.
    expect(read.deadlineStatus).toMatchObject({ state: 'pending', at: null });
    expect(Date.parse(read.deadlineStatus.window.to)).toBeGreaterThan(Date.now());
    // A workflow read may be sent back as it is; a null deadline clears it.
    const cleared = await ok('PUT', `/v1/workflows/${created.id}`, { ...read, deadline: null }, 200);
    expect(cleared).toMatchObject({ deadline: null, deadlineStatus: null });

    const refused = await call(
      'POST',
      '/v1/workflows',
      definition({ deadline: { time: '24:00', timeZone: 'Nowhere/Land', days: 'sometimes' } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.problems.map((p: { field: string }) => p.field).sort()).toEqual([
      'deadline.days',
      'deadline.time',
      'deadline.timeZone',
    ]);
  });
});
