import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Where a production box keeps its data when neither `--data-dir` nor TICKRING_DATA_DIR says. */
export const DEFAULT_DATA_DIR = '/var/lib/tickring';

export const SERVER_USAGE = `Usage:
  npm run server -- [--data-dir DIR] [--host ADDRESS] [--port N]   run the scheduler (until SIGTERM/SIGINT)
  npm run server -- backup FILE [--data-dir DIR]                   copy the database, also while it runs
  npm run server -- restore FILE [--data-dir DIR]                  put a backup in place (server stopped)
  (or npx tickring server|backup|restore ... inside the installation)

  --data-dir DIR   the data directory: tickring.db, tokens.json, the lock
                   (default TICKRING_DATA_DIR, else ${DEFAULT_DATA_DIR})
  --host ADDRESS   the IP address to listen on (default 127.0.0.1; put TLS in front with a reverse proxy)
  --port N         the HTTP port (default PORT, else 8080)
  --verbose        log every fire, not just triggers and results

Logs are JSON lines on stdout (one object per event). /health answers 503 while starting or
stopping and 200 when ready. The admin and access tokens are written on first start to
DIR/tokens.json (mode 0600), never logged. See docs/single-box.md.`;

export type ServerCommand =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'serve';
      readonly dataDir: string;
      readonly host: string;
      readonly port: number;
      readonly verbose: boolean;
    }
  | { readonly kind: 'backup' | 'restore'; readonly file: string; readonly dataDir: string };

/** Bad command-line input: `problems` names every one found. */
export class ServerUsageError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'ServerUsageError';
  }
}

/**
 * Reads the server's command line (without node and the script): a run of the server, a backup or a
 * restore, each checked whole; every problem at once in a ServerUsageError.
 */
export function parseServerArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  cwd = process.cwd(),
): ServerCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    // node:util names the one option it choked on ("Unknown option '--x'", "Option '--port <value>' argument missing").
    throw new ServerUsageError([err instanceof Error ? err.message : String(err)]);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  const problems: string[] = [];
  const [first, ...rest] = positionals;
  const kind = first === 'backup' || first === 'restore' ? first : 'serve';
  const dataDirText = values['data-dir'] ?? env.TICKRING_DATA_DIR ?? DEFAULT_DATA_DIR;
  if (dataDirText.trim() === '') problems.push('--data-dir must name a directory, got an empty value');
  const dataDir = resolve(cwd, dataDirText);

  if (kind === 'serve') {
    if (positionals.length > 0) {
      problems.push(
        `unknown command "${positionals.join(' ')}": use backup FILE, restore FILE, or no command to run the server`,
      );
    }
    const host = values.host ?? '127.0.0.1';
    if (isIP(host) === 0) {
      problems.push(
        `--host must be an IP address to listen on (127.0.0.1, ::1, 0.0.0.0 for every interface), got "${host}"`,
      );
    }
    const portText = values.port ?? env.PORT ?? '8080';
    const port = /^\d+$/.test(portText) ? Number(portText) : Number.NaN;
    if (!Number.isInteger(port) || port > 65535) {
      problems.push(`--port must be a port number (0-65535), got "${portText}"`);
    }
    if (problems.length > 0) throw new ServerUsageError(problems);
    return { kind, dataDir, host, port, verbose: values.verbose };
  }

  for (const option of ['host', 'port', 'verbose'] as const) {
    if (values[option] !== undefined && values[option] !== false) {
      problems.push(`--${option} is the server's option, not ${kind}'s`);
    }
  }
  if (rest.length === 0)
    problems.push(`${kind} needs a FILE: npm run server -- ${kind} FILE [--data-dir DIR]`);
  else if (rest.length > 1) problems.push(`${kind} takes one FILE, got ${rest.length}: ${rest.join(' ')}`);
  else if (rest[0]?.trim() === '') problems.push(`${kind} needs a FILE, got an empty name`);
  if (problems.length > 0) throw new ServerUsageError(problems);
  return { kind, file: resolve(cwd, rest[0] as string), dataDir };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
