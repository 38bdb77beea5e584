import type {
  IdleBeatParam,
  KillParam,
  LogParam,
  LogResult,
  ReturnT,
  TriggerParam,
} from '@tickring/protocol';
import type { ExecutorTransport } from '../ports/executor-transport.js';
import { type HttpPost, nodeHttpPost } from './http-post.js';

/** XXL-JOB's `xxl.job.timeout`: 3 s for connect and read together. */
export const DEFAULT_EXECUTOR_TIMEOUT_MS = 3_000;

const ACCESS_TOKEN_HEADER = 'XXL-JOB-ACCESS-TOKEN';
const FAIL = 500;

export interface HttpExecutorTransportOptions {
  /** The shared `XXL-JOB-ACCESS-TOKEN`, resolved once (e.g. from Secrets Manager at cold start). */
  readonly accessToken: () => Promise<string> | string;
  /** Per call, connect + response together. Default 3 s. */
  readonly timeoutMs?: number;
  /** How requests are sent; node:http with keep-alive by default. */
  readonly post?: HttpPost;
}

/**
 * The admin → executor half of the XXL-JOB protocol over HTTP: `POST {address}{beat|idleBeat|run|kill|log}`
 * with a JSON body and the access-token header, exactly as XXL-JOB's `ExecutorBizClient` calls it.
 * Any non-200 status, an unparseable body, a network error or a timeout becomes a `code: 500` reply
 * whose msg says what happened and for which URL; the payload is read as `content ?? data` (≤ 3.2 / ≥ 3.3).
 */
export class HttpExecutorTransport implements ExecutorTransport {
  private readonly timeoutMs: number;
  private readonly post: HttpPost;

  constructor(private readonly options: HttpExecutorTransportOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EXECUTOR_TIMEOUT_MS;
    this.post = options.post ?? nodeHttpPost;
  }

  run(address: string, param: TriggerParam): Promise<ReturnT<unknown>> {
    return this.call(address, 'run', param);
  }

  beat(address: string): Promise<ReturnT<unknown>> {
    return this.call(address, 'beat', undefined);
  }

  idleBeat(address: string, jobId: number): Promise<ReturnT<unknown>> {
    const body: IdleBeatParam = { jobId };
    return this.call(address, 'idleBeat', body);
  }

  kill(address: string, jobId: number): Promise<ReturnT<unknown>> {
    const body: KillParam = { jobId };
    return this.call(address, 'kill', body);
  }

  log(address: string, logDateTime: number, logId: number, fromLineNum: number): Promise<ReturnT<LogResult>> {
    // Sic: `logDateTim`, the field name of XXL-JOB ≤ 3.4 (reference §B.2).
    const body: LogParam = { logDateTim: logDateTime, logId, fromLineNum };
    return this.call(address, 'log', body) as Promise<ReturnT<LogResult>>;
  }

  private async call(address: string, path: string, body: unknown): Promise<ReturnT<unknown>> {
    const url = executorUrl(address, path);
    let status: number;
    let text: string;
    try {
      const token = await this.options.accessToken();
      const response = await this.post(
        url,
        {
          'Content-Type': 'application/json;charset=UTF-8',
          ...(token ? { [ACCESS_TOKEN_HEADER]: token } : {}),
        },
        body === undefined ? '' : JSON.stringify(body),
        this.timeoutMs,
      );
      status = response.status;
      text = response.text;
    } catch (err) {
      return {
        code: FAIL,
        msg: `xxl-job remoting error(${describeError(err, this.timeoutMs)}), for url : ${url}`,
      };
    }
    if (status !== 200) {
      return { code: FAIL, msg: `xxl-job remoting fail, StatusCode(${status}) invalid. for url : ${url}` };
    }
    return parseReply(text, url);
  }
}

/** `{address}{path}`, adding the `/` a registered address may lack (`http://host:9999` → `http://host:9999/run`). */
export function executorUrl(address: string, path: string): string {
  const base = address.trim();
  return base.endsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

function parseReply(text: string, url: string): ReturnT<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      code: FAIL,
      msg: `xxl-job remoting fail, the response is not JSON: ${snippet(text)}. for url : ${url}`,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      code: FAIL,
      msg: `xxl-job remoting fail, the response is not a ReturnT: ${snippet(text)}. for url : ${url}`,
    };
  }
  const envelope = parsed as { code?: unknown; msg?: unknown; content?: unknown; data?: unknown };
  const code = typeof envelope.code === 'string' ? Number(envelope.code) : envelope.code;
  if (typeof code !== 'number' || !Number.isInteger(code)) {
    return {
      code: FAIL,
      msg: `xxl-job remoting fail, the response has no code: ${snippet(text)}. for url : ${url}`,
    };
  }
  const payload = envelope.content ?? envelope.data;
  return {
    code,
    ...(typeof envelope.msg === 'string' ? { msg: envelope.msg } : {}),
    ...(payload === undefined || payload === null ? {} : { content: payload }),
  };
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `${err.message}: ${cause.message}` : err.message;
    return detail;
  }
  return String(err);
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(oneLine.length > 200 ? `${oneLine.slice(0, 200)}...` : oneLine);
}
