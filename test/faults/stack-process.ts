/**
 * The local stack in a process of its own, for the fault tests (which kill, pause and restart it):
 *
 *   node --import tsx test/faults/stack-process.ts '<StartLocalOptions as JSON>'
 *
 * Prints one JSON line `{"ready":true,"api":...,"pid":...,"store":...}` once started, with `database` (SQLite)
 * or `dynamodb` and `sqs` (DynamoDB Local)
 * (`{"ready":false,"error":...}` and exit 1 when the start fails). Stops in order on SIGTERM or
 * SIGINT, and also when its stdin closes, so a test process that dies does not leave it behind.
 */
import { type StartLocalOptions, startLocal } from '../../local/start-local.js';

const STOP_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as StartLocalOptions;
  let stack: Awaited<ReturnType<typeof startLocal>>;
  try {
    stack = await startLocal(options);
  } catch (err) {
    console.log(JSON.stringify({ ready: false, error: err instanceof Error ? err.message : String(err) }));
    process.exit(1);
  }
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`stack-process: ${why}, stopping`);
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
    stack.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.stdin.on('end', () => stop('stdin closed'));
  process.stdin.on('error', () => stop('stdin failed'));
  process.stdin.resume();
  console.log(
    JSON.stringify({
      ready: true,
      api: stack.urls.api,
      pid: process.pid,
      store: stack.store,
      ...(stack.store === 'sqlite'
        ? { database: stack.databaseFile }
        : { dynamodb: stack.urls.dynamodb, sqs: stack.urls.sqs }),
    }),
  );
}

void main();
