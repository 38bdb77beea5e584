import type { Run } from '@tickring/core/runs';
import { MISFIRE_THRESHOLD_MS } from '@tickring/core/schedule';
import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStoreName } from '../local/start-local.js';
import { type E2eStack, percentile, startE2eStack, startWebhook } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/**
 * The "Dispatch and results" issue end to end: jobs made and driven only through the HTTP admin API
 * of the local stack (real tick → ring → real dispatcher → real SDK executors over HTTP → real
 * callback function), results read back from the run store and GET /v1/logs. `e2e.int.test.ts` runs
 * every scenario on the embedded engine `npm start` runs; `e2e-dynamodb.int.test.ts` runs those that
 * take a fire through every AWS adapter (DynamoDB Local and the SQS stand-in) on them, in a file of
 * its own so the two run side by side.
 */

export type E2eScenario = 'every-second' | 'edits' | 'retries' | 'once' | 'child';

export interface EndToEndOptions {
  readonly scenarios: readonly E2eScenario[];
  /** How many every-second runs in a row the every-second scenario checks (one per second); 10 if not given. */
  readonly everySecondRuns?: number;
}

const EVERY_SECOND = '* * * * * ?';

/** Waits until `ms` have passed since `since`: only for checking that something does NOT happen. */
function quietPeriod(since: number, ms: number, what: string): Promise<true> {
  return waitFor(() => Date.now() >= since + ms, { what, timeoutMs: ms + 5_000, intervalMs: 100 });
}

const finished = (r: Run) => r.handleCode !== 0 || r.triggerCode === 500;

export function endToEndSuite(
  store: LocalStoreName,
  { scenarios, everySecondRuns: n = 10 }: EndToEndOptions,
): void {
  describe(`end to end on ${store}: ${scenarios.join(', ')}`, () => {
    let e: E2eStack;
    const scenario = (name: E2eScenario, title: string, body: () => Promise<void>) => {
      if (scenarios.includes(name)) it(title, body);
    };

    beforeAll(async () => {
      e = await startE2eStack('main', {}, { store });
    });

    afterAll(async () => {
      await e?.stop();
    });

    scenario(
      'every-second',
      `runs a job every second for ${n} s exactly ${n} times, in order, none early and none past the misfire threshold`,
      async () => {
        const appName = await e.createAutoGroup('e2e-every');
        const started = new Map<number, { scheduled: number; at: number }>();
        const executor = await e.startExecutor(appName, {
          everySecond: (ctx: JobContext) => {
            started.set(ctx.logId, { scheduled: ctx.logDateTime, at: Date.now() });
          },
        });
        await e.waitForExecutor(appName, executor.address);
        const job = await e.createJob({
          appName,
          scheduleType: 'CRON',
          scheduleConf: EVERY_SECOND,
          executorHandler: 'everySecond',
          triggerStatus: 'RUNNING',
        });

        // The first fire is the first whole second after now + 5 s; n + 1 runs leave room for n in a row.
        await waitFor(() => started.size >= n + 1, { what: `${n + 1} runs started`, timeoutMs: 60_000 });
        expect((await e.call('POST', `/v1/jobs/${job.id}/stop`)).status).toBe(200);
        const stoppedAt = Date.now();
        // Fires planned for up to ~1 s after the stop may still run; let them finish.
        await quietPeriod(stoppedAt, 2_000, 'the last fires before the stop');
        const runs = await waitFor(
          async () => {
            const all = await e.runsOf(job.id);
            return all.every(finished) ? all : undefined;
          },
          { what: 'every run finished' },
        );

        const times = runs.map((r) => r.scheduledTime);
        const first = times[0] ?? 0;
        expect(first % 1_000).toBe(0);
        // No duplicate and no gap anywhere: one run per consecutive second, at least n + 1 of them.
        expect(times).toEqual(times.map((_, i) => first + i * 1_000));
        expect(runs.length).toBeGreaterThanOrEqual(n + 1);

        const window = runs.slice(0, n);
        expect(window.map((r) => r.scheduledTime)).toEqual(
          Array.from({ length: n }, (_, i) => first + i * 1_000),
        );
        for (const run of window) {
          expect(run, `run ${run.logId}`).toMatchObject({
            triggerType: 'CRON',
            dedupKey: `${job.id}#${run.scheduledTime}`,
            triggerCode: 200,
            executorAddress: executor.address,
            handleCode: 200,
          });
        }
        // The executor ran exactly these runs, each once, with the run's scheduled time as logDateTime.
        expect([...started.keys()].sort((a, b) => a - b)).toEqual(
          runs.map((r) => r.logId).sort((a, b) => a - b),
        );
        const starts = window.map((r) => {
          const s = started.get(r.logId);
          expect(s?.scheduled).toBe(r.scheduledTime);
          return s?.at ?? Number.NaN;
        });
        for (let i = 1; i < starts.length; i++) {
          expect(starts[i], `start of run ${i}`).toBeGreaterThanOrEqual(starts[i - 1] ?? 0);
        }
        const lateness = window.map((r, i) => (starts[i] ?? Number.NaN) - r.scheduledTime);
        console.log(
          `[measure] ${store}: every-second job, ${n} runs, handler start - scheduled time (ms): min ${Math.min(...lateness)}, ` +
            `p50 ${percentile(lateness, 50)}, p99 ${percentile(lateness, 99)}, max ${Math.max(...lateness)}`,
        );
        // Never early (one clock: the executor runs in this process), never past the misfire threshold (such a fire
        // is skipped, not sent). How late within it is a figure of the machine's load: the benchmark measures it.
        for (const late of lateness) {
          expect(late).toBeGreaterThanOrEqual(-5);
          expect(late).toBeLessThanOrEqual(MISFIRE_THRESHOLD_MS);
        }
      },
    );

    scenario(
      'edits',
      'takes a stop or an edit from the next fire on, through the ring to the executor',
      async () => {
        const appName = await e.createAutoGroup('e2e-edit');
        const seen = new Map<number, { scheduled: number; param: string }>();
        const executor = await e.startExecutor(appName, {
          editable: (ctx: JobContext) => {
            seen.set(ctx.logId, { scheduled: ctx.logDateTime, param: ctx.param });
          },
        });
        await e.waitForExecutor(appName, executor.address);
        const job = await e.createJob({
          appName,
          scheduleType: 'CRON',
          scheduleConf: EVERY_SECOND,
          executorHandler: 'editable',
          executorParam: 'v1',
          triggerStatus: 'RUNNING',
        });
        const seenAfter = (ms: number) => [...seen.values()].filter((s) => s.scheduled > ms);
        await waitFor(() => seen.size >= 2, { what: 'two runs', timeoutMs: 30_000 });
        expect([...seen.values()].slice(0, 2).map((s) => s.param)).toEqual(['v1', 'v1']);

        // A parameter edit keeps the schedule (and the fires on the ring); the next fires read the new value.
        const paramEdit = await e.call('PUT', `/v1/jobs/${job.id}`, { executorParam: 'v2' });
        expect(paramEdit.status, JSON.stringify(paramEdit.body)).toBe(200);
        expect(paramEdit.body.scheduleRevision).toBe(job.scheduleRevision);
        const paramEditedAt = Date.now();
        await waitFor(() => seenAfter(paramEditedAt + 1_000).length >= 2, {
          what: 'two runs after the param edit',
        });

        // A schedule edit re-plans from now + 5 s under a new revision: the every-second fires already on
        // the ring are dropped, then the job runs every 2 s.
        const beforeScheduleEdit = Date.now();
        const scheduleEdit = await e.call('PUT', `/v1/jobs/${job.id}`, { scheduleConf: '*/2 * * * * ?' });
        expect(scheduleEdit.status, JSON.stringify(scheduleEdit.body)).toBe(200);
        const scheduleEditedAt = Date.now();
        expect(scheduleEdit.body.scheduleRevision).toBe(job.scheduleRevision + 1);
        const nextAfterEdit = Date.parse(scheduleEdit.body.triggerNextTime);
        expect(nextAfterEdit).toBeGreaterThanOrEqual(beforeScheduleEdit + 5_000);
        await waitFor(() => seenAfter(scheduleEditedAt + 1_000).length >= 2, {
          what: 'two runs after the schedule edit',
          timeoutMs: 30_000,
        });

        const stop = await e.call('POST', `/v1/jobs/${job.id}/stop`);
        expect(stop.status).toBe(200);
        expect(stop.body).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null });
        const stoppedAt = Date.now();
        await quietPeriod(stoppedAt, 7_000, '7 s after the stop');

        const runs = await e.runsOf(job.id);
        expect(runs.every((r) => r.handleCode === 200)).toBe(true);
        expect(new Set(runs.map((r) => r.scheduledTime)).size).toBe(runs.length);
        expect([...seen.keys()].sort((a, b) => a - b)).toEqual(
          runs.map((r) => r.logId).sort((a, b) => a - b),
        );
        // Stop: nothing scheduled later than ~1 s after the stop call ran (the ring had up to 5 s more).
        expect(runs.filter((r) => r.scheduledTime > stoppedAt + 1_000).map((r) => r.scheduledTime)).toEqual(
          [],
        );
        // Param edit: every run due more than 1 s after it got the new value (its run record too).
        const afterParamEdit = runs.filter((r) => r.scheduledTime > paramEditedAt + 1_000);
        expect(afterParamEdit.map((r) => [r.executorParam, seen.get(r.logId)?.param])).toEqual(
          afterParamEdit.map(() => ['v2', 'v2']),
        );
        // Schedule edit: after it, only the new schedule's fires (even seconds, from its first fire on).
        const afterScheduleEdit = runs.filter((r) => r.scheduledTime > scheduleEditedAt + 1_000);
        expect(afterScheduleEdit.length).toBeGreaterThanOrEqual(2);
        for (const run of afterScheduleEdit) {
          expect(run.scheduledTime).toBeGreaterThanOrEqual(nextAfterEdit);
          expect(run.scheduledTime % 2_000).toBe(0);
          expect(run.triggerType).toBe('CRON');
        }
        console.log(
          `[measure] ${store}: stop: last scheduled time ${(runs.at(-1)?.scheduledTime ?? 0) - stoppedAt} ms after the stop answered`,
        );
      },
    );

    scenario(
      'retries',
      'retries a failing handler with doubling backoff, then the alarm reaches the webhook once',
      async () => {
        const hook = await startWebhook();
        try {
          const appName = await e.createAutoGroup('e2e-retry');
          const attempts: { logId: number; at: number }[] = [];
          const executor = await e.startExecutor(appName, {
            alwaysFails: (ctx: JobContext) => {
              attempts.push({ logId: ctx.logId, at: Date.now() });
              throw new Error(`boom on log ${ctx.logId}`);
            },
          });
          await e.waitForExecutor(appName, executor.address);
          const job = await e.createJob({
            appName,
            executorHandler: 'alwaysFails',
            executorFailRetryCount: 2,
            retryBackoffSeconds: 1,
            alarmWebhook: hook.url,
          });

          const fire = await e.trigger(job.id);
          const runs = await e.waitForRuns(job.id, 3, (r) => r.handleCode !== 0 && r.alarmStatus !== 0);
          await waitFor(() => hook.bodies.length > 0, { what: 'the webhook POST' });
          const [first, second, third] = runs as [Run, Run, Run];
          expect(
            runs.map((r) => [r.attempt, r.triggerType, r.triggerCode, r.handleCode, r.retriesLeft]),
          ).toEqual([
            [1, 'MANUAL', 200, 500, 2],
            [2, 'RETRY', 200, 500, 1],
            [3, 'RETRY', 200, 500, 0],
          ]);
          expect(runs.map((r) => r.dedupKey)).toEqual([
            fire.dedupKey,
            `retry#${first.logId}`,
            `retry#${second.logId}`,
          ]);
          expect(third.handleMsg).toContain(`boom on log ${third.logId}`);
          // Not needed, not needed, sent.
          expect(runs.map((r) => r.alarmStatus)).toEqual([1, 1, 2]);
          expect(attempts.map((a) => a.logId)).toEqual(runs.map((r) => r.logId));

          // Backoff 1 s, then 2 s: from the failure's callback to the retry's scheduled time, and as the executor saw it.
          const backoffs = [second.scheduledTime - first.handleTime, third.scheduledTime - second.handleTime];
          const gaps = [
            (attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0),
            (attempts[2]?.at ?? 0) - (attempts[1]?.at ?? 0),
          ];
          console.log(
            `[measure] ${store}: retry backoff (callback → retry due): ${backoffs.join(' ms, ')} ms; ` +
              `handler start to start: ${gaps.join(' ms, ')} ms`,
          );
          expect(backoffs[0]).toBeGreaterThanOrEqual(1_000);
          expect(backoffs[0]).toBeLessThan(1_000 + 2_000);
          expect(backoffs[1]).toBeGreaterThanOrEqual(2_000);
          expect(backoffs[1]).toBeLessThan(2_000 + 2_000);
          expect(gaps[0]).toBeGreaterThanOrEqual(1_000);
          expect(gaps[1]).toBeGreaterThanOrEqual(2_000);

          const alarmedAt = Date.now();
          await quietPeriod(alarmedAt, 1_500, 'a second alarm, if any');
          expect(hook.bodies).toHaveLength(1);
          expect(hook.bodies[0]).toMatchObject({
            type: 'tickring.alarm',
            summary: expect.stringContaining(`after 3 attempts: log ${third.logId}`),
            job: { id: job.id, appName },
            run: { logId: third.logId, attempt: 3, triggerType: 'RETRY', handleCode: 500 },
          });
        } finally {
          await hook.close();
        }
      },
    );

    scenario('once', 'runs a ONCE job exactly once at its instant, then leaves it stopped', async () => {
      const appName = await e.createAutoGroup('e2e-once');
      const started: { logId: number; scheduled: number; at: number }[] = [];
      const executor = await e.startExecutor(appName, {
        onceJob: (ctx: JobContext) => {
          started.push({ logId: ctx.logId, scheduled: ctx.logDateTime, at: Date.now() });
        },
      });
      await e.waitForExecutor(appName, executor.address);
      // Far enough ahead to be after the start rule's now + 5 s.
      const instant = Math.ceil((Date.now() + 8_000) / 1000) * 1000;
      const job = await e.createJob({
        appName,
        scheduleType: 'ONCE',
        scheduleConf: new Date(instant).toISOString(),
        executorHandler: 'onceJob',
        triggerStatus: 'RUNNING',
      });

      const [run] = await e.waitForRuns(job.id, 1, (r) => r.handleCode !== 0, 30_000);
      expect(run).toMatchObject({ triggerType: 'ONCE', scheduledTime: instant, handleCode: 200 });
      // The tick stops the job when its schedule ends; that stop must not cost the fire itself.
      const stored = await e.call('GET', `/v1/jobs/${job.id}`);
      expect(stored.body).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null });
      await quietPeriod(Date.now(), 3_000, 'no second run of a ONCE job');
      expect(await e.runsOf(job.id)).toHaveLength(1);
      expect(started).toHaveLength(1);
      expect(started[0]?.scheduled).toBe(instant);
      expect(started[0]!.at - instant).toBeGreaterThanOrEqual(-5);
      expect(started[0]!.at - instant).toBeLessThanOrEqual(MISFIRE_THRESHOLD_MS);
    });

    scenario('child', 'runs a child job after its parent succeeds, and not after it fails', async () => {
      const appName = await e.createAutoGroup('e2e-child');
      const childRan: number[] = [];
      const executor = await e.startExecutor(appName, {
        parentJob: (ctx: JobContext) => {
          if (ctx.param === 'fail') throw new Error('parent failed on purpose');
          return 'parent done';
        },
        childJob: (ctx: JobContext) => {
          childRan.push(ctx.logId);
        },
      });
      await e.waitForExecutor(appName, executor.address);
      const child = await e.createJob({ appName, executorHandler: 'childJob' });
      const parent = await e.createJob({
        appName,
        executorHandler: 'parentJob',
        childJobIds: [child.id],
        executorFailRetryCount: 0,
      });

      const succeeding = await e.trigger(parent.id, { executorParam: 'succeed' });
      const [parentRun] = await e.waitForRuns(parent.id, 1, (r) => r.handleCode !== 0);
      expect(parentRun).toMatchObject({ dedupKey: succeeding.dedupKey, handleCode: 200 });
      // biome-ignore lint/suspicious/noExplicitAny: a run view, read field by field
      const childRun: any = await waitFor(
        async () => {
          const reply = await e.call('GET', `/v1/logs?jobId=${child.id}`);
          expect(reply.status).toBe(200);
          const [only] = reply.body.items;
          return only?.status === 'success' ? only : undefined;
        },
        { what: 'the child run succeeded (GET /v1/logs)' },
      );
      expect(childRun).toMatchObject({
        jobId: child.id,
        triggerType: 'PARENT',
        parentLogId: parentRun?.logId,
        dedupKey: `parent#${parentRun?.logId}#${child.id}`,
        handleCode: 200,
      });
      expect(childRan).toEqual([childRun.logId]);

      const failing = await e.trigger(parent.id, { executorParam: 'fail' });
      const failedRun = await waitFor(
        async () =>
          (await e.runsOf(parent.id)).find(
            (r) => r.dedupKey === failing.dedupKey && r.handleCode !== 0 && r.alarmStatus !== 0,
          ),
        { what: "the parent's failure recorded" },
      );
      expect(failedRun).toMatchObject({ handleCode: 500, executorParam: 'fail' });
      expect(failedRun.handleMsg).toContain('parent failed on purpose');
      await quietPeriod(Date.now(), 5_000, '5 s after the parent failed');
      expect((await e.runsOf(child.id)).map((r) => r.logId)).toEqual([childRun.logId]);
      expect(childRan).toEqual([childRun.logId]);
    });
  });
}
