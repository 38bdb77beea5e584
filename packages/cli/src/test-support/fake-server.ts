/**
 * For unit tests: a fetch answering from a table of routes (`"POST /v1/sessions"`), keeping every
 * request it got (method, path, query, Authorization, JSON body).
 */

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly authorization: string | null;
  readonly body: unknown;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
}

export type Route = (req: SeenRequest) => Reply | Promise<Reply>;

export interface FakeServer {
  readonly fetch: typeof fetch;
  readonly seen: SeenRequest[];
}

/** Routes by `"METHOD /path"`; anything else answers 404. A route that throws makes fetch fail. */
export function fakeServer(routes: Readonly<Record<string, Route | Reply>>): FakeServer {
  const seen: SeenRequest[] = [];
  const fetchFn = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const req: SeenRequest = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: request.headers.get('authorization'),
      body: text === '' ? undefined : JSON.parse(text),
    };
    seen.push(req);
    const route = routes[`${req.method} ${req.path}`];
    const reply =
      route === undefined
        ? { status: 404, body: { error: 'NotFoundError', message: `no route ${req.method} ${req.path}` } }
        : typeof route === 'function'
          ? await route(req)
          : route;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetch: fetchFn, seen };
}
