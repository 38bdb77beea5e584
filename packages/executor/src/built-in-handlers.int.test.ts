import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogResult } from '@tickring/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { waitFor } from '../test-support/wait-for.js';
import { registerBuiltInHandlers } from './built-in-handlers.js';

/** The HTTP service httpJobHandler calls; records every request it gets. */
let target: Server;
let base: string;
const hits: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      if (req.url === '/api/ok') return res.end('pong');
      if (req.url === '/api/echo') return res.end(`echo:${Buffer.concat(chunks).toString()}`);
      if (req.url === '/api/missing') {
        res.writeHead(404);
        return res.end('nothing here');
      }
      if (req.url === '/api/redirect') {
        res.writeHead(302, { Location: '/private/secret' });
        return res.end();
      }
      res.end('private data');
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  hits.length = 0;
});

async function run(
  harness: Harness,
  logId: number,
  executorHandler: string,
  executorParams: string,
  shard = [0, 1],
) {
  const logDateTime = Date.now();
  const res = await harness.driver.run({
    jobId: logId,
    logId,
    logDateTime,
    executorHandler,
    executorParams,
    broadcastIndex: shard[0] ?? 0,
    broadcastTotal: shard[1] ?? 1,
  });
  expect(res.json).toEqual({ code: 200 });
  const cb = await waitFor(() => harness.admin.callbackFor(logId), { message: `callback ${logId}` });
  const log = await harness.driver.log(logDateTime, logId, 1);
  return { ...cb, log: (log.json.content as LogResult).logContent };
}

const withAllowList = () =>
  startHarness({ httpAllowList: [`${base}/api/`], register: (ex) => registerBuiltInHandlers(ex) });

describe('httpJobHandler', () => {
  it('calls an allowed URL and logs the status and body', async () => {
    h = await withAllowList();
    const r = await run(h, 1, 'httpJobHandler', JSON.stringify({ url: `${base}/api/ok` }));
    expect(r).toMatchObject({ handleCode: 200, handleMsg: 'HTTP 200' });
    expect(r.log).toContain('httpJobHandler response: HTTP 200');
    expect(r.log).toContain('pong');
    expect(hits.map((x) => `${x.method} ${x.url}`)).toEqual(['GET /api/ok']);
  });

  it('sends the method, headers and JSON body it is given', async () => {
    h = await withAllowList();
    const param = { url: `${base}/api/echo`, method: 'put', headers: { 'X-Job': 'yes' }, body: { a: 1 } };
    const r = await run(h, 2, 'httpJobHandler', JSON.stringify(param));
    expect(r.handleCode).toBe(200);
    expect(r.log).toContain('echo:{"a":1}');
    expect(hits[0]).toMatchObject({ method: 'PUT', body: '{"a":1}' });
    expect(hits[0]?.headers['x-job']).toBe('yes');
    expect(hits[0]?.headers['content-type']).toBe('application/json');
  });

  it('refuses a URL outside the allow-list without sending anything', async () => {
    h = await withAllowList();
    for (const [i, url] of [
      `${base}/private/secret`,
      'http://169.254.169.254/latest/meta-data/',
      `${base}/api/../private`,
    ].entries()) {
      const r = await run(h, 10 + i, 'httpJobHandler', JSON.stringify({ url }));
      expect(r.handleCode).toBe(500);
      expect(r.handleMsg).toBe(
        `httpJobHandler: URL ${url} is not in the executor's httpAllowList; the request was not sent.`,
      );
    }
    expect(hits).toEqual([]);
  });

  it('fails on a non-2xx answer and does not follow redirects', async () => {
    h = await withAllowList();
    const missing = await run(h, 20, 'httpJobHandler', JSON.stringify({ url: `${base}/api/missing` }));
    expect(missing).toMatchObject({
      handleCode: 500,
      handleMsg: `httpJobHandler: GET ${base}/api/missing answered HTTP 404`,
    });
    expect(missing.log).toContain('nothing here');
    const redirect = await run(h, 21, 'httpJobHandler', JSON.stringify({ url: `${base}/api/redirect` }));
    expect(redirect.handleCode).toBe(500);
    expect(redirect.handleMsg).toContain('answered HTTP 302 (redirect to /private/secret not followed)');
    expect(hits.map((x) => x.url)).toEqual(['/api/missing', '/api/redirect']);
  });

  it('refuses everything when no allow-list is configured, and explains a bad param', async () => {
    h = await startHarness({ register: (ex) => registerBuiltInHandlers(ex) });
    expect((await run(h, 30, 'httpJobHandler', JSON.stringify({ url: `${base}/api/ok` }))).handleCode).toBe(
      500,
    );
    expect((await run(h, 31, 'httpJobHandler', 'url: http://x')).handleMsg).toMatch(
      /^httpJobHandler: the param is not JSON/,
    );
    expect(hits).toEqual([]);
  });
});

describe('demoJobHandler and shardingJobHandler', () => {
  it('demoJobHandler logs a few lines and succeeds', async () => {
    h = await withAllowList();
    const r = await run(h, 40, 'demoJobHandler', 'p');
    expect(r.handleCode).toBe(200);
    expect(r.log).toContain('tickring, Hello World. param=p');
    expect(r.log).toContain('beat at:2');
  });

  it('shardingJobHandler logs its shard index and total', async () => {
    h = await withAllowList();
    const r = await run(h, 41, 'shardingJobHandler', '', [1, 3]);
    expect(r.handleCode).toBe(200);
    expect(r.log).toContain('sharding param: index = 1, total = 3');
    expect(r.log).toContain('shard 1: hit, processing');
    expect(r.log).toContain('shard 2: ignored');
  });
});
