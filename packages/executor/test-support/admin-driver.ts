import { request } from 'node:http';
import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';

export interface DriverResponse<T = string> {
  status: number;
  contentType: string | undefined;
  text: string;
  json: ReturnT<T>;
}

/**
 * A TriggerParam as the Java admin builds it (Gson field order), with overrides. A `null` override is
 * sent as `null` (some admins do); the Java admin omits null fields.
 */
export function triggerParam(
  overrides: { [K in keyof TriggerParam]?: TriggerParam[K] | null } = {},
): Record<string, unknown> {
  return {
    jobId: 1,
    executorHandler: 'demoJobHandler',
    executorParams: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    logId: 1,
    logDateTime: Date.now(),
    glueType: 'BEAN',
    glueSource: '',
    glueUpdatetime: 0,
    broadcastIndex: 0,
    broadcastTotal: 1,
    ...overrides,
  };
}

/**
 * Sends requests exactly as XXL-JOB's admin (XxlJobRemotingUtil.postBody) does: POST,
 * `Content-Type: application/json;charset=UTF-8`, the token header (in the case given here, to prove the
 * executor matches it case-insensitively), no body at all for `/beat`.
 */
export class AdminDriver {
  constructor(
    private readonly address: string,
    private readonly token: string | undefined,
    private readonly tokenHeader = 'XXL-JOB-ACCESS-TOKEN',
  ) {}

  /** `body === undefined` sends no body (Content-Length 0). */
  send<T = string>(
    path: string,
    body?: unknown,
    opts: { method?: string; token?: string | null; tokenHeader?: string } = {},
  ): Promise<DriverResponse<T>> {
    const url = new URL(path.replace(/^\//, ''), this.address);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json;charset=UTF-8',
      'Accept-Charset': 'application/json;charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(payload)),
    };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token !== null && token !== undefined) headers[opts.tokenHeader ?? this.tokenHeader] = token;
    return new Promise((resolve, reject) => {
      const req = request(url, { method: opts.method ?? 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'],
              text,
              json: JSON.parse(text) as ReturnT<T>,
            });
          } catch (err) {
            reject(new Error(`not JSON (${res.statusCode}): ${text}`, { cause: err }));
          }
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  run(overrides: Parameters<typeof triggerParam>[0] = {}) {
    return this.send('/run', triggerParam(overrides));
  }

  beat() {
    return this.send('/beat');
  }

  idleBeat(jobId: number) {
    return this.send('/idleBeat', { jobId });
  }

  kill(jobId: number) {
    return this.send('/kill', { jobId });
  }

  log(logDateTim: number, logId: number, fromLineNum: number) {
    return this.send<LogResult>('/log', { logDateTim, logId, fromLineNum });
  }
}
