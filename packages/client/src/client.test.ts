import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  type Job,
  OPERATIONS,
  type OperationId,
  type Run,
  type RunPage,
  TickringApiError,
  TickringConnectionError,
} from './index.js';

const TOKEN = 'secret-admin-token-3f9c';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Handler = (req: Received, res: ServerResponse) => void;

interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A real HTTP server on 127.0.0.1 that records each request and answers with `handler`. */
async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const s: TestServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Answers `status` with `body` (JSON) to every request. */
const answer =
  (status: number, body?: unknown): Handler =>
  (_req, res) => {
    if (body === undefined) {
      res.writeHead(status);
      res.end();
    } else json(res, status, body);
  };

/** Everything an error shows: message, stack, own properties, cause chain. */
function everythingOf(err: unknown): string {
  return `${String(err)}\n${(err as Error).stack}\n${inspect(err, { depth: 10, showHidden: true })}\n${JSON.stringify(err)}`;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

const JOB = { id: 5, appName: 'my-app', name: 'nightly', author: 'ops' } as Job;

describe('createClient', () => {
  it('has one method per /v1 operation of the document (OPERATIONS), and paginate and pages', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
    expect(Object.keys(client).sort()).toEqual([...Object.keys(OPERATIONS), 'paginate', 'pages'].sort());
    // The admin API's operations as of this client's first version (the API may add more).
    expect(Object.keys(client)).toEqual(
      expect.arrayContaining([
        'listGroups',
        'createGroup',
        'getGroup',
        'updateGroup',
        'deleteGroup',
        'setGroupAccessToken',
        'clearGroupAccessToken',
        'listJobs',
        'createJob',
        'getJob',
        'updateJob',
        'deleteJob',
        'startJob',
        'stopJob',
        'triggerJob',
        'previewSchedule',
        'listRuns',
        'getRun',
        'getRunOutput',
        'killRun',
        'listExecutors',
        'dashboard',
        'getOpenApiDocument',
      ]),
    );
    for (const name of Object.keys(OPERATIONS))
      expect(typeof client[name as OperationId], name).toBe('function');
  });

  it('refuses a baseUrl that is not a URL or has user info, a timeout that is not positive, a token a header cannot carry', () => {
    expect(() => createClient({ baseUrl: '127.0.0.1:8080/x y' })).toThrow(/baseUrl is not a URL/);
    expect(() => createClient({ baseUrl: `http://admin:${TOKEN}@127.0.0.1:8080` })).toThrow(
      new TypeError('baseUrl must not carry user info: give the admin token as `token`'),
    );
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 0 })).toThrow(RangeError);
    let err: unknown;
    try {
      createClient({ baseUrl: 'http://127.0.0.1:8080', token: `${TOKEN}\n` });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe('token must be printable ASCII (it is sent in a header)');
    expect(everythingOf(err)).not.toContain(TOKEN);
  });
});

describe('requests', () => {
  it('sends the token as Authorization: Bearer, asks for JSON, names itself', async () => {
    const server = await startServer(answer(200, JOB));
    await createClient({ baseUrl: server.url, token: TOKEN }).getJob({ path: { id: 5 } });
    await createClient({ baseUrl: server.url, token: TOKEN, userAgent: 'tickring-cli/1.2.3' }).getJob({
      path: { id: 5 },
    });
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.received[0]?.headers.accept).toBe('application/json');
    expect(server.received[0]?.headers['user-agent']).toBe('tickring-client');
    expect(server.received[1]?.headers['user-agent']).toBe('tickring-cli/1.2.3');
  });

  it('sends no Authorization header without a token (getOpenApiDocument needs none)', async () => {
    const server = await startServer(answer(200, { openapi: '3.1.0' }));
    const doc = await createClient({ baseUrl: server.url }).getOpenApiDocument();
    expect(doc).toEqual({ openapi: '3.1.0' });
    expect(server.received[0]?.url).toBe('/v1/openapi.json');
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('takes the base URL with or without a trailing slash, and keeps its path (an API Gateway stage)', async () => {
    const server = await startServer(answer(200, JOB));
    await createClient({ baseUrl: `${server.url}/`, token: TOKEN }).getJob({ path: { id: 5 } });
    await createClient({ baseUrl: server.url, token: TOKEN }).getJob({ path: { id: 5 } });
    await createClient({ baseUrl: `${server.url}/prod/`, token: TOKEN }).getJob({ path: { id: 5 } });
    expect(server.received.map((r) => r.url)).toEqual(['/v1/jobs/5', '/v1/jobs/5', '/prod/v1/jobs/5']);
  });

  it('fills path parameters (encoded) and serializes the query, leaving out what is not given', async () => {
    const server = await startServer(answer(200, { items: [], nextCursor: null }));
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    await client.getGroup({ path: { appName: 'my app/1' } });
    await client.listRuns({ query: { jobId: 5, status: 'running', limit: 50 } });
    await client.listRuns();
    await client.previewSchedule({
      query: { scheduleType: 'CRON', scheduleConf: '0 0/15 9-17 ? * MON-FRI', timeZone: 'Europe/Berlin' },
    });
    await client.getRunOutput({ path: { logId: 21474836481 }, query: { fromLineNum: 3 } });
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/groups/my%20app%2F1',
      'GET /v1/logs?jobId=5&status=running&limit=50',
      'GET /v1/logs',
      'GET /v1/schedule/preview?scheduleType=CRON&scheduleConf=0%200%2F15%209-17%20%3F%20*%20MON-FRI&timeZone=Europe%2FBerlin',
      'GET /v1/logs/21474836481/output?fromLineNum=3',
    ]);
  });

  it('sends a body as JSON and resolves to the answer (201, 200, 202)', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/jobs')
        json(res, 201, { ...JOB, ...JSON.parse(req.body) });
      else if (req.url === '/v1/jobs/5/trigger')
        json(res, 202, { jobId: 5, dedupKey: 'manual#1', scheduledTime: '2030-01-01T00:00:00.000Z' });
      else json(res, 200, { ...JOB, ...JSON.parse(req.body) });
    });
    const client = createClient({ baseUrl: server.url, token: TOKEN });

    const created = await client.createJob({ body: { appName: 'my-app', author: 'ops', name: 'nightly' } });
    const updated = await client.updateJob({ path: { id: 5 }, body: { executorParam: 'x=1' } });
    const accepted = await client.triggerJob({ path: { id: 5 }, body: { executorParam: 'once' } });

    expect(created).toMatchObject({ id: 5, appName: 'my-app', author: 'ops', name: 'nightly' });
    expect(updated).toMatchObject({ id: 5, executorParam: 'x=1' });
    expect(accepted).toEqual({ jobId: 5, dedupKey: 'manual#1', scheduledTime: '2030-01-01T00:00:00.000Z' });
    expect(
      server.received.map((r) => [r.method, r.url, r.headers['content-type'], JSON.parse(r.body)]),
    ).toEqual([
      ['POST', '/v1/jobs', 'application/json', { appName: 'my-app', author: 'ops', name: 'nightly' }],
      ['PUT', '/v1/jobs/5', 'application/json', { executorParam: 'x=1' }],
      ['POST', '/v1/jobs/5/trigger', 'application/json', { executorParam: 'once' }],
    ]);
  });

  it('sends no body (and no Content-Type) when the call has none', async () => {
    const server = await startServer(answer(200, JOB));
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    await client.startJob({ path: { id: 5 } });
    await client.triggerJob({ path: { id: 5 } });
    expect(server.received.map((r) => [r.method, r.url, r.body, r.headers['content-type']])).toEqual([
      ['POST', '/v1/jobs/5/start', '', undefined],
      ['POST', '/v1/jobs/5/trigger', '', undefined],
    ]);
  });

  it('resolves to undefined on 204', async () => {
    const server = await startServer(answer(204));
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    await expect(client.deleteJob({ path: { id: 5 } })).resolves.toBeUndefined();
    await expect(client.clearGroupAccessToken({ path: { appName: 'my-app' } })).resolves.toBeUndefined();
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/jobs/5',
      'DELETE /v1/groups/my-app/access-token',
    ]);
  });

  it('uses the fetch it is given', async () => {
    const server = await startServer(answer(200, JOB));
    const seen: string[] = [];
    const client = createClient({
      baseUrl: server.url,
      token: TOKEN,
      fetch: (input, init) => {
        seen.push(input instanceof Request ? `${input.method} ${input.url}` : String(input));
        return fetch(input, init);
      },
    });
    await client.getJob({ path: { id: 5 } });
    expect(seen).toEqual([`GET ${server.url}/v1/jobs/5`]);
  });

  it('refuses a call without a required path parameter before sending anything (a JavaScript caller)', async () => {
    const server = await startServer(answer(200, JOB));
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    // @ts-expect-error getJob needs its path
    await expect(client.getJob()).rejects.toThrow(new TypeError('getJob needs path.id'));
    expect(server.received).toEqual([]);
  });
});

describe('errors', () => {
  it('a ValidationError: status, error, message verbatim, field, every problem, the request', async () => {
    const body = {
      error: 'ValidationError',
      message:
        'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"; executorTimeout must be an integer >= 0; got -1',
      field: 'scheduleType',
      problems: [
        {
          field: 'scheduleType',
          message: 'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
        },
        { field: 'executorTimeout', message: 'executorTimeout must be an integer >= 0; got -1' },
      ],
    };
    const server = await startServer(answer(400, body));
    const err = await caught(
      createClient({ baseUrl: server.url, token: TOKEN }).updateJob({
        path: { id: 5 },
        body: { executorTimeout: -1 },
      }),
    );
    expect(err).toBeInstanceOf(TickringApiError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      name: 'TickringApiError',
      status: 400,
      error: 'ValidationError',
      message: body.message,
      field: 'scheduleType',
      problems: body.problems,
      operationId: 'updateJob',
      method: 'PUT',
      path: '/v1/jobs/5',
      body,
    });
  });

  it('a 404: the server error and message, no field, no problems', async () => {
    const server = await startServer(
      answer(404, { error: 'NotFoundError', message: 'job 9 does not exist' }),
    );
    const err = (await caught(
      createClient({ baseUrl: server.url, token: TOKEN }).getJob({ path: { id: 9 } }),
    )) as TickringApiError;
    expect(err).toBeInstanceOf(TickringApiError);
    expect(err).toMatchObject({
      status: 404,
      error: 'NotFoundError',
      message: 'job 9 does not exist',
      problems: [],
      operationId: 'getJob',
      method: 'GET',
      path: '/v1/jobs/9',
    });
    expect('field' in err).toBe(false);
  });

  it('a 401: UnauthorizedError, and the token is nowhere in the error', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('www-authenticate', 'Bearer');
      json(res, 401, { error: 'UnauthorizedError', message: 'the bearer token is not valid' });
    });
    const err = await caught(createClient({ baseUrl: server.url, token: TOKEN }).listGroups());
    expect(err).toMatchObject({
      status: 401,
      error: 'UnauthorizedError',
      message: 'the bearer token is not valid',
    });
    expect(everythingOf(err)).not.toContain(TOKEN);
  });

  it('a 502 that is not JSON (a proxy page): HttpError, the status line as message, the text as body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad Gateway</body></html>');
    });
    const err = await caught(createClient({ baseUrl: server.url, token: TOKEN }).listJobs());
    expect(err).toBeInstanceOf(TickringApiError);
    expect(err).toMatchObject({
      status: 502,
      error: 'HttpError',
      message: 'HTTP 502 Bad Gateway',
      problems: [],
      path: '/v1/jobs',
      body: '<html><body>Bad Gateway</body></html>',
    });
  });

  it('an error with an empty body: HttpError, the status line, body undefined', async () => {
    const server = await startServer(answer(503));
    const err = await caught(createClient({ baseUrl: server.url, token: TOKEN }).dashboard());
    expect(err).toMatchObject({ status: 503, error: 'HttpError', message: 'HTTP 503 Service Unavailable' });
    expect((err as TickringApiError).body).toBeUndefined();
  });

  it('a success whose body is not JSON: InvalidResponse', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    const err = await caught(createClient({ baseUrl: server.url, token: TOKEN }).getJob({ path: { id: 5 } }));
    expect(err).toBeInstanceOf(TickringApiError);
    expect(err).toMatchObject({
      status: 200,
      error: 'InvalidResponse',
      message: 'HTTP 200 OK: the answer is not JSON',
      body: 'ok',
    });
  });

  it('connection refused: TickringConnectionError naming the URL and the cause, without the token', async () => {
    const server = await startServer(answer(200, JOB));
    await server.close();
    const err = await caught(
      createClient({ baseUrl: `${server.url}/`, token: TOKEN }).getJob({ path: { id: 5 } }),
    );
    expect(err).toBeInstanceOf(TickringConnectionError);
    expect(err).toMatchObject({
      name: 'TickringConnectionError',
      message: `cannot reach ${server.url}: connect ECONNREFUSED 127.0.0.1:${server.port}`,
      code: 'ECONNREFUSED',
      timedOut: false,
      baseUrl: server.url,
      operationId: 'getJob',
      method: 'GET',
      path: '/v1/jobs/5',
    });
    expect(everythingOf(err)).not.toContain(TOKEN);
  });

  it('no answer within timeoutMs: TickringConnectionError, timedOut, without the token', async () => {
    const server = await startServer(() => {
      // never answers
    });
    const started = Date.now();
    const err = await caught(
      createClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 300 }).getJob({ path: { id: 5 } }),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err).toBeInstanceOf(TickringConnectionError);
    expect(err).toMatchObject({
      message: `no answer from ${server.url} to GET /v1/jobs/5: timed out after 300 ms`,
      timedOut: true,
    });
    expect(everythingOf(err)).not.toContain(TOKEN);
  });

  it('an answer whose body stops coming times out too', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id": 5,');
    });
    const err = await caught(
      createClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 300 }).getJob({ path: { id: 5 } }),
    );
    expect(err).toBeInstanceOf(TickringConnectionError);
    expect(err).toMatchObject({ timedOut: true, message: expect.stringContaining('timed out after 300 ms') });
  });
});

describe('paging', () => {
  const run = (logId: number) => ({ logId, jobId: 5 }) as Run;
  /** Five runs, two per page, a short empty page between; the cursor is the next index. */
  const PAGES: Record<string, RunPage> = {
    '': { items: [run(1), run(2)], nextCursor: 'c2' },
    c2: { items: [], nextCursor: 'c2b' },
    c2b: { items: [run(3), run(4)], nextCursor: 'c4' },
    c4: { items: [run(5)], nextCursor: null },
  };
  const pagedServer = () =>
    startServer((req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor') ?? '';
      const page = PAGES[cursor];
      if (page) json(res, 200, page);
      else json(res, 400, { error: 'ValidationError', message: 'bad cursor', field: 'cursor', problems: [] });
    });

  it('paginate yields every item, following nextCursor (through an empty page) and stopping at null', async () => {
    const server = await pagedServer();
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const logIds: number[] = [];
    for await (const r of client.paginate('listRuns', { query: { jobId: 5, limit: 2 } }))
      logIds.push(r.logId);
    expect(logIds).toEqual([1, 2, 3, 4, 5]);
    expect(server.received.map((r) => r.url)).toEqual([
      '/v1/logs?jobId=5&limit=2',
      '/v1/logs?jobId=5&limit=2&cursor=c2',
      '/v1/logs?jobId=5&limit=2&cursor=c2b',
      '/v1/logs?jobId=5&limit=2&cursor=c4',
    ]);
  });

  it('pages yields the whole pages', async () => {
    const server = await pagedServer();
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const pages: RunPage[] = [];
    for await (const page of client.pages('listRuns')) pages.push(page);
    expect(pages).toEqual([PAGES[''], PAGES.c2, PAGES.c2b, PAGES.c4]);
  });

  it('reads a page only when the loop asks for its items, and starts at a given cursor', async () => {
    const server = await pagedServer();
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    for await (const r of client.paginate('listRuns', { query: { cursor: 'c2b' } })) {
      expect(r.logId).toBe(3);
      break;
    }
    expect(server.received.map((r) => r.url)).toEqual(['/v1/logs?cursor=c2b']);
  });

  it('pages through jobs the same way', async () => {
    const server = await startServer((req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
      json(
        res,
        200,
        cursor ? { items: [{ id: 2 }], nextCursor: null } : { items: [{ id: 1 }], nextCursor: 'n' },
      );
    });
    const ids: number[] = [];
    for await (const job of createClient({ baseUrl: server.url }).paginate('listJobs', {
      query: { appName: 'x' },
    }))
      ids.push(job.id);
    expect(ids).toEqual([1, 2]);
    expect(server.received.map((r) => r.url)).toEqual(['/v1/jobs?appName=x', '/v1/jobs?appName=x&cursor=n']);
  });

  it('an error on a later page is thrown from the loop', async () => {
    const server = await startServer((req, res) => {
      if (req.url.includes('cursor')) json(res, 404, { error: 'NotFoundError', message: 'gone' });
      else json(res, 200, { items: [{ id: 1 }], nextCursor: 'n' });
    });
    const seen: number[] = [];
    const err = await caught(
      (async () => {
        for await (const job of createClient({ baseUrl: server.url }).paginate('listJobs')) seen.push(job.id);
      })(),
    );
    expect(seen).toEqual([1]);
    expect(err).toMatchObject({ status: 404, error: 'NotFoundError', message: 'gone' });
  });
});
