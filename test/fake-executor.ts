import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the fake executor received. */
export interface ExecutorRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  readonly at: number;
}

export interface FakeExecutorOptions {
  /** Expected `XXL-JOB-ACCESS-TOKEN`; a request without it gets `{code:500,"The access token is wrong."}`. */
  readonly accessToken?: string;
  /** Admin base URL the results are called back to (`{admin}/api/callback`); none: no callbacks. */
  readonly adminAddress?: string;
  /** How long a run "takes" before its callback. Default 50 ms. */
  readonly runMs?: number;
}

/**
 * A minimal XXL-JOB executor written from the protocol reference (§B), behaving like the Java one:
 * every path is a POST answered with HTTP 200, `Content-Type: text/html;charset=UTF-8` and a ReturnT
 * body; `/run` is accepted at once and its result is POSTed later, as a JSON array, to `/api/callback`.
 * Its behaviour can be switched per test:
 * - `runReply`: `accept` (code 200), `refuse` (code 500 with a reason), `http-500` (HTTP 500 status),
 *   `garbage` (a body that is not JSON), `slow` (answers after `slowMs`);
 * - `busy`: `/idleBeat` answers 500 "job thread is running or has trigger queue.";
 * - `handleCode`: what the callback reports.
 */
export class FakeExecutor {
  runReply: 'accept' | 'refuse' | 'http-500' | 'garbage' | 'slow' = 'accept';
  busy = false;
  slowMs = 1_000;
  handleCode = 200;
  readonly requests: ExecutorRequest[] = [];
  readonly callbacksSent: { logId: number; status: number }[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private port = 0;

  private constructor(private readonly options: FakeExecutorOptions) {}

  static async start(options: FakeExecutorOptions = {}): Promise<FakeExecutor> {
    const executor = new FakeExecutor(options);
    await executor.listen();
    return executor;
  }

  /** The address it would register: `http://127.0.0.1:{port}/`. */
  get address(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** The TriggerParams received on `/run`. */
  get runs(): Record<string, unknown>[] {
    return this.requests.filter((r) => r.path === '/run').map((r) => r.body as Record<string, unknown>);
  }

  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text.trim() === '' ? null : JSON.parse(text);
        } catch {
          body = text;
        }
        const path = req.url ?? '';
        this.requests.push({ path, headers: req.headers, body, at: Date.now() });
        const reply = (json: unknown, status = 200) => {
          res.writeHead(status, { 'Content-Type': 'text/html;charset=UTF-8' });
          res.end(typeof json === 'string' ? json : JSON.stringify(json));
        };
        if (req.method !== 'POST')
          return reply({ code: 500, msg: 'invalid request, HttpMethod not support.' });
        const token = this.options.accessToken;
        if (token && req.headers['xxl-job-access-token'] !== token) {
          return reply({ code: 500, msg: 'The access token is wrong.' });
        }
        switch (path) {
          case '/beat':
            return reply({ code: 200 });
          case '/idleBeat':
            return reply(
              this.busy ? { code: 500, msg: 'job thread is running or has trigger queue.' } : { code: 200 },
            );
          case '/run':
            return this.run(body as Record<string, unknown>, reply);
          case '/kill':
            return reply({ code: 200, msg: 'job thread already killed.' });
          case '/log':
            return reply({
              code: 200,
              content: { fromLineNum: 1, toLineNum: 0, logContent: '', isEnd: false },
            });
          default:
            return reply({ code: 500, msg: `invalid request, uri-mapping(${path}) not found.` });
        }
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private run(trigger: Record<string, unknown>, reply: (json: unknown, status?: number) => void): void {
    switch (this.runReply) {
      case 'refuse':
        reply({ code: 500, msg: `job handler [${String(trigger.executorHandler)}] not found.` });
        return;
      case 'http-500':
        reply({ code: 500, msg: 'server error' }, 500);
        return;
      case 'garbage':
        reply('<html>not json</html>');
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          reply({ code: 200 });
        }, this.slowMs);
        this.timers.add(timer);
        return;
      }
      case 'accept':
        reply({ code: 200 });
        this.scheduleCallback(trigger);
    }
  }

  /** The Java executor's TriggerCallbackThread: the result goes to the admin as a one-item array. */
  private scheduleCallback(trigger: Record<string, unknown>): void {
    const admin = this.options.adminAddress;
    if (!admin) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const logId = Number(trigger.logId);
      const body = [
        { logId, logDateTim: trigger.logDateTime, handleCode: this.handleCode, handleMsg: 'fake run done' },
      ];
      fetch(`${admin.replace(/\/+$/, '')}/api/callback`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json;charset=UTF-8',
          ...(this.options.accessToken ? { 'XXL-JOB-ACCESS-TOKEN': this.options.accessToken } : {}),
        },
        body: JSON.stringify(body),
      })
        .then(async (response) => {
          await response.text();
          this.callbacksSent.push({ logId, status: response.status });
        })
        .catch(() => this.callbacksSent.push({ logId, status: 0 }));
    }, this.options.runMs ?? 50);
    this.timers.add(timer);
  }
}
