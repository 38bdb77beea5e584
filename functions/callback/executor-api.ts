import { ACCESS_TOKEN_HEADER, MSG } from '@tickring/protocol';
import { isAppError } from '../../shared/domain/errors.js';
import { constantTimeEquals } from '../../shared/http/auth.js';
import type { HttpRequest } from '../../shared/http/request.js';
import {
  callbackReply,
  parseCallbackBody,
  processCallbacks,
} from '../../shared/use-cases/executor-callbacks.js';
import { parseRegistration, registerExecutor, removeExecutor } from '../../shared/use-cases/registry.js';
import type { CallbackDeps } from './deps.js';

/** XXL-JOB's envelope (`ReturnT` / `Response`); `msg` is omitted when absent, as Gson does. */
export interface XxlReply {
  readonly code: number;
  readonly msg?: string;
}

export const REPLY = {
  ok: { code: 200 },
  methodNotSupported: { code: 500, msg: MSG.methodNotSupported },
  wrongToken: { code: 500, msg: MSG.wrongToken },
  uriNotFound: (uri: string): XxlReply => ({ code: 500, msg: MSG.uriNotFound(uri) }),
  bodyEmpty: { code: 500, msg: 'requestBody empty.' },
  notJson: { code: 500, msg: 'invalid request, requestBody is not valid JSON.' },
  internal: { code: 500, msg: 'the request could not be processed; send it again later.' },
} as const satisfies Record<string, XxlReply | ((uri: string) => XxlReply)>;

const TOKEN_HEADER = ACCESS_TOKEN_HEADER.toLowerCase();

/** `/api/{uri}` or `/xxl-job-admin/api/{uri}` → `{uri}`. */
export function executorApiUri(path: string): string {
  const match = /^(?:\/xxl-job-admin)?\/api\/(.*)$/.exec(path);
  return match ? (match[1] ?? '') : path.replace(/^\/+/, '');
}

/**
 * The executor-facing admin API, checked in XXL-JOB's order (method, token, uri, body): every
 * answer is an envelope (HTTP 200 always). The token is compared in constant time and fails
 * closed: a missing or wrong header, or a token that cannot be read, refuses the request.
 */
export async function handleExecutorRequest(
  deps: Pick<CallbackDeps, 'outcome' | 'registry' | 'logger' | 'accessToken' | 'flushReports'>,
  req: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'rawBody'>,
): Promise<XxlReply> {
  if (req.method !== 'POST') return REPLY.methodNotSupported;
  if (!(await tokenMatches(deps, req.headers[TOKEN_HEADER]))) return REPLY.wrongToken;
  const uri = executorApiUri(req.path);
  if (uri !== 'callback' && uri !== 'registry' && uri !== 'registryRemove') return REPLY.uriNotFound(uri);
  if (req.rawBody.trim() === '') return REPLY.bodyEmpty;
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody);
  } catch {
    return REPLY.notJson;
  }
  try {
    if (uri === 'callback') {
      try {
        return callbackReply(await processCallbacks(deps.outcome, parseCallbackBody(body)));
      } finally {
        // Before the answer: a result the executor saw taken has its counters written.
        await deps.flushReports();
      }
    }
    const registration = parseRegistration(body);
    if (uri === 'registry') await registerExecutor(deps.registry, registration);
    else await removeExecutor(deps.registry, registration);
    return REPLY.ok;
  } catch (err) {
    if (isAppError(err) && err.status < 500) return { code: 500, msg: err.message };
    deps.logger.error('executor request failed', {
      uri,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    return REPLY.internal;
  }
}

async function tokenMatches(deps: Pick<CallbackDeps, 'accessToken' | 'logger'>, given: string | undefined) {
  let expected: string;
  try {
    expected = await deps.accessToken();
  } catch (err) {
    deps.logger.error('access token unavailable, refusing executor requests', { error: String(err) });
    return false;
  }
  return given !== undefined && expected !== '' && constantTimeEquals(given, expected);
}
