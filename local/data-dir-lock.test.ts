import { spawnSync } from 'node:child_process';
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

  it('leaves a lock that another process took over in place when the old holder releases', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    writeFileSync(join(dir, 'tickring.lock'), '1\n'); // pid 1 is alive: someone else's now
    release();
    expect(readFileSync(join(dir, 'tickring.lock'), 'utf8').trim()).toBe('1');
  });
});
