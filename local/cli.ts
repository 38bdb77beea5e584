import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import { ENV } from '@tickring/core/config';
import { LocalStartError } from './errors.js';
import { LOCAL_STORES, type LocalStoreName, startLocal } from './start-local.js';

const USAGE = `Usage: npm start -- [--store sqlite|dynamodb-local] [--port N] [--data-dir DIR] [--in-memory] [--no-demo] [--verbose]

  --store S        sqlite (default): one database file, DIR/tickring.db; no Java
                   dynamodb-local: DynamoDB Local and an SQS stand-in, the adapters AWS runs (needs Java 17)
  --port N         HTTP port on 127.0.0.1 (default 8080, or PORT)
  --data-dir DIR   where data and tokens are kept (default .tickring)
  --in-memory      keep nothing (sqlite: a temporary database file, removed at stop)
  --no-demo        start without the demo executor and job
  --verbose        print every fire, not just triggers and results`;

/** Longest a stop may take: the dispatches in flight (up to ~10 s) and the demo executor's runs (5 s). */
const STOP_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      store: { type: 'string', default: 'sqlite' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'in-memory': { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const portText = values.port ?? process.env.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new LocalStartError(`--port must be a port number (0-65535), got "${portText}"`);
  }

  const store = values.store as LocalStoreName;
  if (!LOCAL_STORES.includes(store)) {
    throw new LocalStartError(`--store must be one of ${LOCAL_STORES.join(', ')}, got "${values.store}"`);
  }

  const stack = await startLocal({
    store,
    port,
    dataDir: values['data-dir'],
    inMemory: values['in-memory'],
    demo: !values['no-demo'],
    adminToken: process.env[ENV.adminToken],
    accessToken: process.env[ENV.accessToken],
    logLevel: values.verbose ? 'debug' : 'info',
  });
  console.log(
    [
      '',
      'tickring is running',
      `  Console          ${stack.urls.console}${
        existsSync(join(CONSOLE_DIST_DIR, 'index.html'))
          ? ''
          : '   (not built: run npm run build, then reload)'
      }`,
      `  Admin API        ${stack.urls.api}/v1   (Authorization: Bearer <admin token>)`,
      `  Executor API     ${stack.urls.api}/api  (also /xxl-job-admin/api; XXL-JOB-ACCESS-TOKEN)`,
      `  Health           ${stack.urls.health}`,
      stack.bootstrapRotated === undefined
        ? `  Admin token      ${stack.tokens.adminToken}`
        : `  Admin token      rotated ${new Date(stack.bootstrapRotated.rotatedAt).toISOString()} by ${stack.bootstrapRotated.rotatedBy} (the configured token no longer works; use the one shown then)`,
      `  Access token     ${stack.tokens.accessToken}`,
      ...(stack.store === 'sqlite'
        ? [
            `  Database         ${stack.databaseFile}${values['in-memory'] ? '   (temporary: removed at stop)' : ''}`,
          ]
        : [`  DynamoDB Local   ${stack.urls.dynamodb}`, `  SQS stand-in     ${stack.urls.sqs}`]),
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(
      `\n${signal}: stopping tickring (scheduling, then dispatches in flight, executors, the store) ...`,
    );
    // Never hang on a stuck step: a clean stop takes a few seconds (each step is bounded too).
    // Exiting closes DynamoDB Local's watchdog pipe, so the JVM goes with us even then (SQLite has
    // nothing to end: what was committed is in the file).
    const force = setTimeout(() => {
      console.error('stop took too long; exiting');
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    force.unref();
    void stack.stop().then(() => {
      console.log('stopped');
      process.exit(0);
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  const message = err instanceof LocalStartError ? err.message : `tickring failed to start: ${String(err)}`;
  console.error(message);
  process.exit(1);
});
