import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHttpPost } from './http-post.js';

let server: Server;
let url: string;
/** Sockets that have answered once; the server resets them on their next request when asked to. */
const served = new WeakSet<Socket>();
let resetReused = false;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (resetReused && served.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ code: 200, msg: req.headers['x-probe'] })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('nodeHttpPost', () => {
  it('posts the body with the headers and reads the answer', async () => {
    const result = await nodeHttpPost(url, { 'x-probe': 'hello' }, '{"a":1}', 2_000);
    expect(result).toEqual({ status: 200, text: '{"code":200,"msg":"hello"}' });
  });

  it('tries again once on a new connection when a kept-alive one was reset before any answer', async () => {
    await nodeHttpPost(url, {}, '{}', 2_000); // leaves a kept-alive connection behind
    resetReused = true;
    requests = 0;
    try {
      const result = await nodeHttpPost(url, { 'x-probe': 'again' }, '{}', 2_000);
      expect(result.status).toBe(200);
      expect(requests).toBe(2); // the reset one, then the one on a new connection
    } finally {
      resetReused = false;
    }
  });

  it('gives up after the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      await expect(nodeHttpPost(`http://127.0.0.1:${port}/run`, {}, '{}', 200)).rejects.toThrow(
        'timed out after 200 ms',
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
