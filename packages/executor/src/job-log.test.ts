import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileJobLog,
  LOG_LINGER_MS,
  logDay,
  logFilePath,
  readJobLog,
  removeOldLogDays,
  SLOW_APPEND_MS,
  SLOW_APPENDS_IN_A_ROW,
  SlowDiskWatch,
} from './job-log.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-joblog-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('logFilePath', () => {
  it('names the file {logDir}/yyyy-MM-dd/{logId}.log from the trigger time in local time', () => {
    const t = new Date(2024, 1, 29, 23, 59).getTime();
    expect(logFilePath('/logs', t, 77)).toBe(join('/logs', '2024-02-29', '77.log'));
    expect(logDay(new Date(2025, 0, 5).getTime())).toBe('2025-01-05');
  });
});

describe('readJobLog', () => {
  it('returns 1-based lines from fromLineNum with toLineNum = the last line, isEnd false', async () => {
    const file = join(dir, 'a.log');
    await writeFile(file, 'one\ntwo\r\nthree\n');
    expect(await readJobLog(file, 1)).toEqual({
      fromLineNum: 1,
      toLineNum: 3,
      logContent: 'one\ntwo\nthree\n',
      isEnd: false,
    });
    expect(await readJobLog(file, 3)).toEqual({
      fromLineNum: 3,
      toLineNum: 3,
      logContent: 'three\n',
      isEnd: false,
    });
    expect(await readJobLog(file, 4)).toEqual({ fromLineNum: 4, toLineNum: 3, logContent: '', isEnd: false });
  });

  it('answers a missing file with isEnd true, as the Java executor', async () => {
    expect(await readJobLog(join(dir, 'none.log'), 1)).toEqual({
      fromLineNum: 1,
      toLineNum: 0,
      logContent: 'readLog fail, logFile not exists',
      isEnd: true,
    });
  });
});

describe('FileJobLog', () => {
  it('creates the date folder and appends timestamped lines in order', async () => {
    const path = logFilePath(dir, Date.now(), 5);
    const log = new FileJobLog(path);
    log.line('first');
    log.line('second');
    await log.flush();
    const read = await readJobLog(path, 1);
    expect(read.toLineNum).toBe(2);
    expect(read.logContent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} first\n.* second\n$/);
  });

  it('makes the day folder again when it was removed after an earlier run of the process made it', async () => {
    const at = Date.now();
    const first = new FileJobLog(logFilePath(dir, at, 7));
    first.line('made the folder');
    await first.flush();
    await rm(join(dir, logDay(at)), { recursive: true });

    const second = new FileJobLog(logFilePath(dir, at, 8));
    second.line('after the folder was removed');
    await second.flush();
    expect((await readJobLog(logFilePath(dir, at, 8), 1)).logContent).toMatch(
      /after the folder was removed\n$/,
    );
  });

  it('keeps the order of lines logged while earlier ones are being written, all on disk after flush', async () => {
    const path = logFilePath(dir, Date.now(), 6);
    const log = new FileJobLog(path);
    for (let i = 0; i < 50; i++) {
      log.line(`line ${i}`);
      if (i % 7 === 0) await new Promise((r) => setImmediate(r));
    }
    await log.flush();
    const read = await readJobLog(path, 1);
    expect(
      read.logContent
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(24)),
    ).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
  });
});

describe('FileJobLog linger', () => {
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  it('writes nothing before the linger; a run that ends within it is one file written at flush', async () => {
    const path = logFilePath(dir, Date.now(), 11);
    const log = new FileJobLog(path);
    log.line('start');
    log.line('param');
    await new Promise((r) => setImmediate(r));
    expect(await exists(path)).toBe(false);
    log.line('end');
    await log.flush();
    expect((await readJobLog(path, 1)).toLineNum).toBe(3);
  });

  it("writes a long run's lines once the linger is over, without a flush", async () => {
    const path = logFilePath(dir, Date.now(), 12);
    const log = new FileJobLog(path);
    log.line('still running');
    const started = performance.now();
    while (!(await exists(path)) && performance.now() - started < 5_000) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(performance.now() - started).toBeGreaterThanOrEqual(LOG_LINGER_MS - 5);
    expect((await readJobLog(path, 1)).logContent).toMatch(/still running\n$/);
    log.line('later');
    await log.flush();
    expect((await readJobLog(path, 1)).toLineNum).toBe(2);
  });

  it('a read of the log during the linger writes the lines first (not "logFile not exists")', async () => {
    const path = logFilePath(dir, Date.now(), 13);
    const log = new FileJobLog(path);
    log.line('visible at once');
    const read = await readJobLog(path, 1);
    expect(read.isEnd).toBe(false);
    expect(read.logContent).toMatch(/visible at once\n$/);
    await log.flush();
  });
});

describe('SlowDiskWatch', () => {
  it(`counts the disk slow after ${SLOW_APPENDS_IN_A_ROW} slow appends in a row, not after one among fast ones`, () => {
    const watch = new SlowDiskWatch();
    const slow = SLOW_APPEND_MS + 1;
    for (let i = 0; i < 10; i++) {
      expect(watch.note(slow)).toBe(false);
      expect(watch.note(0.02)).toBe(false);
    }
    for (let i = 1; i < SLOW_APPENDS_IN_A_ROW; i++) expect(watch.note(slow)).toBe(false);
    expect(watch.note(slow)).toBe(true);
    expect(watch.note(0.02)).toBe(true);
    expect(watch.isSlow).toBe(true);
  });
});

describe('removeOldLogDays', () => {
  it('removes date folders retentionDays or more days old and leaves other folders alone', async () => {
    const now = new Date(2024, 5, 10, 12).getTime();
    for (const name of [
      '2024-06-10',
      '2024-06-08',
      '2024-06-07',
      '2024-05-01',
      'gluesource',
      'callbacklog',
    ]) {
      await mkdir(join(dir, name));
    }
    expect(await removeOldLogDays(dir, 3, now)).toEqual(['2024-05-01', '2024-06-07']);
    expect((await readdir(dir)).sort()).toEqual(['2024-06-08', '2024-06-10', 'callbacklog', 'gluesource']);
  });
});
