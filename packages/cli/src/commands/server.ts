/**
 * `tickring server|backup|restore`: the scheduler itself on one machine. The CLI is published on its
 * own and holds none of the scheduler, so these commands run the entry of a tickring installation (a
 * checkout where `npm ci` ran: `local/server.ts` with its own dependencies) in a child process, with
 * the arguments as given, the signals forwarded and its exit code passed through.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { Env, OutStream } from '../io.js';

/** The server's entry in an installation, run through its own tsx. */
export const SERVER_ENTRY = join('local', 'server.ts');

/** A tickring installation: the repository root and the tsx loader its `npm ci` installed. */
export interface Installation {
  readonly root: string;
  readonly entry: string;
  /** A file URL for `node --import`, so it loads from any working directory. */
  readonly tsxLoader: string;
}

/** What running the server needs of the outside world (tests pass their own). */
export interface ServerLauncher {
  readonly env: Env;
  readonly cwd: string;
  readonly stderr: OutStream;
  /** The directory of this CLI's own files (its installation is searched from there too). */
  readonly cliDir: string;
  readonly spawn: (command: string, args: readonly string[], cwd: string) => ChildProcess;
  /** Calls `forward` on each SIGINT/SIGTERM this process gets until the returned function is called. */
  readonly onSignal: (forward: (signal: NodeJS.Signals) => void) => () => void;
}

const NEEDS_INSTALLATION = `this command runs the tickring scheduler itself, so it needs a tickring installation: a
checkout of the tickring repository where \`npm ci\` ran. Run it inside that directory (or any directory below
it), or set TICKRING_HOME to it; there, \`npm run server -- ...\` does the same. See docs/single-box.md.`;

/** The installation named by TICKRING_HOME, else the first one above `cwd`, else above the CLI's own files. */
export function findInstallation(env: Env, cwd: string, cliDir: string): Installation | { problem: string } {
  const home = env.TICKRING_HOME?.trim();
  if (home) {
    const root = resolve(cwd, home);
    return (
      installationAt(root) ?? {
        problem: `TICKRING_HOME=${home} is not a tickring installation (no ${SERVER_ENTRY} and node_modules/tsx there)`,
      }
    );
  }
  for (const start of [cwd, cliDir]) {
    for (let dir = resolve(start); ; dir = dirname(dir)) {
      const found = installationAt(dir);
      if (found) return found;
      if (dir === parse(dir).root) break;
    }
  }
  return { problem: NEEDS_INSTALLATION };
}

function installationAt(root: string): Installation | undefined {
  const entry = join(root, SERVER_ENTRY);
  if (!existsSync(entry)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown };
    if (manifest.name !== 'tickring') return undefined;
    const tsx = createRequire(join(root, 'package.json')).resolve('tsx');
    if (!tsx.startsWith(join(root, 'node_modules'))) return undefined;
    return { root, entry, tsxLoader: pathToFileURL(tsx).href };
  } catch {
    return undefined; // no package.json, or tsx not installed: not (yet) an installation
  }
}

/** The exit code of a child ended by `signal`, as a shell reports it (128 + its number). */
function signalExitCode(signal: NodeJS.Signals): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (numbers[signal] ?? 0);
}

/**
 * Runs the installation's server entry with `args` in this working directory (so relative paths mean
 * what the user meant), forwarding SIGINT and SIGTERM (the server takes a copy of a signal it got
 * already as the same request); resolves to its exit code.
 */
export function runServerEntry(
  installation: Installation,
  args: readonly string[],
  launcher: ServerLauncher,
): Promise<number> {
  const child = launcher.spawn(
    process.execPath,
    ['--import', installation.tsxLoader, installation.entry, ...args],
    launcher.cwd,
  );
  const release = launcher.onSignal((signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
  return new Promise<number>((done) => {
    child.once('error', (err) => {
      release();
      launcher.stderr.write(`tickring: cannot start the server entry: ${err.message}\n`);
      done(1);
    });
    child.once('exit', (code, signal) => {
      release();
      done(code ?? (signal ? signalExitCode(signal) : 1));
    });
  });
}

/** The real process: stdio shared with the child, the CLI's own directory from its file. */
export function processLauncher(): ServerLauncher {
  return {
    env: process.env,
    cwd: process.cwd(),
    stderr: process.stderr,
    cliDir: dirname(realpathSync(fileURLToPath(import.meta.url))),
    spawn: (command, args, cwd) => spawn(command, [...args], { cwd, stdio: 'inherit' }),
    onSignal(forward) {
      const handlers = (['SIGINT', 'SIGTERM'] as const).map((signal) => {
        const handler = () => forward(signal);
        process.on(signal, handler);
        return [signal, handler] as const;
      });
      return () => {
        for (const [signal, handler] of handlers) process.off(signal, handler);
      };
    },
  };
}

const DATA_DIR_HELP = `  --data-dir DIR   the data directory: tickring.db, tokens.json, the lock
                   (default TICKRING_DATA_DIR, else /var/lib/tickring)`;

const COMMANDS = [
  {
    name: 'server',
    args: [] as string[],
    usage: '[--data-dir DIR] [--host ADDRESS] [--port N] [--verbose]',
    description: 'run the scheduler on this machine on its SQLite database, until SIGTERM or SIGINT',
    help: `Options (the installation's local/server.ts reads them):
${DATA_DIR_HELP}
  --host ADDRESS   the IP address to listen on (default 127.0.0.1; TLS through a reverse proxy)
  --port N         the HTTP port (default PORT, else 8080)
  --verbose        log every fire, not just triggers and results
Logs are JSON lines on stdout; the tokens are written on first start to DIR/tokens.json (0600).

Examples:
  $ tickring server --data-dir /var/lib/tickring
  $ tickring server --data-dir /var/lib/tickring --host 0.0.0.0 --port 9000`,
  },
  {
    name: 'backup',
    args: ['backup'],
    usage: 'FILE [--data-dir DIR]',
    description: "copy the server's database into FILE (never overwritten), also while it runs",
    help: `Options:
${DATA_DIR_HELP}
Prints the copy's size and SQLite's integrity check of it; tokens.json is not in it (keep one copy apart).

Examples:
  $ tickring backup /var/backups/tickring/tickring-$(date +%F).db --data-dir /var/lib/tickring`,
  },
  {
    name: 'restore',
    args: ['restore'],
    usage: 'FILE [--data-dir DIR]',
    description:
      'put a backup in place as the database, while no server uses the data directory (the old one is kept aside)',
    help: `Options:
${DATA_DIR_HELP}
Checks the backup first (SQLite header, integrity check, tickring's tables); keeps the database it replaces
as tickring.db.before-restore-<time>.

Examples:
  $ tickring restore /var/backups/tickring/tickring-2025-01-31.db --data-dir /var/lib/tickring`,
  },
] as const;

/**
 * Registers `server`, `backup` and `restore`. Their options are the installation's, which checks
 * them: commander passes every argument but `--help` through untouched.
 */
export function registerServer(
  program: Command,
  setExit: (code: number) => void,
  launcher: () => ServerLauncher = processLauncher,
): void {
  for (const command of COMMANDS) {
    program
      .command(command.name)
      .usage(command.usage)
      .description(`${command.description} (needs a tickring installation)`)
      .addHelpText('after', `\n${command.help}\n`)
      .allowUnknownOption()
      .argument('[args...]')
      .action(async (args: string[]) => {
        const io = launcher();
        const installation = findInstallation(io.env, io.cwd, io.cliDir);
        if ('problem' in installation) {
          io.stderr.write(`tickring ${command.name}: ${installation.problem}\n`);
          setExit(1);
          return;
        }
        setExit(await runServerEntry(installation, [...command.args, ...args], io));
      });
  }
}
