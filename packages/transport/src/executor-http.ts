import type { ExecutorTarget, ExecutorTransport } from '@tickring/core/executors';
import {
  ACCESS_TOKEN_HEADER,
  APPNAME_HEADER,
  EXECUTOR_PATH,
  type ExecutorPath,
  FAIL_CODE,
  type IdleBeatParam,
  type KillParam,
  type LogParam,
  type LogResult,
  MSG,
  ProtocolError,
  REQUEST_CONTENT_TYPE,
  type ReturnT,
  readReturnT,
  type TriggerParam,
  type TriggerPath,
} from '@tickring/protocol';
import { type HttpPost, nodeHttpPost } from './http-post.js';

/** XXL-JOB's `xxl.job.timeout`: 3 s for connect and read together. */
export const DEFAULT_EXECUTOR_TIMEOUT_MS = 3_000;

/** How many executor addresses' trigger paths are remembered (the oldest is forgotten first). */
const MAX_REMEMBERED_ADDRESSES = 10_000;

export interface HttpExecutorTransportOptions {
  /** The token for a group's executors: its own, or the global one. A throw fails the call. */
  readonly accessToken: (appName: string) => Promise<string> | string;
  /** Per call, connect + response together. Default 3 s. */
  readonly timeoutMs?: number;
  /** How requests are sent; node:http with keep-alive by default. */
  readonly post?: HttpPost;
}

/**
 * The admin → executor half of the XXL-JOB protocol over HTTP: `POST {address}{beat|idleBeat|run|kill|log}`
 * with a JSON body, the access-token header and the `XXL-JOB-APPNAME` header, as XXL-JOB's
 * `ExecutorBizClient` calls it. Any non-200 status, an unparseable body, a network error or a timeout
 * becomes a `code: 500` reply whose msg says what happened and for which URL; the payload is read as
 * `content ?? data` (≤ 3.2 / ≥ 3.3).
 *
 * Two generations of executor take triggers on different paths: `/run` up to XXL-JOB 3.4, `/trigger`
 * from 3.5. A trigger goes to the path last seen to work at that address (`/run` at first); an
 * executor that answers "uri-mapping(/run) not found." ran nothing, so the trigger is sent once more
 * on the other path, and the path that worked is remembered for the address.
 */
export class HttpExecutorTransport implements ExecutorTransport {
  private readonly timeoutMs: number;
  private readonly post: HttpPost;
  /** The trigger path each address answered on, by address. */
  private readonly triggerPaths = new Map<string, TriggerPath>();

  constructor(private readonly options: HttpExecutorTransportOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EXECUTOR_TIMEOUT_MS;
    this.post = options.post ?? nodeHttpPost;
  }

  async run(target: ExecutorTarget, param: TriggerParam): Promise<ReturnT<unknown>> {
    const known = this.triggerPaths.get(target.address);
    const first = known ?? EXECUTOR_PATH.run;
    const reply = await this.call(target, first, param);
    if (!isPathNotFound(reply, first)) return reply;
    // Not run (the executor did not know the path): the other generation's path, once.
    const other = first === EXECUTOR_PATH.run ? EXECUTOR_PATH.trigger : EXECUTOR_PATH.run;
    const retried = await this.call(target, other, param);
    if (!isPathNotFound(retried, other)) this.remember(target.address, other);
    return retried;
  }

  /** The trigger path last seen to work at `address`, if any (`/run` is tried first otherwise). */
  triggerPathOf(address: string): TriggerPath | undefined {
    return this.triggerPaths.get(address);
  }

  beat(target: ExecutorTarget): Promise<ReturnT<unknown>> {
    return this.call(target, EXECUTOR_PATH.beat, undefined);
  }

  idleBeat(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>> {
    const body: IdleBeatParam = { jobId };
    return this.call(target, EXECUTOR_PATH.idleBeat, body);
  }

  kill(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>> {
    const body: KillParam = { jobId };
    return this.call(target, EXECUTOR_PATH.kill, body);
  }

  log(
    target: ExecutorTarget,
    logDateTime: number,
    logId: number,
    fromLineNum: number,
  ): Promise<ReturnT<LogResult>> {
    // Both spellings: `logDateTim` (sic) for XXL-JOB ≤ 3.4, `logDateTime` for 3.5; each reads its own
    // and ignores the other (a missing one would send it to the 1970-01-01 log folder).
    const body: LogParam = { logDateTim: logDateTime, logId, fromLineNum, logDateTime };
    return this.call(target, EXECUTOR_PATH.log, body) as Promise<ReturnT<LogResult>>;
  }

  private remember(address: string, path: TriggerPath): void {
    this.triggerPaths.delete(address);
    this.triggerPaths.set(address, path);
    if (this.triggerPaths.size > MAX_REMEMBERED_ADDRESSES) {
      this.triggerPaths.delete(this.triggerPaths.keys().next().value as string);
    }
  }

  private async call(target: ExecutorTarget, path: ExecutorPath, body: unknown): Promise<ReturnT<unknown>> {
    const url = executorUrl(target.address, path);
    let token: string;
    try {
      token = await this.options.accessToken(target.appName);
    } catch (err) {
      // Fail closed: without the group's token nothing is sent.
      return {
        code: FAIL_CODE,
        msg: `the access token of group ${target.appName} cannot be read (${describeError(err, this.timeoutMs)}); nothing was sent to ${url}`,
      };
    }
    let status: number;
    let text: string;
    try {
      const response = await this.post(
        url,
        {
          'Content-Type': REQUEST_CONTENT_TYPE,
          ...(token ? { [ACCESS_TOKEN_HEADER]: token } : {}),
          [APPNAME_HEADER]: target.appName,
        },
        body === undefined ? '' : JSON.stringify(body),
        this.timeoutMs,
      );
      status = response.status;
      text = response.text;
    } catch (err) {
      return {
        code: FAIL_CODE,
        msg: `xxl-job remoting error(${describeError(err, this.timeoutMs)}), for url : ${url}`,
      };
    }
    if (status !== 200) {
      return {
        code: FAIL_CODE,
        msg: `xxl-job remoting fail, StatusCode(${status}) invalid. for url : ${url}`,
      };
    }
    return parseReply(text, url);
  }
}

/** XXL-JOB's "invalid request, uri-mapping(" and ") not found.", around the uri. */
const [URI_NOT_FOUND_BEFORE = '', URI_NOT_FOUND_AFTER = ''] = MSG.uriNotFound('\u0000').split('\u0000');

/**
 * An executor's answer that it has no handler for `path` (and so did nothing): XXL-JOB's
 * "uri-mapping(/run) not found.", the uri as the executor saw it (behind a proxy, with its prefix).
 */
function isPathNotFound(reply: ReturnT<unknown>, path: string): boolean {
  const msg = reply.msg;
  if (reply.code === 200 || !msg?.startsWith(URI_NOT_FOUND_BEFORE) || !msg.endsWith(URI_NOT_FOUND_AFTER)) {
    return false;
  }
  return msg.slice(URI_NOT_FOUND_BEFORE.length, msg.length - URI_NOT_FOUND_AFTER.length).endsWith(path);
}

/** `{address}{path}`, with exactly one `/` between (`http://host:9999` or `http://host:9999/` → `http://host:9999/run`). */
export function executorUrl(address: string, path: string): string {
  return `${address.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function parseReply(text: string, url: string): ReturnT<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      code: FAIL_CODE,
      msg: `xxl-job remoting fail, the response is not JSON: ${snippet(text)}. for url : ${url}`,
    };
  }
  try {
    return readReturnT(parsed);
  } catch (err) {
    const why = err instanceof ProtocolError ? err.message : String(err);
    return { code: FAIL_CODE, msg: `xxl-job remoting fail, ${why}: ${snippet(text)}. for url : ${url}` };
  }
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
