import type { HttpRequest } from '@tickring/api/http';
import { isAppError, StoreUnavailableError } from '@tickring/core/common';
import type { RefusalReason } from '@tickring/core/executors';
import type { ExecutorRefusalEvent, ExecutorRequestScope } from '@tickring/core/executors/use-cases';
import { type Registration, registerExecutor, removeExecutor } from '@tickring/core/executors/use-cases';
import { callbackReply, processCallbacks, toCallbackItems } from '@tickring/core/runs/use-cases';
import {
  ACCESS_TOKEN_HEADER,
  type AdminApiName,
  APPNAME_HEADER,
  adminApiName,
  isAdminApiName,
  MSG,
  ProtocolError,
  parseCallbackRequest,
  parseRegistryParam,
  REGISTRY_LIMITS,
  type ReturnT,
} from '@tickring/protocol';
import type { CallbackDeps } from './deps.js';

export const REPLY = {
  ok: { code: 200 },
  methodNotSupported: { code: 500, msg: MSG.methodNotSupported },
  wrongToken: { code: 500, msg: MSG.wrongToken },
  uriNotFound: (uri: string): ReturnT => ({ code: 500, msg: MSG.uriNotFound(uri) }),
  bodyEmpty: { code: 500, msg: MSG.bodyEmpty },
  notJson: { code: 500, msg: 'invalid request, requestBody is not valid JSON.' },
  internal: { code: 500, msg: 'the request could not be processed; send it again later.' },
} as const satisfies Record<string, ReturnT | ((uri: string) => ReturnT)>;

/** `/api/{uri}` or `/xxl-job-admin/api/{uri}` → `{uri}`. */
export const executorApiUri = adminApiName;

type ParsedBody =
  | { readonly uri: 'callback'; readonly items: ReturnType<typeof toCallbackItems> }
  | { readonly uri: 'registry' | 'registryRemove'; readonly registration: Registration };

/**
 * The executor-facing admin API, checked in XXL-JOB's order (method, token present, uri, body, and
 * then the token against the group(s) the request speaks for): every answer is an envelope (HTTP
 * 200 always). Tokens fail closed: a missing or wrong token, or one that cannot be read, refuses
 * the request; a group with a token of its own accepts only that one (see `executorAuthorizer`).
 * A refusal on one of the three paths is recorded (`recordRefusal`: counted per app name, address
 * and reason, and logged); a wrong method or path is no executor's request and is not.
 */
export async function handleExecutorRequest(
  deps: Pick<
    CallbackDeps,
    'outcome' | 'registry' | 'logger' | 'authorize' | 'flushReports' | 'recordRefusal'
  >,
  req: Pick<HttpRequest, 'method' | 'path' | 'headers' | 'rawBody' | 'sourceIp'>,
): Promise<ReturnT> {
  if (req.method !== 'POST') return REPLY.methodNotSupported;
  const credentials = {
    token: req.headers[ACCESS_TOKEN_HEADER.toLowerCase()],
    appName: req.headers[APPNAME_HEADER.toLowerCase()],
  };
  const uri = executorApiUri(req.path);
  const refuse = async (reply: ReturnT, reason: RefusalReason): Promise<ReturnT> => {
    if (isAdminApiName(uri))
      await recordRefusal(deps, refusalOf(uri, req, credentials.appName, reply, reason));
    return reply;
  };
  if (!credentials.token) {
    return refuse(
      { code: 500, msg: credentials.appName ? MSG.tokenOrAppNameEmpty : MSG.wrongToken },
      'missing-token',
    );
  }
  let parsed: ParsedBody | ReturnT;
  if (!isAdminApiName(uri)) parsed = REPLY.uriNotFound(uri);
  else if (req.rawBody.trim() === '') parsed = REPLY.bodyEmpty;
  else {
    try {
      parsed = parseBody(uri, JSON.parse(req.rawBody));
    } catch (err) {
      parsed = err instanceof SyntaxError ? REPLY.notJson : invalid(uri, err);
    }
  }
  try {
    // A request that names no group (a bad one) is checked against the header's group, or the
    // global token: a wrong token is refused before anything is said about the request.
    const scope: ExecutorRequestScope =
      'code' in parsed
        ? { kind: 'callback', logIds: [] }
        : parsed.uri === 'callback'
          ? { kind: 'callback', logIds: parsed.items.map((item) => item.logId) }
          : { kind: 'registry', appName: parsed.registration.registryKey };
    const refusal = await deps.authorize(credentials, scope);
    if (refusal !== undefined) return await refuse({ code: 500, msg: refusal.msg }, refusal.reason);
    if ('code' in parsed) return await refuse(parsed, 'malformed-request');
    if (parsed.uri === 'callback') {
      try {
        return callbackReply(await processCallbacks(deps.outcome, parsed.items));
      } finally {
        // Before the answer: a result the executor saw taken has its counters written.
        await deps.flushReports();
      }
    }
    if (parsed.uri === 'registry') await registerExecutor(deps.registry, parsed.registration);
    else await removeExecutor(deps.registry, parsed.registration);
    return REPLY.ok;
  } catch (err) {
    if (isAppError(err) && err.status < 500) return { code: 500, msg: err.message };
    if (err instanceof StoreUnavailableError) {
      // A full disk: the executor is told why, keeps its results and sends them again.
      deps.logger.warn('executor request refused: the store cannot take writes', { uri, error: err.message });
      return { code: 500, msg: err.message };
    }
    deps.logger.error('executor request failed', {
      uri,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    return REPLY.internal;
  }
}

/** Records a refusal; never fails the request (the recorder logs its own failures). */
async function recordRefusal(
  deps: Pick<CallbackDeps, 'recordRefusal' | 'logger'>,
  event: ExecutorRefusalEvent,
): Promise<void> {
  try {
    await deps.recordRefusal(event);
  } catch (err) {
    deps.logger.error('refused executor request not recorded', { error: String(err) });
  }
}

/**
 * Who a refused request came from, as far as it says: a registration's app name and address from
 * its body, even one otherwise refused; else the `XXL-JOB-APPNAME` header and the address the
 * request came from. Cut to the registry's limits, so a made-up key stays small.
 */
function refusalOf(
  uri: AdminApiName,
  req: Pick<HttpRequest, 'rawBody' | 'sourceIp'>,
  header: string | undefined,
  reply: ReturnT,
  reason: RefusalReason,
): ExecutorRefusalEvent {
  let body: unknown;
  if (uri !== 'callback') {
    try {
      body = JSON.parse(req.rawBody);
    } catch {
      body = undefined;
    }
  }
  const field = (name: 'registryKey' | 'registryValue'): string | undefined => {
    const value =
      body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  return {
    request: uri,
    appName: (field('registryKey') ?? header?.trim() ?? '').slice(0, REGISTRY_LIMITS.registryKey),
    address: (field('registryValue') ?? req.sourceIp).slice(0, REGISTRY_LIMITS.registryValue),
    reason,
    detail: reply.msg ?? '',
  };
}

function parseBody(uri: AdminApiName, body: unknown): ParsedBody {
  if (uri === 'callback') return { uri, items: toCallbackItems(parseCallbackRequest(body)) };
  return { uri, registration: parseRegistryParam(body) };
}

/** A body the protocol refuses: XXL-JOB's words for a registry ("Illegal Argument."), else what is wrong. */
function invalid(uri: AdminApiName, err: unknown): ReturnT {
  if (!(err instanceof ProtocolError)) throw err;
  return { code: 500, msg: uri === 'callback' ? `invalid request, ${err.message}.` : err.message };
}
