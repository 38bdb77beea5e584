import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HandleCallbackParam, RegistryParam } from '@tickring/protocol';

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * A real HTTP stand-in for the XXL-JOB admin's executor-facing API (`api/callback`, `api/registry`,
 * `api/registryRemove`), recording what it receives. `mode`: `up` answers `{code:200}`; `down` answers
 * HTTP 500 and records nothing; `refuse` answers HTTP 200 `{code:500}`. `close()` makes the port refuse
 * connections, `reopen()` listens on the same port again.
 */
export class FakeAdmin {
  mode: 'up' | 'down' | 'refuse' = 'up';
  /** ≤ 3.2 admins answer with `content`, ≥ 3.3 with `data`. */
  envelope: 'content' | 'data' = 'content';
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(
    private readonly contextPath: string,
    private readonly token: string | undefined,
  ) {}

  static async start(opts: { contextPath?: string; token?: string } = {}): Promise<FakeAdmin> {
    const admin = new FakeAdmin(opts.contextPath ?? '', opts.token);
    await admin.listen();
    return admin;
  }

  /** Base URL as an executor is configured with it (no trailing slash). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}${this.contextPath}`;
  }

  get callbacks(): HandleCallbackParam[] {
    return this.requests
      .filter((r) => r.path === 'callback')
      .flatMap((r) => (Array.isArray(r.body) ? (r.body as HandleCallbackParam[]) : []));
  }

  callbackFor(logId: number): HandleCallbackParam | undefined {
    return this.callbacks.find((c) => c.logId === logId);
  }

  get registrations(): RegistryParam[] {
    return this.requests.filter((r) => r.path === 'registry').map((r) => r.body as RegistryParam);
  }

  get removals(): RegistryParam[] {
    return this.requests.filter((r) => r.path === 'registryRemove').map((r) => r.body as RegistryParam);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  reopen(): Promise<void> {
    return this.listen();
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8' });
          res.end(JSON.stringify(body));
        };
        const prefix = `${this.contextPath}/api/`;
        const url = req.url ?? '';
        if (req.method !== 'POST' || !url.startsWith(prefix))
          return answer(404, { code: 404, msg: 'not found' });
        if (this.mode === 'down') return answer(500, { code: 500, msg: 'admin down' });
        if (this.mode === 'refuse') return answer(200, { code: 500, msg: 'refused' });
        if (this.token !== undefined && req.headers['xxl-job-access-token'] !== this.token) {
          return answer(200, { code: 500, msg: 'The access token is wrong.' });
        }
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return answer(200, { code: 500, msg: 'bad json' });
        }
        this.requests.push({ path: url.slice(prefix.length), headers: req.headers, body });
        answer(200, { code: 200, [this.envelope]: null });
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        this.server = server;
        resolve();
      });
    });
  }
}
