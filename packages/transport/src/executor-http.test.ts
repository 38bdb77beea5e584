import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TriggerParam } from '@tickring/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executorUrl, HttpExecutorTransport } from './executor-http.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server on 127.0.0.1 whose answer each test sets. */
let server: Server;
let base: string;
let seen: Seen[] = [];
let answer: (req: Seen, res: ServerResponse) => void;

const trigger: TriggerParam = {
  jobId: 7,
  executorHandler: 'demoJobHandler',
  executorParams: '',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  logId: 42,
  logDateTime: 1_700_000_000_000,
  glueType: 'BEAN',
  glueSource: '',
  glueUpdatetime: 0,
  broadcastIndex: 0,
  broadcastTotal: 1,
};

const json = (res: ServerResponse, body: unknown, status = 200) => {
  res.writeHead(status, { 'Content-Type': 'text/html;charset=UTF-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  answer = (_req, res) => json(res, { code: 200 });
});

/** An executor of the group `demo-app` at `address`. */
const at = (address: string) => ({ address, appName: 'demo-app' });

const transport = (timeoutMs = 3_000) =>
  new HttpExecutorTransport({ accessToken: () => 'sekret', timeoutMs });

describe('HttpExecutorTransport', () => {
  it('POSTs the TriggerParam to {address}run with the token and the XXL-JOB content type', async () => {
    const reply = await transport().run(at(`${base}/`), trigger);
    expect(reply).toEqual({ code: 200 });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/run');
    expect(request?.headers['xxl-job-access-token']).toBe('sekret');
    expect(request?.headers['xxl-job-appname']).toBe('demo-app');
    expect(request?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(JSON.parse(request?.body ?? '')).toEqual(trigger);
  });

  it('adds the "/" a registered address lacks', async () => {
    await transport().run(at(base), trigger);
    await transport().beat(at(`${base}/job`));
    expect(seen.map((s) => s.url)).toEqual(['/run', '/job/beat']);
    expect(executorUrl('http://h:9999', '/run')).toBe('http://h:9999/run');
    expect(executorUrl('http://h:9999/', '/run')).toBe('http://h:9999/run');
    expect(executorUrl(' http://h:9999/xxl/ ', '/log')).toBe('http://h:9999/xxl/log');
  });

  it('sends beat with an empty body, idleBeat and kill with {jobId}, log with both spellings of logDateTim(e)', async () => {
    const t = transport();
    await t.beat(at(base));
    await t.idleBeat(at(base), 7);
    await t.kill(at(base), 7);
    await t.log(at(base), 1_700_000_000_000, 42, 3);
    expect(seen.map((s) => [s.url, s.body])).toEqual([
      ['/beat', ''],
      ['/idleBeat', '{"jobId":7}'],
      ['/kill', '{"jobId":7}'],
      ['/log', '{"logDateTim":1700000000000,"logId":42,"fromLineNum":3,"logDateTime":1700000000000}'],
    ]);
  });

  it('reads the payload as content (≤ 3.2) or data (≥ 3.3)', async () => {
    const logResult = { fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false };
    answer = (_req, res) => json(res, { code: 200, msg: null, content: logResult });
    expect(await transport().log(at(base), 1, 42, 1)).toEqual({ code: 200, content: logResult });
    answer = (_req, res) => json(res, { code: 200, data: logResult });
    expect(await transport().log(at(base), 1, 42, 1)).toEqual({ code: 200, content: logResult });
  });

  it('passes the executor refusal through (code 500 and its msg)', async () => {
    answer = (_req, res) => json(res, { code: 500, msg: 'job handler [demoJobHandler] not found.' });
    expect(await transport().run(at(base), trigger)).toEqual({
      code: 500,
      msg: 'job handler [demoJobHandler] not found.',
    });
  });

  it('turns a non-200 HTTP status into a failure naming the status and the URL, whatever the body says', async () => {
    answer = (_req, res) => json(res, { code: 200 }, 502);
    const reply = await transport().run(at(base), trigger);
    expect(reply.code).toBe(500);
    expect(reply.msg).toBe(`xxl-job remoting fail, StatusCode(502) invalid. for url : ${base}/run`);
  });

  it('turns a body that is not a ReturnT into a failure', async () => {
    answer = (_req, res) => json(res, '<html>oops</html>');
    const notJson = await transport().run(at(base), trigger);
    expect(notJson.code).toBe(500);
    expect(notJson.msg).toContain('the response is not JSON');
    answer = (_req, res) => json(res, { msg: 'no code here' });
    const noCode = await transport().run(at(base), trigger);
    expect(noCode.code).toBe(500);
    expect(noCode.msg).toContain('the response has no code');
  });

  it('fails a call that takes longer than the timeout', async () => {
    answer = (_req, res) => setTimeout(() => json(res, { code: 200 }), 1_000);
    const started = Date.now();
    const reply = await transport(200).run(at(base), trigger);
    const elapsed = Date.now() - started;
    expect(reply.code).toBe(500);
    expect(reply.msg).toBe(`xxl-job remoting error(timed out after 200 ms), for url : ${base}/run`);
    expect(elapsed).toBeLessThan(900);
  });

  it('fails a call to a port nobody listens on, naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const reply = await transport().beat(at(`http://127.0.0.1:${port}/`));
    expect(reply.code).toBe(500);
    expect(reply.msg).toMatch(
      /^xxl-job remoting error\(.*ECONNREFUSED.*\), for url : http:\/\/127\.0\.0\.1:\d+\/beat$/,
    );
  });

  it('resolves the token once per call from the provider (a secret read at cold start)', async () => {
    let reads = 0;
    const t = new HttpExecutorTransport({
      accessToken: async () => {
        reads++;
        return 'from-secret';
      },
    });
    await t.beat(at(base));
    expect(reads).toBe(1);
    expect(seen[0]?.headers['xxl-job-access-token']).toBe('from-secret');
  });

  it('asks for the token of the target group and sends nothing when it cannot be read', async () => {
    const asked: string[] = [];
    const t = new HttpExecutorTransport({
      accessToken: async (appName) => {
        asked.push(appName);
        if (appName === 'locked-app') throw new Error('the sealing key is unavailable');
        return `token-of-${appName}`;
      },
    });
    await t.beat({ address: base, appName: 'app-a' });
    expect(seen[0]?.headers['xxl-job-access-token']).toBe('token-of-app-a');
    expect(seen[0]?.headers['xxl-job-appname']).toBe('app-a');
    const refused = await t.run({ address: base, appName: 'locked-app' }, trigger);
    expect(refused.code).toBe(500);
    expect(refused.msg).toMatch(/access token of group locked-app cannot be read .*nothing was sent/);
    expect(seen).toHaveLength(1);
    expect(asked).toEqual(['app-a', 'locked-app']);
  });
});

describe('HttpExecutorTransport with executors of two generations (/run up to 3.4, /trigger from 3.5)', () => {
  /** Answers as an executor serving only `path` does: "uri-mapping(...) not found." elsewhere. */
  const servesOnly = (path: string) => (req: Seen, res: ServerResponse) =>
    json(
      res,
      req.url.endsWith(path)
        ? { code: 200 }
        : { code: 500, msg: `invalid request, uri-mapping(${req.url}) not found.` },
    );

  it('sends a trigger refused as an unknown /run once more on /trigger, and then straight to /trigger', async () => {
    answer = servesOnly('/trigger');
    const t = transport();
    expect(await t.run(at(base), trigger)).toEqual({ code: 200 });
    expect(t.triggerPathOf(base)).toBe('/trigger');
    expect(await t.run(at(base), { ...trigger, logId: 43 })).toEqual({ code: 200 });
    expect(seen.map((s) => [s.url, JSON.parse(s.body).logId])).toEqual([
      ['/run', 42],
      ['/trigger', 42],
      ['/trigger', 43],
    ]);
  });

  it('learns per address, and goes back to /run when an address starts answering there instead', async () => {
    const t = transport();
    answer = servesOnly('/trigger');
    await t.run(at(`${base}/new/`), trigger);
    answer = servesOnly('/run');
    expect(await t.run(at(`${base}/old/`), trigger)).toEqual({ code: 200 });
    expect(t.triggerPathOf(`${base}/new/`)).toBe('/trigger');
    expect(t.triggerPathOf(`${base}/old/`)).toBeUndefined();
    // The executor at /new/ was replaced by a 3.4 one: its "/trigger not found" sends it back to /run.
    expect(await t.run(at(`${base}/new/`), trigger)).toEqual({ code: 200 });
    expect(t.triggerPathOf(`${base}/new/`)).toBe('/run');
    expect(seen.map((s) => s.url)).toEqual([
      '/new/run',
      '/new/trigger',
      '/old/run',
      '/new/trigger',
      '/new/run',
    ]);
  });

  it('never sends a trigger twice for any other answer: refusals, failures, timeouts', async () => {
    for (const reply of [
      { code: 500, msg: 'job handler [demoJobHandler] not found.' },
      { code: 500, msg: 'invalid request, accessToken or appname invalid.' },
      { code: 500, msg: 'invalid request, uri-mapping(/other) not found.' },
    ]) {
      seen = [];
      answer = (_req, res) => json(res, reply);
      expect(await transport().run(at(base), trigger)).toEqual(reply);
      expect(seen.map((s) => s.url)).toEqual(['/run']);
    }
    seen = [];
    answer = (_req, res) =>
      setTimeout(() => json(res, { code: 500, msg: 'invalid request, uri-mapping(/run) not found.' }), 500);
    expect((await transport(100).run(at(base), trigger)).msg).toMatch(/timed out/);
    expect(seen.map((s) => s.url)).toEqual(['/run']);
  });

  it('reports the second refusal when neither path is known, without remembering either', async () => {
    answer = servesOnly('/nothing');
    const t = transport();
    expect(await t.run(at(base), trigger)).toEqual({
      code: 500,
      msg: 'invalid request, uri-mapping(/trigger) not found.',
    });
    expect(t.triggerPathOf(base)).toBeUndefined();
    expect(seen.map((s) => s.url)).toEqual(['/run', '/trigger']);
  });
});
