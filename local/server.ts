/**
 * `npm run server`: tickring on one machine for production, on the embedded SQLite engine: the same
 * startLocal as `npm start`, without the demo, with JSON logs and no token in them; plus `backup` and
 * `restore` of its database. See SERVER_USAGE and docs/single-box.md.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ENV } from '@tickring/core/config';
import { LocalStartError } from './errors.js';
import { parseServerArgs, SERVER_USAGE, type ServerCommand, ServerUsageError } from './server-args.js';
import { BackupError, backupDatabase, restoreDatabase } from './server-backup.js';
import { jsonLogger } from './server-logger.js';
import { type StopSignal, stopOnSignal } from './server-signals.js';
import type { EmbeddedLocalStack } from './start-local.js';
import { TOKENS_FILE } from './tokens.js';

/** Longest a stop may take: each step is bounded, and the dispatches in flight end within ~10 s. */
const STOP_TIMEOUT_MS = 30_000;

/** Exit code of bad command-line input. */
const USAGE_EXIT_CODE = 2;

async function main(): Promise<void> {
  let command: ServerCommand;
  try {
    command = parseServerArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof ServerUsageError)) throw err;
    console.error(
      `tickring server: ${err.problems.length === 1 ? err.problems[0] : `\n  ${err.problems.join('\n  ')}`}\n(--help for usage)`,
    );
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  switch (command.kind) {
    case 'help':
      console.log(SERVER_USAGE);
      return;
    case 'backup':
      return runTool(() => backup(command.dataDir, command.file));
    case 'restore':
      return runTool(() => restore(command.dataDir, command.file));
    case 'serve':
      return serve(command).catch((err: unknown) => {
        const message =
          err instanceof LocalStartError ? err.message : `tickring server failed to start: ${String(err)}`;
        jsonLogger('server').error('failed to start', { error: message });
        process.exit(1);
      });
  }
}

/** A one-shot command for a person or cron: its problem on stderr, exit 1. */
function runTool(work: () => void): void {
  try {
    work();
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(`tickring server: ${err.message}`);
    process.exitCode = 1;
  }
}

function backup(dataDir: string, file: string): void {
  const result = backupDatabase(dataDir, file);
  console.log(
    [
      `backup written: ${result.file} (${formatBytes(result.bytes)})`,
      `integrity check of the copy: ${result.integrity}`,
      `not in it: ${join(dataDir, TOKENS_FILE)} (the tokens and the key that seals groups' access tokens); keep one copy of it apart, it does not change`,
    ].join('\n'),
  );
}

function restore(dataDir: string, file: string): void {
  const result = restoreDatabase(dataDir, file);
  console.log(
    [
      `restored ${file} into ${result.database} (${formatBytes(result.bytes)}, integrity check: ${result.integrity})`,
      ...(result.keptAside.length === 0
        ? ['there was no database before']
        : [`the database before the restore is kept as ${result.keptAside.join(' and ')}`]),
      'start the server again to use it',
    ].join('\n'),
  );
}

async function serve(command: Extract<ServerCommand, { kind: 'serve' }>): Promise<void> {
  const level = command.verbose ? 'debug' : 'info';
  const logger = jsonLogger('server', level);
  // The data directory holds the tokens: only the service's user may enter it (when we create it).
  mkdirSync(command.dataDir, { recursive: true, mode: 0o700 });
  const tokensFile = join(command.dataDir, TOKENS_FILE);
  const firstStart = !existsSync(tokensFile);
  logger.info('starting', {
    dataDir: command.dataDir,
    host: command.host,
    port: command.port,
    pid: process.pid,
  });

  // Loaded here only: backup and restore need none of the scheduler (a second or more to load).
  const { startLocal } = await import('./start-local.js');
  const starting = startLocal({
    store: 'sqlite',
    dataDir: command.dataDir,
    host: command.host,
    port: command.port,
    demo: false,
    adminToken: process.env[ENV.adminToken],
    accessToken: process.env[ENV.accessToken],
    loggerFor: (source) => jsonLogger(source, level),
  });
  // From now on a signal stops in order, also one that comes while the stack is starting.
  const onSignal = stopOnSignal({
    stop: async () => (await starting.catch(() => undefined))?.stop(),
    exit: (code) => process.exit(code),
    logger,
    stopTimeoutMs: STOP_TIMEOUT_MS,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const satisfies readonly StopSignal[]) {
    process.on(signal, () => onSignal(signal));
  }
  const stack: EmbeddedLocalStack = await starting;

  const mode = statSync(tokensFile).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    logger.warn('the tokens file is readable by others: chmod 600 it', {
      tokensFile,
      mode: mode.toString(8),
    });
  }
  if (firstStart) {
    logger.info('first start: the admin and access tokens were written to the tokens file, not to this log', {
      tokensFile,
      next: 'sign in with its adminToken (console or Authorization: Bearer), create users and API tokens, then rotate the admin token',
    });
  }
  logger.info('ready', {
    console: stack.urls.console,
    adminApi: `${stack.urls.api}/v1`,
    executorApi: `${stack.urls.api}/api`,
    health: stack.urls.health,
    listen: `${command.host}:${new URL(stack.urls.api).port}`,
    database: stack.databaseFile,
    tokensFile,
    ...(stack.bootstrapRotated === undefined
      ? {}
      : {
          adminTokenRotatedAt: new Date(stack.bootstrapRotated.rotatedAt).toISOString(),
          adminTokenRotatedBy: stack.bootstrapRotated.rotatedBy,
        }),
  });
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${mib.toFixed(1)} MiB, ${bytes} bytes` : `${bytes} bytes`;
}

main().catch((err: unknown) => {
  console.error(`tickring server failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
