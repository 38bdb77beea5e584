import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LocalStartError } from './errors.js';

const LOCK_FILE = 'tickring.lock';

/** The database file of a stack on SQLite, in its data directory. */
export const DATABASE_FILE = 'tickring.db';

/**
 * One data directory, one stack: takes `DIR/tickring.lock` (holding this process's pid) or fails
 * with `another tickring (pid N) is using DIR` (also when N is this process: a second stack in it).
 * A lock left by a process that is gone (killed hard) is taken over. Returns the release, which removes the file only while it is still ours.
 */
export function lockDataDir(dataDir: string, pid = process.pid): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 1; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return () => {
        if (holderOf(path) === pid) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err;
    }
    const holder = holderOf(path);
    if (holder !== undefined && isAlive(holder)) {
      throw new LocalStartError(
        `another tickring (pid ${holder}) is using ${dataDir}; stop it, or start this one with another --data-dir`,
      );
    }
    // Stale (its process is gone) or unreadable: take it over.
    rmSync(path, { force: true });
  }
}

function holderOf(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, but is someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** A process killed hard stays a zombie until its parent reaps it: it holds nothing any more. */
function isZombie(pid: number): boolean {
  try {
    // /proc/PID/stat: "pid (command) state ...": the state follows the command's closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (not Linux): trust the signal check
  }
}
