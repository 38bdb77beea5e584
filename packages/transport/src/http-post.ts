import http from 'node:http';
import https from 'node:https';

export interface PostResult {
  readonly status: number;
  readonly text: string;
}

/** POSTs `body` and reads the whole answer; rejects on a network error or after `timeoutMs` overall. */
export type HttpPost = (
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
) => Promise<PostResult>;

// Kept-alive connections: a dispatcher sends a second's fires to the same executors at once, and a
// warm Lambda sends the next second's to them again. (fetch costs several times more CPU per call.)
// Idle sockets are dropped after 4 s, before a Node server's default 5 s keep-alive timeout.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 }),
};

/**
 * An HttpPost on node:http(s) with keep-alive agents; redirects are not followed. A kept-alive
 * connection the server closed meanwhile (idle timeout, or a Lambda frozen between invocations)
 * fails with ECONNRESET before any answer: that one is tried again once on a new connection, as
 * Node's documentation advises.
 */
export const nodeHttpPost: HttpPost = (url, headers, body, timeoutMs) =>
  postOnce(url, headers, body, timeoutMs).catch((err: Error & { reusedSocket?: boolean; code?: string }) => {
    if (err.reusedSocket && err.code === 'ECONNRESET') return postOnce(url, headers, body, timeoutMs);
    throw err;
  });

function postOnce(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
): Promise<PostResult> {
  return new Promise<PostResult>((resolve, reject) => {
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const agent = agents[target.protocol as keyof typeof agents];
    const request = client.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', fail);
      },
    );
    function fail(err: Error) {
      clearTimeout(timer);
      reject(Object.assign(err, { reusedSocket: request.reusedSocket }));
    }
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { name: 'TimeoutError' }));
    }, timeoutMs);
    request.on('error', fail);
    request.end(body);
  });
}
