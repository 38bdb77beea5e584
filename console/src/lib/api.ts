import {
  createClient,
  TickringApiError,
  type TickringClient,
  TickringConnectionError,
} from '@tickring/client';

// The console's one door to the scheduler: the typed client of /v1, on the page's own origin. The
// token lives in sessionStorage (this tab only, gone when it closes), never in a URL or a cookie.
const TOKEN_KEY = 'tickring.token';

let client: TickringClient | undefined;
let token: string | undefined = readStoredToken();
const signedOutListeners = new Set<() => void>();

function readStoredToken(): string | undefined {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function currentToken(): string | undefined {
  return token;
}

export function setToken(value: string | undefined): void {
  token = value;
  client = undefined;
  try {
    if (value === undefined) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, value);
  } catch {
    // Storage may be off (private mode): the token then lives in memory for this page only.
  }
}

/** Called when the API answers 401 to a signed-in call: the session ended (idle, revoked, rotated). */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** A fetch that notices a 401 on a signed-in call and signs the console out. */
const watchingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.status === 401 && token !== undefined) {
    setToken(undefined);
    for (const listener of signedOutListeners) listener();
  }
  return response;
};

export function api(): TickringClient {
  if (!client) {
    client = createClient({
      baseUrl: window.location.origin,
      ...(token === undefined ? {} : { token }),
      fetch: watchingFetch,
      timeoutMs: 20_000,
    });
  }
  return client;
}

/** What to show for a failed call: the server's own message (and its field problems), or why it did not answer. */
export interface ShownError {
  readonly status?: number;
  readonly message: string;
  readonly field?: string;
  readonly problems: readonly { readonly field?: string; readonly message: string }[];
}

export function describeError(err: unknown): ShownError {
  if (err instanceof TickringApiError) {
    const problems = (err.problems ?? []).map((p) => ({
      ...(p.field === undefined ? {} : { field: p.field }),
      message: p.message,
    }));
    return {
      status: err.status,
      message: err.message,
      ...(err.field === undefined ? {} : { field: err.field }),
      problems,
    };
  }
  if (err instanceof TickringConnectionError) {
    return { message: `tickring did not answer: ${err.message}`, problems: [] };
  }
  return { message: err instanceof Error ? err.message : String(err), problems: [] };
}
