// Runs one invocation of a bundled Lambda handler in a worker thread, the way the Lambda runtime
// does: Node's own ESM loader imports the bundle, the worker's env is the function's env, and the
// handler gets the event and a Lambda-like context. Used by bundle.int.test.ts.
import { parentPort, workerData } from 'node:worker_threads';

const { bundleUrl, event, context: fields, deadline } = workerData;
const context = { ...fields, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
let outcome;
try {
  const { handler } = await import(bundleUrl);
  outcome = { ok: true, result: await handler(event, context) };
} catch (err) {
  outcome = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
parentPort.postMessage(outcome);
// Flush what the handler printed (its EMF metrics), then end, like a sandbox frozen after the call.
process.stdout.write('', () => process.exit(0));
