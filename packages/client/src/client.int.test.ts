import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from '../../../test/e2e-stack.js';
import { checkResponse } from '../../../test/openapi-check.js';
import { waitFor } from '../../../test/stand-ins.js';
import {
  createClient,
  type JobCreate,
  type Run,
  type RunPage,
  TickringApiError,
  type TickringClient,
} from './index.js';

/**
 * The client against the real local stack (API, tick, ring, dispatcher, callback, a real SDK executor):
 * every answer it receives is also checked against the OpenAPI document (test/openapi-check.ts).
 */
describe('@tickring/client against the local stack', () => {
  let e: E2eStack;
  let client: TickringClient;
  /** Answers that did not match the document, collected by the checking fetch. */
  const offContract: string[] = [];

  /** fetch, then the answer checked against the document (its body read from a clone). */
  const checkingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const request = input as Request;
    const url = new URL(request.url);
    const text = await response.clone().text();
    try {
      checkResponse(
        request.method,
        url.pathname + url.search,
        response.status,
        text ? JSON.parse(text) : undefined,
      );
    } catch (err) {
      offContract.push((err as Error).message);
    }
    return response;
  };

  beforeAll(async () => {
    e = await startE2eStack('client');
    client = createClient({
      baseUrl: e.stack.urls.api,
      token: e.stack.tokens.adminToken,
      fetch: checkingFetch,
    });
  });

  afterEach(() => {
    expect(offContract.splice(0), 'answers that do not match openapi.json').toEqual([]);
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('creates a group and jobs, reads them back, pages through jobs and runs, deletes a job', async () => {
    const appName = `client-${randomUUID().slice(0, 8)}`;
    const group = await client.createGroup({ body: { appName, title: 'client test', addressType: 'AUTO' } });
    expect(group).toMatchObject({ appName, title: 'client test', addressType: 'AUTO' });
    expect(await client.getGroup({ path: { appName } })).toMatchObject({ appName, title: 'client test' });
    const groups = await client.listGroups();
    expect(groups.items.map((g) => g.appName)).toContain(appName);

    const handled: number[] = [];
    const executor = await e.startExecutor(appName, {
      clientJob: (ctx) => {
        handled.push(ctx.logId);
        return 'done';
      },
    });
    await e.waitForExecutor(appName, executor.address);

    const created = [];
    for (const i of [1, 2, 3]) {
      created.push(
        await client.createJob({
          body: { appName, name: `client job ${i}`, author: 'client', executorHandler: 'clientJob' },
        }),
      );
    }
    const [job] = created;
    if (!job) throw new Error('no job created');
    expect(job).toMatchObject({
      appName,
      name: 'client job 1',
      scheduleType: 'NONE',
      triggerStatus: 'STOPPED',
    });
    // One job's GET adds where it stands against its deadline and what its history costs to keep.
    const { deadlineStatus, retention, ...same } = await client.getJob({ path: { id: job.id } });
    expect(same).toEqual(job);
    expect(deadlineStatus).toBeNull();
    expect(retention?.days).toBe(30);

    // Jobs of the group, one per page: three pages (and maybe an empty last one), every job once.
    const jobPages = [];
    for await (const page of client.pages('listJobs', { query: { appName, limit: 1 } })) jobPages.push(page);
    expect(jobPages.length).toBeGreaterThanOrEqual(3);
    expect(jobPages.every((p) => p.items.length <= 1)).toBe(true);
    expect(jobPages.at(-1)?.nextCursor).toBeNull();
    expect(jobPages.flatMap((p) => p.items.map((j) => j.id))).toEqual(created.map((j) => j.id));

    const updated = await client.updateJob({
      path: { id: job.id },
      body: { executorParam: 'from the client' },
    });
    expect(updated.executorParam).toBe('from the client');

    // Three manual fires of the first job; their runs, read one per page.
    const accepted = [];
    for (const i of [1, 2, 3]) {
      accepted.push(await client.triggerJob({ path: { id: job.id }, body: { executorParam: `fire ${i}` } }));
    }
    const listed = await waitFor(
      async () => {
        const runs: Run[] = [];
        for await (const run of client.paginate('listRuns', { query: { jobId: job.id, limit: 1 } }))
          runs.push(run);
        return runs.length === 3 && runs.every((r) => r.status === 'success') ? runs : undefined;
      },
      { what: 'three successful runs listed', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(listed.map((r) => r.dedupKey).sort()).toEqual(accepted.map((a) => a.dedupKey).sort());
    expect(listed.map((r) => r.executorParam).sort()).toEqual(['fire 1', 'fire 2', 'fire 3']);
    expect(handled.sort()).toEqual(listed.map((r) => r.logId).sort());

    const runPages: RunPage[] = [];
    for await (const page of client.pages('listRuns', { query: { jobId: job.id, limit: 1 } }))
      runPages.push(page);
    expect(runPages.length).toBeGreaterThanOrEqual(3);
    expect(runPages.flatMap((p) => p.items.map((r) => r.logId))).toEqual(listed.map((r) => r.logId));

    const first = listed[0];
    if (!first) throw new Error('no run listed');
    expect(await client.getRun({ path: { logId: first.logId } })).toMatchObject({
      logId: first.logId,
      jobId: job.id,
      status: 'success',
      handleMsg: 'done',
    });

    await expect(client.deleteJob({ path: { id: job.id } })).resolves.toBeUndefined();
    await expect(client.getJob({ path: { id: job.id } })).rejects.toMatchObject({
      status: 404,
      error: 'NotFoundError',
    });
  });

  it('throws a ValidationError with every problem of the request', async () => {
    const body = {
      author: 'client',
      scheduleType: 'HOURLY',
      executorTimeout: -1,
      executorRouteStrategy: 'SOMEWHERE',
    } as unknown as JobCreate;
    const err = await client.createJob({ body }).catch((caught: unknown) => caught);
    expect(err).toBeInstanceOf(TickringApiError);
    const apiError = err as TickringApiError;
    expect(apiError).toMatchObject({
      status: 400,
      error: 'ValidationError',
      operationId: 'createJob',
      method: 'POST',
      path: '/v1/jobs',
    });
    const fields = apiError.problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining(['scheduleType', 'executorTimeout', 'executorRouteStrategy']),
    );
    expect(apiError.field).toBe(apiError.problems[0]?.field);
    expect(apiError.message).toBe(apiError.problems.map((p) => p.message).join('; '));
    expect(apiError.body).toMatchObject({ error: 'ValidationError', problems: apiError.problems });
  });

  it('throws UnauthorizedError for a wrong token (never showing it), and reads the document without one', async () => {
    const wrong = `wrong-${randomUUID()}`;
    const err = await createClient({ baseUrl: e.stack.urls.api, token: wrong, fetch: checkingFetch })
      .listJobs()
      .catch((caught: unknown) => caught);
    expect(err).toBeInstanceOf(TickringApiError);
    expect(err).toMatchObject({ status: 401, error: 'UnauthorizedError' });
    expect(JSON.stringify(err) + String(err)).not.toContain(wrong);

    const doc = await createClient({
      baseUrl: `${e.stack.urls.api}/`,
      fetch: checkingFetch,
    }).getOpenApiDocument();
    expect(doc.openapi).toBe('3.1.0');
  });
});
