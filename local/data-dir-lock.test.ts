import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock.js';
import { LocalStartError } from './errors.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'tickring-lock-'));

/** The pid of a process that has ended (a stack killed hard leaves such a pid behind). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/** Waits until `pid` has exited and not been reaped yet (state Z). */
async function waitForZombie(pid: number): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`process ${pid} did not become a zombie`);
}

describe('one data directory, one stack', () => {
  it('takes the lock with its pid and gives it back', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'tickring.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'tickring.lock'))).toBe(false);
  });

  it('refuses a second stack on the same directory, naming the holder', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(LocalStartError);
      expect(() => lockDataDir(dir)).toThrow(`another tickring (pid ${process.pid}) is using ${dir}`);
    } finally {
      release();
    }
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'tickring.lock'), `${deadPid()}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'tickring.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('takes over a lock whose holder was killed and is a zombie not yet reaped', async () => {
    const dir = freshDir();
    // The shell starts `sleep 0.5` in the background and then becomes `sleep 60`, which never
    // waits for it: once it exits it stays a zombie until `sleep 60` ends. (A child of this
    // test's own process would not do: node reaps its children as soon as the loop turns.)
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 60'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = Number(await new Promise<string>((r) => parent.stdout.once('data', (d) => r(String(d)))));
      writeFileSync(join(dir, 'tickring.lock'), `${pid}\n`);
      expect(() => lockDataDir(dir)).toThrow(`another tickring (pid ${pid})`);
      await waitForZombie(pid);
      const release = lockDataDir(dir);
      expect(readFileSync(join(dir, 'tickring.lock'), 'utf8').trim()).toBe(String(process.pid));
      release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('leaves a lock that another process took over in place when the old holder releases', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    writeFileSync(join(dir, 'tickring.lock'), '1\n'); // pid 1 is alive: someone else's now
    release();
    expect(readFileSync(join(dir, 'tickring.lock'), 'utf8').trim()).toBe('1');
  });
});
