import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { HTTP_ROUTES } from '@tickring/aws/topology';
import { ASSET_CACHE_CONTROL, CONSOLE_HEADERS, INDEX_CACHE_CONTROL } from '@tickring/console/headers';
import type { LocalRoute } from './http-gateway.js';

/** Content types of what Vite writes into the console's dist directory. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** Vite's content-hashed output: safe to cache for good. */
const HASHED_PREFIX = '/assets/';

/**
 * The path prefixes the HTTP API owns (`/v1/`, `/api/`, `/xxl-job-admin/api/`), from the route table the
 * gateway and API Gateway both use. A path under one of them, or the bare prefix (`/v1`), is never
 * the console's: an unknown API path stays a JSON 404, not the console's index.html.
 */
export const API_PATH_PREFIXES: readonly string[] = HTTP_ROUTES.map((route) =>
  (route.routeKey.split(' ')[1] ?? '').replace('{proxy+}', ''),
);

export function isApiPath(pathname: string): boolean {
  return API_PATH_PREFIXES.some((prefix) => pathname === prefix.slice(0, -1) || pathname.startsWith(prefix));
}

export interface ConsoleAssetsOptions {
  /** The built console (index.html, assets/, favicon.svg). */
  readonly distDir: string;
}

/** What a console path names: a file of the dist directory, or nothing the console may serve. */
type Resolved =
  | { readonly kind: 'file'; readonly file: string; readonly urlPath: string }
  | { readonly kind: 'index' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * The web console on the gateway's port, as a local route: GET and HEAD of any path outside the
 * HTTP API's prefixes. A file of the dist directory is served with its content type, the console's
 * security headers (CSP and co., `@tickring/console/headers`, the ones CloudFront adds on AWS) and its
 * cache policy (hashed `/assets/*` immutable, everything else revalidated); a path without an
 * extension that names no file is a client-side route and gets index.html; a missing file with an
 * extension is 404; a path that tries to leave the directory (`..`, encoded or not, backslashes, NUL)
 * is refused (400). Until the console is built (no index.html) every console path answers 503.
 *
 * The files are read on each request, so a rebuild shows without a restart. It is a local route, so
 * it serves whatever the stack's readiness: the console is static, and shows its own "not ready"
 * while /v1 answers 503.
 */
export function consoleAssetsRoute(options: ConsoleAssetsOptions): LocalRoute {
  const distDir = options.distDir;
  return async (req, _body, res) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const rawPath = (req.url ?? '/').split(/[?#]/, 1)[0] ?? '/';
    if (!rawPath.startsWith('/')) return false;
    // The API's own namespace is never the console's, whatever the encoding says.
    if (isApiPath(rawPath) || isApiPath(safeDecode(rawPath) ?? rawPath)) return false;

    const index = join(distDir, 'index.html');
    if (!(await isFile(index))) {
      sendText(req, res, 503, 'The tickring console is not built: run `npm run build`, then reload.\n');
      return true;
    }
    const resolved = await resolveConsolePath(distDir, rawPath);
    switch (resolved.kind) {
      case 'refused':
        sendText(req, res, 400, `Bad request: ${resolved.reason}\n`);
        return true;
      case 'missing':
        sendText(req, res, 404, `Not found: ${rawPath}\n`);
        return true;
      case 'index':
        await sendFile(req, res, index, INDEX_CACHE_CONTROL);
        return true;
      case 'file':
        await sendFile(
          req,
          res,
          resolved.file,
          resolved.urlPath.startsWith(HASHED_PREFIX) ? ASSET_CACHE_CONTROL : INDEX_CACHE_CONTROL,
        );
        return true;
    }
  };
}

/**
 * Maps a request path to what the console serves for it, never to anything outside `distDir`: the
 * path is decoded once, and a `.` or `..` segment, a backslash or a NUL (raw or encoded) refuses it;
 * the file found must then lie inside the directory, symlinks resolved.
 */
export async function resolveConsolePath(distDir: string, rawPath: string): Promise<Resolved> {
  const decoded = safeDecode(rawPath);
  if (decoded === undefined) return { kind: 'refused', reason: 'malformed percent-encoding' };
  if (decoded.includes('\0')) return { kind: 'refused', reason: 'NUL in the path' };
  if (decoded.includes('\\')) return { kind: 'refused', reason: 'backslash in the path' };
  const segments = decoded.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..')) {
    return { kind: 'refused', reason: 'dot segment in the path' };
  }
  const file = join(distDir, ...segments);
  const inside = relative(distDir, file);
  if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    return { kind: 'refused', reason: 'outside the console' };
  }
  if (inside !== '' && (await isFile(file))) {
    // A symlink in dist/ pointing elsewhere is not followed out of it.
    const [realFile, realDist] = await Promise.all([realpath(file), realpath(distDir)]);
    const realInside = relative(realDist, realFile);
    if (realInside.startsWith(`..${sep}`) || isAbsolute(realInside)) {
      return { kind: 'refused', reason: 'outside the console' };
    }
    return { kind: 'file', file, urlPath: `/${segments.join('/')}` };
  }
  const last = segments[segments.length - 1] ?? '';
  // A client-side route (/jobs/7, /runs) has no extension; a missing /assets/x.js is a real 404.
  return extname(last) === '' ? { kind: 'index' } : { kind: 'missing' };
}

function safeDecode(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function setConsoleHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) res.setHeader(name, value);
}

async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  cacheControl: string,
): Promise<void> {
  let content: Buffer;
  let mtimeMs: number;
  try {
    [content, { mtimeMs }] = await Promise.all([readFile(file), stat(file)]);
  } catch {
    // Gone between the check and the read (a rebuild in progress).
    sendText(req, res, 404, 'Not found\n');
    return;
  }
  const etag = `W/"${content.length.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  setConsoleHeaders(res);
  res.setHeader('cache-control', cacheControl);
  res.setHeader('etag', etag);
  res.setHeader('content-type', CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('content-length', content.length);
  res.end(req.method === 'HEAD' ? undefined : content);
}

function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  setConsoleHeaders(res);
  res.statusCode = status;
  res.setHeader('content-type', 'text/plain; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(req.method === 'HEAD' ? undefined : text);
}
