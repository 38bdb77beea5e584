/** The admin API (`/v1`) of a local stack, as the bench uses it: JSON in, JSON out, status checked. */
export interface AdminApi {
  /** Sends the request and returns the parsed body; throws when the status is not `status`. */
  expect<T = unknown>(status: number, method: string, path: string, body?: unknown): Promise<T>;
}

export function adminApi(baseUrl: string, adminToken: string): AdminApi {
  return {
    async expect<T>(status: number, method: string, path: string, body?: unknown): Promise<T> {
      const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      if (res.status !== status) {
        throw new Error(
          `${method} ${path} answered ${res.status} (expected ${status}): ${text.slice(0, 300)}`,
        );
      }
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
