import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '@tickring/embedded/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../test/stand-ins.js';
import { DATABASE_FILE } from './start-local.js';

// The server as an operator runs it (the systemd unit's command): `node --import tsx local/server.ts`
// in a child process, JSON lines on stdout, a temp data directory, a port the OS picks.
const NODE_ARGS = ['--import', 'tsx', 'local/server.ts'];
const dirs: string[] = [];
const children = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tickring-server-${label}-`));
  dirs.push(dir);
  return dir;
}

type LogLine = Record<string, unknown> & { level: string; source: string; message: string };

interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: LogLine[];
  readonly stdout: () => string;
  readonly exited: Promise<number | null>;
}

function spawnServer(args: readonly string[]): ServerProcess {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args], {
    env: { ...process.env, TICKRING_ADMIN_TOKEN: '', TICKRING_ACCESS_TOKEN: '' },
  });
  children.add(child);
  const lines: LogLine[] = [];
  let out = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      // Every stdout line of a running server is one JSON object (journald's and a shipper's contract).
      lines.push(JSON.parse(line) as LogLine);
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, lines, stdout: () => out, exited };
}

/** A one-shot command (backup, restore, a start that must fail): its exit code and output. */
async function runCommand(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...NODE_ARGS, ...args]);
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  children.delete(child);
  return { code, stdout, stderr };
}

async function startServer(dataDir: string): Promise<ServerProcess & { ready: LogLine }> {
  const server = spawnServer(['--data-dir', dataDir, '--port', '0']);
  const ready = await waitFor(
    () => server.lines.find((l) => l.source === 'server' && l.message === 'ready'),
    {
      what: `the server's ready line (so far: ${server.stdout().slice(-400)})`,
      timeoutMs: 60_000,
    },
  );
  return { ...server, ready };
}

function api(base: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

describe('npm run server (single box on SQLite)', () => {
  let backupFile = '';
  let jobId = 0;
  let firstDataDir = '';

  it('serves once ready, backs up while the job writes every second, refuses what it must, and stops on SIGTERM with exit 0', async () => {
    firstDataDir = tempDir('a');
    const server = await startServer(firstDataDir);
    const health = String(server.ready.health);
    expect(await (await fetch(health)).json()).toMatchObject({ status: 'ok', store: 'sqlite' });

    // The tokens are where the first start said, 0600, and in no log line.
    const firstStart = server.lines.find((l) => String(l.message).startsWith('first start'));
    expect(firstStart?.tokensFile).toBe(join(firstDataDir, 'tokens.json'));
    const tokensFile = String(firstStart?.tokensFile);
    expect(statSync(tokensFile).mode & 0o777).toBe(0o600);
    const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as Record<string, string>;
    const call = api(String(server.ready.adminApi).replace(/\/v1$/, ''), tokens.adminToken as string);

    const appName = 'single-box';
    expect((await call('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' })).status).toBe(
      201,
    );
    const created = await call('POST', '/v1/jobs', {
      appName,
      name: 'every second',
      author: 'test',
      scheduleType: 'FIX_RATE',
      scheduleConf: '1',
      executorHandler: 'probe',
      triggerStatus: 'RUNNING',
    });
    expect(created.status).toBe(201);
    jobId = created.body.id as number;
    // No executor is registered: each fire is still a run written (failed: no address).
    const runCount = async () =>
      ((await call('GET', `/v1/logs?jobId=${jobId}&limit=100`)).body.items as unknown[]).length;
    const before = await waitFor(async () => ((await runCount()) >= 2 ? runCount() : undefined), {
      what: 'the job writing runs',
      timeoutMs: 20_000,
    });

    backupFile = join(tempDir('backups'), 'tickring-backup.db');
    const backup = await runCommand(['backup', backupFile, '--data-dir', firstDataDir]);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`backup written: ${backupFile} (${statSync(backupFile).size} bytes`);
    expect(backup.stdout).toContain('integrity check of the copy: ok');
    // The server wrote on meanwhile (the backup did not block it) ...
    await waitFor(async () => (await runCount()) > before, { what: 'runs written after the backup' });
    // ... and the copy is whole, with the job and the runs it had, in one file.
    expect(readdirSync(join(backupFile, '..'))).toEqual(['tickring-backup.db']);
    // Read through a copy of it: opening a file turns it to WAL, and the next test restores the backup as made.
    const inspected = join(tempDir('inspect'), 'copy.db');
    copyFileSync(backupFile, inspected);
    const copy = new EmbeddedDatabase({ path: inspected });
    try {
      expect(copy.integrityCheck()).toBe('ok');
      expect(copy.db.prepare('SELECT app_name FROM jobs WHERE id = ?').get(jobId)).toEqual({
        app_name: appName,
      });
      expect(
        copy.db.prepare('SELECT count(*) AS n FROM runs WHERE job_id = ?').get(jobId)?.n,
      ).toBeGreaterThan(0);
    } finally {
      copy.db.close();
    }

    // While it runs: no second server on its data directory, no restore into it, no backup over a file.
    const [second, restore, again] = await Promise.all([
      runCommand(['--data-dir', firstDataDir, '--port', '0']),
      runCommand(['restore', backupFile, '--data-dir', firstDataDir]),
      runCommand(['backup', backupFile, '--data-dir', firstDataDir]),
    ]);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(`another tickring (pid ${server.child.pid}) is using ${firstDataDir}`);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(
      `cannot restore while a server runs: another tickring (pid ${server.child.pid}) is using ${firstDataDir}; stop it first`,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${backupFile} exists already: a backup never overwrites`);

    server.child.kill('SIGTERM');
    // Exit 0 is the ordered stop's alone: a stuck stop exits 1 after its bound (30 s).
    expect(await server.exited).toBe(0);
    expect(server.lines.map((l) => l.message)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
    await expect(fetch(health)).rejects.toThrow();
    expect(existsSync(join(firstDataDir, 'tickring.lock'))).toBe(false);
    const secrets = [tokens.adminToken, tokens.accessToken, tokens.tokenKey] as string[];
    for (const secret of secrets) expect(server.stdout()).not.toContain(secret);
  });

  it('restores the backup into a fresh data directory, where a server has the job', async () => {
    expect(backupFile, 'the backup of the test before').not.toBe('');
    const dataDir = tempDir('b');
    const restored = await runCommand(['restore', backupFile, '--data-dir', dataDir]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${join(dataDir, DATABASE_FILE)}`);
    expect(restored.stdout).toContain('integrity check: ok');
    // The tokens go with a move, as docs/single-box.md says: the backup holds the database only.
    copyFileSync(join(firstDataDir, 'tokens.json'), join(dataDir, 'tokens.json'));
    const tokens = JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8')) as Record<string, string>;

    const server = await startServer(dataDir);
    try {
      const call = api(String(server.ready.adminApi).replace(/\/v1$/, ''), tokens.adminToken as string);
      const job = await call('GET', `/v1/jobs/${jobId}`);
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({ id: jobId, appName: 'single-box', name: 'every second' });
      expect(server.lines.some((l) => String(l.message).startsWith('first start'))).toBe(false);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
    // The backup itself was only read.
    expect(readdirSync(join(backupFile, '..'))).toEqual(['tickring-backup.db']);
  });
});
