import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ASSET_CACHE_CONTROL,
  CONSOLE_HEADERS,
  CONTENT_SECURITY_POLICY,
  INDEX_CACHE_CONTROL,
} from '@tickring/console/headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAssetsRoute, isApiPath, resolveConsolePath } from './console-assets.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12.js"></script></head></html>';
const SCRIPT = 'console.log("tickring");';
const STYLE = 'body{margin:0}';
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';
const SECRET = 'TOP-SECRET-beside-dist';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with the path exactly as written (fetch would normalise `..` and `%2e%2e` away). */
function raw(
  port: number,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The route alone on a server; what it declines is answered 418, so a decline is visible. */
async function serve(distDir: string): Promise<{ server: Server; port: number }> {
  const route = consoleAssetsRoute({ distDir });
  const server = createServer((req, res) => {
    void route(req, Buffer.alloc(0), res).then((handled) => {
      if (!handled) {
        res.statusCode = 418;
        res.end('declined');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

function expectConsoleHeaders(answer: Answer): void {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) expect(answer.headers[name], name).toBe(value);
  expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
}

describe('console assets (a built dist directory)', () => {
  let root: string;
  let dist: string;
  let port: number;
  let server: Server;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tickring-console-'));
    dist = join(root, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'favicon.svg'), FAVICON);
    writeFileSync(join(dist, 'assets', 'index-Ab12.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'index-Cd34.css'), STYLE);
    writeFileSync(join(dist, 'assets', 'font-Ef56.woff2'), 'wOF2');
    // Beside dist/, with a name a traversal would reach.
    writeFileSync(join(root, 'secret.txt'), SECRET);
    symlinkSync(join(root, 'secret.txt'), join(dist, 'linked.txt'));
    ({ server, port } = await serve(dist));
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    rmSync(root, { recursive: true, force: true });
  });

  it('serves index.html at / with the CSP and security headers, never cached', async () => {
    const answer = await raw(port, '/');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(INDEX);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe(INDEX_CACHE_CONTROL);
    expectConsoleHeaders(answer);
    expect((await raw(port, '/index.html')).body).toBe(INDEX);
  });

  it.each([
    ['/assets/index-Ab12.js', 'text/javascript; charset=utf-8', SCRIPT],
    ['/assets/index-Cd34.css', 'text/css; charset=utf-8', STYLE],
    ['/assets/font-Ef56.woff2', 'font/woff2', 'wOF2'],
  ])('serves the hashed asset %s as %s, immutable', async (path, type, body) => {
    const answer = await raw(port, path);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(body);
    expect(answer.headers['content-type']).toBe(type);
    expect(answer.headers['cache-control']).toBe(ASSET_CACHE_CONTROL);
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expectConsoleHeaders(answer);
  });

  it('serves the unhashed favicon as SVG, revalidated (not immutable)', async () => {
    const answer = await raw(port, '/favicon.svg');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/svg+xml');
    expect(answer.headers['cache-control']).toBe(INDEX_CACHE_CONTROL);
  });

  it.each(['/jobs/7', '/runs?status=fail', '/jobs/7/edit', '/assets', '/settings/'])(
    'answers the client-side route %s with index.html',
    async (path) => {
      const answer = await raw(port, path);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(INDEX);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe(INDEX_CACHE_CONTROL);
      expectConsoleHeaders(answer);
    },
  );

  it.each(['/assets/index-old.js', '/missing.css', '/jobs/7.json'])(
    'answers the missing file %s (it has an extension) 404, not index.html',
    async (path) => {
      const answer = await raw(port, path);
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain('<html');
      expectConsoleHeaders(answer);
    },
  );

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await raw(port, '/assets/index-Ab12.js', 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expectConsoleHeaders(answer);
  });

  it('answers a revalidation with the same ETag 304', async () => {
    const first = await raw(port, '/');
    const etag = String(first.headers.etag);
    const again = await raw(port, '/', 'GET', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/..\\secret.txt',
    '/%5c..%5csecret.txt',
    '/index.html%00.js',
    '/%00',
    '/./index.html',
    '/%E0%A4%A',
    '/linked.txt',
  ])('refuses %s and never answers with a file outside the dist directory', async (path) => {
    const answer = await raw(port, path);
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain(SECRET);
    expectConsoleHeaders(answer);
  });

  it.each([
    ['/v1', 'GET'],
    ['/v1/', 'GET'],
    ['/v1/groups', 'GET'],
    ['/api/registry', 'GET'],
    ['/api', 'GET'],
    ['/xxl-job-admin/api/callback', 'GET'],
    ['/%761/groups', 'GET'],
    ['/', 'POST'],
    ['/jobs/7', 'DELETE'],
  ])('leaves %s %s to the API (declines it)', async (path, method) => {
    expect((await raw(port, path, method)).status).toBe(418);
  });

  it('knows the API paths from the route table', () => {
    expect(isApiPath('/v1')).toBe(true);
    expect(isApiPath('/v1/jobs/7')).toBe(true);
    expect(isApiPath('/api/callback')).toBe(true);
    expect(isApiPath('/xxl-job-admin/api/registry')).toBe(true);
    expect(isApiPath('/v10')).toBe(false);
    expect(isApiPath('/apis')).toBe(false);
    expect(isApiPath('/jobs')).toBe(false);
  });

  it('resolves a path to a file only inside the directory', async () => {
    expect(await resolveConsolePath(dist, '/assets/index-Ab12.js')).toEqual({
      kind: 'file',
      file: join(dist, 'assets', 'index-Ab12.js'),
      urlPath: '/assets/index-Ab12.js',
    });
    expect(await resolveConsolePath(dist, '//assets//index-Ab12.js')).toMatchObject({ kind: 'file' });
    expect(await resolveConsolePath(dist, '/')).toEqual({ kind: 'index' });
    expect(await resolveConsolePath(dist, '/%2e%2e')).toMatchObject({ kind: 'refused' });
  });
});

describe('console assets (not built)', () => {
  it('answers every console path 503, saying to run npm run build; the API paths stay the API’s', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'tickring-console-empty-'));
    const { server, port } = await serve(dist);
    try {
      for (const path of ['/', '/jobs/7', '/assets/index-Ab12.js']) {
        const answer = await raw(port, path);
        expect(answer.status, path).toBe(503);
        expect(answer.body).toContain('npm run build');
        expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
        expectConsoleHeaders(answer);
      }
      expect((await raw(port, '/', 'HEAD')).status).toBe(503);
      expect((await raw(port, '/v1/groups')).status).toBe(418);
    } finally {
      await new Promise((r) => server.close(r));
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
