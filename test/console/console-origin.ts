import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';

/**
 * Where the browser opens the console: the local stack's own port, which serves the built console
 * (console/dist) at `/` beside `/v1` (same origin, the console's CSP and headers), as `npm start` does.
 */
export interface ConsoleOrigin {
  /** The console's base URL (no trailing slash), also the API's origin as the browser sees it. */
  readonly url: string;
  readonly distDir: string;
}

export async function consoleOrigin(apiBase: string): Promise<ConsoleOrigin> {
  const distDir = CONSOLE_DIST_DIR;
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error(
      `the console is not built (${join(distDir, 'index.html')} is missing): run \`npm run build\` ` +
        '(`npm test` builds it first).',
    );
  }
  const res = await fetch(`${apiBase}/`);
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (res.status !== 200 || !type.startsWith('text/html')) {
    throw new Error(`the stack does not serve the console at /: ${res.status} ${type} ${text.slice(0, 200)}`);
  }
  return { url: apiBase, distDir };
}

export interface BundleSize {
  readonly files: { readonly name: string; readonly raw: number; readonly gzip: number }[];
  readonly raw: number;
  readonly gzip: number;
}

/** The built bundle: every file of dist/assets, raw and gzipped (zlib, default level). */
export async function bundleSize(distDir: string): Promise<BundleSize> {
  const dir = join(distDir, 'assets');
  const files: BundleSize['files'][number][] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    if (!(await stat(path)).isFile()) continue;
    const content = await readFile(path);
    files.push({ name, raw: content.length, gzip: gzipSync(content).length });
  }
  return {
    files,
    raw: files.reduce((sum, f) => sum + f.raw, 0),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
  };
}
