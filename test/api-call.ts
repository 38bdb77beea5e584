import { checked } from './openapi-check.js';

/** A stack's API and its admin token (an EmbeddedLocalStack, a LocalStack). */
export interface ApiTarget {
  readonly urls: { readonly api: string };
  readonly tokens: { readonly adminToken: string };
}

/** An answer of the API: the status and the body (parsed JSON, or a text body as it came). */
export interface ApiReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  readonly body: any;
}

export interface ApiCallOptions {
  /** The bearer token; null: none is sent. */
  readonly token: string | null;
  /** More request headers (a user agent the audit log records). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Calls the API at `apiUrl`, JSON in, the answer checked against openapi.json: parsed JSON, or a
 * text answer (an iCalendar export) as it came.
 */
export async function callApi(
  apiUrl: string,
  method: string,
  path: string,
  body: unknown,
  options: ApiCallOptions,
): Promise<ApiReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return checked(method, path, {
    status: res.status,
    headers: res.headers,
    body: text ? (res.headers.get('content-type')?.startsWith('text/') ? text : JSON.parse(text)) : undefined,
  });
}

/**
 * Calls the stack's API as its admin (see `callApi`). `target` is read at each call (the stack is
 * started in a beforeAll).
 */
export function adminApiCaller(target: () => ApiTarget) {
  return (method: string, path: string, body?: unknown): Promise<ApiReply> => {
    const { urls, tokens } = target();
    return callApi(urls.api, method, path, body, { token: tokens.adminToken });
  };
}
