import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ProtocolExecutor, startProtocolExecutor } from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';
import {
  adminClient,
  atMillisecond,
  createAutoGroup,
  createEverySecondJobs,
  describeOutcome,
  expectEverySecondOutcome,
  finishEverySecond,
  iso,
  killAllStacks,
  logSummary,
  printTimeline,
  quietPeriod,
  randomToken,
  type StackProcess,
  spawnStack,
} from './fault-kit.js';

/**
 * (b) SIGSTOP of the stack's node process (on the embedded engine all of it: its tick, dispatchers,
 * ring and database) for 8 s, longer than the shard lease (3 s) and the misfire
 * threshold (5 s), then SIGCONT, while 20 every-second jobs run. Nothing runs twice; fires outside
 * the pause run once and in order; the ones it swallowed are late, skipped or caught up by policy.
 */

const PAUSE_MS = 8_000;
const BEFORE_PAUSE_MS = 1_000;
const AFTER_RESUME_MS = 3_000;
const JOBS = 20;

export function pauseScenario(): void {
  describe('fault (b): SIGSTOP of the stack for longer than the lease, then SIGCONT', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickring-fault-b-'));
    let executor: ProtocolExecutor | undefined;
    let stack: StackProcess | undefined;

    afterAll(async () => {
      await executor?.stop();
      await stack?.stop();
      await killAllStacks();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('runs no fire twice after the pause', async () => {
      const adminToken = randomToken();
      const accessToken = randomToken();
      stack = await spawnStack(
        { port: 0, dataDir, demo: false, logLevel: 'warn', adminToken, accessToken },
        { label: 'stack-b' },
      );
      const api = adminClient(stack.api, adminToken);
      const appName = 'fault-sigstop';
      await createAutoGroup(api, appName);
      executor = await startProtocolExecutor({ appName, adminAddress: stack.api, accessToken });
      await waitFor(() => executor!.registrations() > 0, { what: 'the executor registered' });

      const jobs = await createEverySecondJobs(api, appName, JOBS, (i) =>
        i % 2 === 0 ? 'DO_NOTHING' : 'FIRE_ONCE_NOW',
      );
      const everyJobRanAt = (ms: number) =>
        jobs.every((j) => executor!.receipts.some((r) => r.jobId === j.id && r.logDateTime >= ms));
      await waitFor(() => everyJobRanAt(Math.max(...jobs.map((j) => j.firstFire)) + 5_000), {
        what: '6 runs of every job',
        timeoutMs: 40_000,
      });

      // 120 ms before a whole second: that second's fires are claimed and waiting for their millisecond.
      await atMillisecond(-120);
      const stoppedAt = Date.now();
      stack.pause();
      await quietPeriod(stoppedAt, PAUSE_MS, 'the pause');
      const receivedDuringPause = executor.receipts.filter(
        (r) => r.receivedAt > stoppedAt + 100 && r.receivedAt < Date.now(),
      ).length;
      stack.resume();
      const resumedAt = Date.now();
      await waitFor(() => everyJobRanAt(resumedAt + 8_000), {
        what: 'every job running 8 s after the pause',
        timeoutMs: 40_000,
      });

      const gaps = [{ from: stoppedAt - BEFORE_PAUSE_MS, to: resumedAt + AFTER_RESUME_MS }];
      const outcome = await finishEverySecond(api, jobs, executor.receipts, gaps);
      const warnings = logSummary(stack.lines);
      console.log(
        `[faults b] SIGSTOP at ${iso(stoppedAt)} for ${resumedAt - stoppedAt} ms; runs received while paused ` +
          `${receivedDuringPause}; DO_NOTHING runs sent more than 5 s late ${outcome.lateDoNothing.length} (max ` +
          `${Math.max(0, ...outcome.lateDoNothing.map((r) => r.lateMs))} ms); ${describeOutcome(outcome)}; stack warnings: ${warnings}`,
      );
      if (process.env.FAULTS_DEBUG === '1') {
        printTimeline(jobs, executor.receipts, outcome.runs, gaps, stoppedAt);
        console.log(
          stack.lines
            .filter((l) => / WARN | ERROR /.test(l))
            .slice(0, 30)
            .join('\n'),
        );
      }

      expect(receivedDuringPause, 'runs sent while the stack was stopped').toBe(0);
      expectEverySecondOutcome(outcome);
    }, 150_000);
  });
}
