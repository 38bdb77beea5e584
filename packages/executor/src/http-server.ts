import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  ACCESS_TOKEN_HEADER,
  EXECUTOR_PATH,
  EXECUTOR_RESPONSE_CONTENT_TYPE,
  FAIL_CODE,
  MSG,
  ProtocolError,
  parseJobIdParam,
  parseLogParam,
  parseTriggerParam,
  type ReturnT,
} from '@tickring/protocol';
import type { ExecutorService } from './executor-service.js';
import { type ExecutorLogger, errorText } from './logger.js';

/** Netty's HttpObjectAggregator limit in the Java executor. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface ProtocolServerOptions {
  /** Empty or undefined = no check (only reachable through `allowNoToken: true`). */
  accessToken?: string | undefined;
  logger: ExecutorLogger;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of the request's token with ours (`expected`: the digest of ours). */
function tokenMatches(expected: Buffer, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(expected, digest(given));
}

class BodyTooLargeError extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Empty body → `null` (what `/beat` gets); otherwise JSON. */
function parseJson(body: string): unknown {
  if (body.trim() === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    throw new ProtocolError('the body is not JSON.', 'body');
  }
}

/**
 * The executor's HTTP face, answering as the Java executor's embedded Netty server does: POST only,
 * token checked before routing, routes `/beat`, `/idleBeat`, `/run` and its 3.5 name `/trigger`,
 * `/kill`, `/log`, always HTTP 200 with a `ReturnT` JSON body. The `XXL-JOB-APPNAME` header a 3.5
 * admin adds is accepted and not checked: the token authenticates, and a MANUAL group may list an
 * executor under another group's name (XXL-JOB 3.5's own executor would refuse that).
 */
export function createProtocolServer(service: ExecutorService, opts: ProtocolServerOptions): Server {
  const token = opts.accessToken ?? '';
  const tokenDigest = digest(token);
  const route = async (req: IncomingMessage): Promise<ReturnT<unknown>> => {
    if (req.method !== 'POST') return { code: FAIL_CODE, msg: MSG.methodNotSupported };
    if (token !== '' && !tokenMatches(tokenDigest, req.headers[ACCESS_TOKEN_HEADER.toLowerCase()])) {
      return { code: FAIL_CODE, msg: MSG.wrongToken };
    }
    const uri = req.url ?? '';
    const body = await readBody(req);
    switch (uri) {
      case EXECUTOR_PATH.beat:
        return service.beat();
      case EXECUTOR_PATH.idleBeat:
        return service.idleBeat(parseJobIdParam(parseJson(body)).jobId);
      case EXECUTOR_PATH.run:
      case EXECUTOR_PATH.trigger:
        return service.run(parseTriggerParam(parseJson(body)));
      case EXECUTOR_PATH.kill:
        return service.kill(parseJobIdParam(parseJson(body)).jobId);
      case EXECUTOR_PATH.log:
        return service.log(parseLogParam(parseJson(body)));
      default:
        return { code: FAIL_CODE, msg: MSG.uriNotFound(uri) };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let answer: ReturnT<unknown>;
    try {
      answer = await route(req);
    } catch (err) {
      if (err instanceof ProtocolError) answer = { code: FAIL_CODE, msg: `invalid request, ${err.message}` };
      else if (err instanceof BodyTooLargeError)
        answer = { code: FAIL_CODE, msg: 'invalid request, body too large.' };
      else {
        opts.logger.error('executor request failed', { url: req.url, error: errorText(err) });
        answer = { code: FAIL_CODE, msg: 'request error: internal executor error.' };
      }
    }
    const json = JSON.stringify(answer);
    res.writeHead(200, {
      'Content-Type': EXECUTOR_RESPONSE_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
    if (!req.complete) req.resume();
  };

  return createServer((req, res) => void handle(req, res));
}
