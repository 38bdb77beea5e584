import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort, LOOPBACK } from '../local/net.js';

const ENSURE_SCRIPT = fileURLToPath(new URL('./ensure-redis.sh', import.meta.url));

export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** `redis-server --version`'s first words. */
  readonly version: string;
  /** Stops this server (its own process only) and removes its directory; the same promise to every caller. */
  stop(): Promise<void>;
}

/** Installs Debian's redis-server when the machine lacks it (bench/ensure-redis.sh); throws with its output. */
export function ensureRedisServer(): void {
  const result = spawnSync('bash', [ENSURE_SCRIPT], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `bench/ensure-redis.sh failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim()}`,
    );
  }
}

/**
 * A redis-server of the bench's own on 127.0.0.1, a free port and a temp directory, with the
 * durability closest to tickring's stores: an append-only file fsynced every second (SQLite's WAL at
 * synchronous NORMAL syncs at checkpoints, DynamoDB acknowledges durable writes), no RDB snapshots.
 * A small sh holds it and the read end of a pipe from this process, so it never outlives the bench,
 * however the bench ends (as DynamoDB Local in local/stand-ins).
 */
export async function startRedisServer(startTimeoutMs = 15_000): Promise<RedisServer> {
  const version = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    throw new Error('redis-server cannot be run: bench/ensure-redis.sh installs it (apt-get)');
  }
  const port = await findFreePort();
  const dir = await mkdtemp(join(tmpdir(), 'tickring-bench-redis-'));
  const args = [
    '--bind',
    LOOPBACK,
    '--port',
    String(port),
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--save',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--loglevel',
    'warning',
  ];
  const child = spawn('sh', ['-c', WATCHDOG, 'redis-server', ...args], {
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', () => undefined);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await terminate(child, exited);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  try {
    await waitUntilAnswering(port, child, startTimeoutMs, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { host: LOOPBACK, port, version: version.stdout.trim().split(' ').slice(0, 3).join(' '), stop };
}

/**
 * Runs `redis-server "$@"` in the background, waits for its stdin (our pipe) to close, then stops it
 * (TERM: redis flushes the append-only file and exits; KILL after 5 s) and waits for it.
 */
const WATCHDOG = [
  'redis-server "$@" </dev/null &',
  'server=$!',
  "trap 'kill -TERM $server 2>/dev/null' TERM INT HUP",
  'read -r _ || true',
  'kill -TERM $server 2>/dev/null',
  '( sleep 5; kill -KILL $server 2>/dev/null ) &',
  'wait $server',
].join('\n');

/** Until a PING on the port answers PONG. */
async function waitUntilAnswering(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server exited during start (code ${child.exitCode}): ${output().trim()}`);
    }
    if (await pings(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `redis-server did not answer on ${LOOPBACK}:${port} within ${timeoutMs} ms: ${output().trim()}`,
  );
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: LOOPBACK, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Closes the watchdog's pipe (sh stops redis-server and exits); the sh's own group is killed if that hangs. */
async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 8000)),
  ]);
  if (!stopped) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
  }
}
