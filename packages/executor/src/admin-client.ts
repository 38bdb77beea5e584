import {
  ACCESS_TOKEN_HEADER,
  type AdminApiName,
  APPNAME_HEADER,
  adminApiUrl,
  SUCCESS_CODE,
} from '@tickring/protocol';

/**
 * Splits and checks admin base URLs (`http(s)://host[:port][/context]`, comma-separated or an array).
 * Throws a TypeError naming the bad entry.
 */
export function parseAdminAddresses(value: string | readonly string[]): string[] {
  const list = (typeof value === 'string' ? value.split(',') : [...value])
    .map((a) => a.trim())
    .filter(Boolean);
  if (list.length === 0) throw new TypeError('adminAddresses: at least one admin base URL is required');
  for (const address of list) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new TypeError(`adminAddresses: "${address}" is not a URL (expected e.g. http://127.0.0.1:8080)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`adminAddresses: "${address}" must be http or https`);
    }
    if (url.search || url.hash)
      throw new TypeError(`adminAddresses: "${address}" must not have a query or fragment`);
  }
  return list;
}

export interface AdminCallResult {
  ok: boolean;
  /** The admin that accepted the call. */
  address?: string;
  /** Why each admin failed, joined (for logs). */
  detail: string;
  /** `content ?? data` of the accepted answer. */
  payload?: unknown;
}

export interface AdminClientOptions {
  addresses: readonly string[];
  accessToken?: string | undefined;
  appName?: string | undefined;
  timeoutMs: number;
}

/**
 * Calls the admin's executor-facing API (`api/callback`, `api/registry`, `api/registryRemove`) on each
 * address in turn and stops at the first that answers HTTP 200 with `{"code":200}`.
 */
export class AdminClient {
  constructor(private readonly opts: AdminClientOptions) {}

  async call(name: AdminApiName, body: unknown): Promise<AdminCallResult> {
    const failures: string[] = [];
    const headers: Record<string, string> = { 'Content-Type': 'application/json;charset=UTF-8' };
    if (this.opts.accessToken) headers[ACCESS_TOKEN_HEADER] = this.opts.accessToken;
    if (this.opts.appName) headers[APPNAME_HEADER] = this.opts.appName;
    for (const address of this.opts.addresses) {
      try {
        const res = await fetch(adminApiUrl(address, name), {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        const text = await res.text();
        if (res.status !== 200) {
          failures.push(`${address}: HTTP ${res.status}`);
          continue;
        }
        const answer = parseEnvelope(text);
        if (answer?.code === SUCCESS_CODE)
          return { ok: true, address, detail: '', payload: answer.content ?? answer.data };
        failures.push(
          `${address}: ${answer ? `code ${answer.code} ${answer.msg ?? ''}`.trim() : 'unparseable answer'}`,
        );
      } catch (err) {
        failures.push(`${address}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return { ok: false, detail: failures.join('; ') };
  }
}

function parseEnvelope(
  text: string,
): { code: unknown; msg?: string; content?: unknown; data?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as { code: unknown }) : undefined;
  } catch {
    return undefined;
  }
}
