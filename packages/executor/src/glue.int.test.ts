import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogResult } from '@tickring/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { waitFor } from '../test-support/wait-for.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function runAndWait(
  harness: Harness,
  trigger: Parameters<Harness['driver']['run']>[0] & { logId: number },
): Promise<{ handleCode: number; handleMsg?: string; log: string }> {
  const logDateTime = Date.now();
  const res = await harness.driver.run({ logDateTime, ...trigger });
  expect(res.json).toEqual({ code: 200 });
  const cb = await waitFor(() => harness.admin.callbackFor(trigger.logId), {
    message: `callback ${trigger.logId}`,
  });
  const log = await harness.driver.log(logDateTime, trigger.logId, 1);
  return { ...cb, log: (log.json.content as LogResult).logContent };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('GLUE scripts (enableGlue: true)', () => {
  it('runs a GLUE_SHELL script as `bash <file> <param> <shardIndex> <shardTotal>` and streams its output', async () => {
    h = await startHarness({ enableGlue: true });
    const r = await runAndWait(h, {
      jobId: 11,
      logId: 1,
      glueType: 'GLUE_SHELL',
      glueUpdatetime: 1700000000000,
      glueSource: '#!/bin/bash\necho "args: $1|$2|$3"\necho "to stderr" >&2\nexit 0\n',
      executorParams: 'hello world',
      broadcastIndex: 2,
      broadcastTotal: 5,
    });
    expect(r.handleCode).toBe(200);
    expect(r.log).toContain('args: hello world|2|5');
    expect(r.log).toContain('to stderr');
    expect(existsSync(join(h.logDir, 'gluesource', '11_1700000000000.sh'))).toBe(true);
  });

  it('reports a non-zero exit code as a failure', async () => {
    h = await startHarness({ enableGlue: true });
    const r = await runAndWait(h, {
      jobId: 12,
      logId: 2,
      glueType: 'GLUE_SHELL',
      glueSource: 'echo failing\nexit 3\n',
    });
    expect(r).toMatchObject({ handleCode: 500, handleMsg: 'script exit value(3) is failed' });
    expect(r.log).toContain('failing');
  });

  it('runs a GLUE_NODEJS script with its arguments and exit code', async () => {
    h = await startHarness({ enableGlue: true });
    const source =
      "console.log('node args=' + process.argv.slice(2).join(','));\nprocess.exit(Number(process.argv[2]));\n";
    const ok = await runAndWait(h, {
      jobId: 13,
      logId: 3,
      glueType: 'GLUE_NODEJS',
      glueSource: source,
      executorParams: '0',
    });
    expect(ok.handleCode).toBe(200);
    expect(ok.log).toContain('node args=0,0,1');
    const bad = await runAndWait(h, {
      jobId: 13,
      logId: 4,
      glueType: 'GLUE_NODEJS',
      glueSource: source,
      executorParams: '7',
    });
    expect(bad).toMatchObject({ handleCode: 500, handleMsg: 'script exit value(7) is failed' });
  });

  it('runs a GLUE_PYTHON script with python3', async () => {
    h = await startHarness({ enableGlue: true });
    const r = await runAndWait(h, {
      jobId: 14,
      logId: 5,
      glueType: 'GLUE_PYTHON',
      glueSource: 'import sys\nprint("py", sys.argv[1:])\n',
      executorParams: 'x',
    });
    expect(r.handleCode).toBe(200);
    expect(r.log).toContain("py ['x', '0', '1']");
  });

  it('kills the script and its children (process group) on timeout and reports 502', async () => {
    h = await startHarness({ enableGlue: true });
    const pidFile = join(h.logDir, 'child.pid');
    const r = await runAndWait(h, {
      jobId: 15,
      logId: 6,
      glueType: 'GLUE_SHELL',
      glueSource: `sleep 30 &\necho $! > "${pidFile}"\nwait\necho "should not get here"\n`,
      executorTimeout: 1,
    });
    expect(r.handleCode).toBe(502);
    expect(r.handleMsg).toBe('job execute timeout');
    expect(r.log).not.toContain('should not get here');
    const childPid = Number((await readFile(pidFile, 'utf8')).trim());
    await waitFor(() => !isAlive(childPid), { message: 'the script child to be gone' });
  });

  it('rewrites the script when glueUpdatetime changes and removes the old source', async () => {
    h = await startHarness({ enableGlue: true });
    const v1 = await runAndWait(h, {
      jobId: 16,
      logId: 7,
      glueType: 'GLUE_SHELL',
      glueUpdatetime: 1,
      glueSource: 'echo v1',
    });
    const v2 = await runAndWait(h, {
      jobId: 16,
      logId: 8,
      glueType: 'GLUE_SHELL',
      glueUpdatetime: 2,
      glueSource: 'echo v2',
    });
    expect(v1.log).toContain('v1');
    expect(v2.log).toContain('v2');
    expect(v2.log).not.toContain('v1');
    expect(await readdir(join(h.logDir, 'gluesource'))).toEqual(['16_2.sh']);
  });

  it('fails clearly when the interpreter is missing', async () => {
    h = await startHarness({ enableGlue: true, glueInterpreters: { GLUE_PHP: 'tickring-no-such-php' } });
    const r = await runAndWait(h, { jobId: 17, logId: 9, glueType: 'GLUE_PHP', glueSource: '<?php echo 1;' });
    expect(r.handleCode).toBe(500);
    expect(r.handleMsg).toMatch(/^GLUE interpreter "tickring-no-such-php" could not be started: .*ENOENT/);
  });
});

describe('GLUE scripts (enableGlue off, the default)', () => {
  it('refuses every GLUE trigger with a clear 500 and runs nothing', async () => {
    h = await startHarness();
    for (const [i, glueType] of ['GLUE_SHELL', 'GLUE_NODEJS', 'GLUE_PYTHON', 'GLUE_GROOVY'].entries()) {
      const res = await h.driver.run({
        jobId: 20 + i,
        logId: 100 + i,
        glueType,
        glueSource: 'touch /tmp/pwned',
      });
      expect(res.json.code).toBe(500);
      expect(res.json.msg).toBe(
        `glueType[${glueType}] refused: GLUE is disabled on this executor (enable it with enableGlue: true only if you trust every admin that can reach it).`,
      );
    }
    expect(existsSync(join(h.logDir, 'gluesource'))).toBe(false);
    expect(h.admin.callbacks).toEqual([]);
  });
});
