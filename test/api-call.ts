import { checked } from './openapi-check.js';

/** A stack's API and its admin token (an EmbeddedLocalStack, a LocalStack). */
export interface ApiTarget {
  readonly urls: { readonly api: string };
  readonly tokens: { readonly adminToken: string };
}

/**
 * Calls the stack's API as its admin, JSON in and out, each answer checked against openapi.json.
 * `target` is read at each call (the stack is started in a beforeAll).
 */
export function adminApiCaller(target: () => ApiTarget) {
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const { urls, tokens } = target();
    const headers: Record<string, string> = { authorization: `Bearer ${tokens.adminToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${urls.api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return checked(method, path, {
      status: res.status,
      headers: res.headers,
      body: text ? JSON.parse(text) : undefined,
    });
  };
}
