import { appendFileSync, mkdirSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { format } from 'node:util';
import type { LogResult } from '@tickring/protocol';

/** Where one run's log lines go. */
export interface JobLogSink {
  /** Appends one timestamped line (the text may itself contain newlines). */
  line(text: string): void;
  /** Resolves once every line appended so far is stored (called before the result is reported). */
  flush?(): Promise<void>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-dd` in the executor's local time zone, as the Java executor names its folders. */
export function logDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function timestamp(now = new Date()): string {
  return (
    `${logDay(now.getTime())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}` +
    `.${pad(now.getMilliseconds(), 3)}`
  );
}

/** `{logDir}/yyyy-MM-dd/{logId}.log`. */
export function logFilePath(logDir: string, logDateTime: number, logId: number): string {
  return join(logDir, logDay(logDateTime), `${logId}.log`);
}

/** Formats `ctx.log(...)` arguments the way `console.log` does (Errors with their stack). */
export function formatLogArgs(args: readonly unknown[]): string {
  return format(...args);
}

/**
 * Day folders this process has made or found, so a run's log costs no `mkdir` of its own. A folder
 * removed meanwhile (the cleaner, an operator) is made again when an append finds it missing.
 */
const readyDirs = new Set<string>();

export const SLOW_APPEND_MS = 20;
export const SLOW_APPENDS_IN_A_ROW = 3;

/**
 * Watches the synchronous appends: `SLOW_APPENDS_IN_A_ROW` appends in a row slower than `SLOW_APPEND_MS`
 * (a network or failing disk) move the process's logs to background appends for good, so a slow disk
 * cannot stall the executor's requests. One slow append alone is a pause of the process or of the
 * machine (a GC, a busy core), not the disk: moving on it made every later append cost the thread
 * pool's ~130–550 µs of CPU, at a thousand runs a second twice the executor's work.
 */
export class SlowDiskWatch {
  private slowInARow = 0;
  private slow = false;

  /** Notes one synchronous append's duration; true once the disk counts as slow. */
  note(ms: number): boolean {
    this.slowInARow = ms > SLOW_APPEND_MS ? this.slowInARow + 1 : 0;
    if (this.slowInARow >= SLOW_APPENDS_IN_A_ROW) this.slow = true;
    return this.slow;
  }

  get isSlow(): boolean {
    return this.slow;
  }
}

const diskWatch = new SlowDiskWatch();

function appendNow(path: string, chunk: string): void {
  const dir = dirname(path);
  if (!readyDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    readyDirs.add(dir);
  }
  try {
    appendFileSync(path, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    appendFileSync(path, chunk);
  }
}

async function appendLater(path: string, chunk: string): Promise<void> {
  const dir = dirname(path);
  if (!readyDirs.has(dir)) {
    await mkdir(dir, { recursive: true });
    readyDirs.add(dir);
  }
  try {
    await appendFile(path, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dir, { recursive: true });
    await appendFile(path, chunk);
  }
}

/**
 * A run's lines wait this long before their first append, so a run that ends sooner is written in
 * one append (its file made once) at `flush()`. A read of the log meanwhile writes them first.
 */
export const LOG_LINGER_MS = 100;

/** Logs with lines waiting for their linger, by path: what a read of the log writes first. */
const lingering = new Map<string, FileJobLog>();

/**
 * Appends a run's lines in order, in batches: lines wait up to `LOG_LINGER_MS` and go in one append.
 * The append is synchronous: a small append costs ~10–30 µs there, against 130–550 µs of CPU through
 * the thread pool (measured at a thousand runs a second, where the background appends were most of
 * the executor's work and held up its requests); a disk slow enough to matter moves to background
 * appends (`SlowDiskWatch`). `flush()` waits for the lines, so they are on disk before the result is
 * reported; it first lets the requests already received start their runs (one `setImmediate`): at a
 * burst of triggers, the runs start before the logs of the first are written.
 */
export class FileJobLog implements JobLogSink {
  private buffered = '';
  private writing: Promise<void> | undefined;
  private linger: NodeJS.Timeout | undefined;

  constructor(readonly path: string) {}

  line(text: string): void {
    this.buffered += `${timestamp()} ${text}\n`;
    if (this.writing || this.linger) return;
    this.linger = setTimeout(() => this.write(), LOG_LINGER_MS);
    lingering.set(this.path, this);
  }

  async flush(): Promise<void> {
    if (this.linger) {
      await new Promise((resolve) => setImmediate(resolve));
      this.write();
    }
    while (this.writing) await this.writing;
  }

  /** Ends the linger (if any) and appends what is buffered, unless an append is under way. */
  private write(): void {
    clearTimeout(this.linger);
    this.linger = undefined;
    if (lingering.get(this.path) === this) lingering.delete(this.path);
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      // Lines logged as the append ended.
      if (this.buffered !== '') this.write();
    });
  }

  private async drain(): Promise<void> {
    while (this.buffered !== '') {
      const chunk = this.buffered;
      this.buffered = '';
      try {
        if (diskWatch.isSlow) {
          await appendLater(this.path, chunk);
        } else {
          const started = performance.now();
          appendNow(this.path, chunk);
          diskWatch.note(performance.now() - started);
        }
      } catch {
        // A full or read-only disk must not fail the job; the log is best effort, as in XXL-JOB.
      }
    }
  }
}

/**
 * Reads lines `fromLineNum..` (1-based) of a run's log as the Java executor does: `isEnd` is false
 * unless the file does not exist (the admin decides the end from the run's handle code).
 */
export async function readJobLog(path: string, fromLineNum: number): Promise<LogResult> {
  await lingering.get(path)?.flush();
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch {
    return { fromLineNum, toLineNum: 0, logContent: 'readLog fail, logFile not exists', isEnd: true };
  }
  const lines = content.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const from = Math.max(fromLineNum, 1);
  const wanted = lines.slice(from - 1);
  return {
    fromLineNum,
    toLineNum: lines.length,
    logContent: wanted.length === 0 ? '' : `${wanted.join('\n')}\n`,
    isEnd: false,
  };
}

const DAY_DIR = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Removes `yyyy-MM-dd` folders dated `retentionDays` or more days before today, as the Java executor's
 * cleaner does (other folders, e.g. `gluesource` and `callbacklog`, are left alone). Returns the names removed.
 */
export async function removeOldLogDays(
  logDir: string,
  retentionDays: number,
  now = Date.now(),
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(logDir);
  } catch {
    return [];
  }
  const today = new Date(now);
  const cutoff = new Date(today.getFullYear(), today.getMonth(), today.getDate() - retentionDays).getTime();
  const removed: string[] = [];
  for (const name of names) {
    const m = DAY_DIR.exec(name);
    if (!m) continue;
    const day = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
    if (day <= cutoff) {
      await rm(join(logDir, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed.sort();
}
