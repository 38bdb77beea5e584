import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { type EmbeddedLocalStack, type StartLocalOptions, startLocal } from '../../local/start-local.js';
import type { RunReceipt } from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';

/** Shared pieces of the fault-injection tests: the stack in a child process, the admin API, the tallies. */

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STACK_ENTRY = join(REPO_ROOT, 'test', 'faults', 'stack-process.ts');

/** XXL-JOB's misfire threshold (a fire more than 5 s late is a misfire). */
export const MISFIRE_THRESHOLD_MS = 5_000;

export const randomToken = (): string => randomBytes(20).toString('hex');

/** A port free on 127.0.0.1 right now (taken and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

export const portOf = (url: string): number => Number(new URL(url).port);

/** Resolves when the clock is `ms` into a second (0..999); `ms` may be negative: that much before a whole second. */
export function atMillisecond(ms: number): Promise<void> {
  const phase = ((ms % 1000) + 1000) % 1000;
  const now = Date.now();
  let wait = (phase - (now % 1000) + 1000) % 1000;
  if (wait < 20) wait += 1000;
  return new Promise((resolve) => setTimeout(resolve, wait));
}

// ---------------------------------------------------------------------------------------------------
// The stack in a child process

export interface StackProcess {
  readonly api: string;
  /** The node process running `startLocal` (SIGSTOP / SIGCONT go here). */
  readonly pid: number;
  /** The process group (the node process and what it started, e.g. a JVM): SIGKILL goes to all of it. */
  readonly groupPid: number;
  /** `sqlite` (its database file in `database`) or `dynamodb-local` (its stand-ins' endpoints). */
  readonly store: string;
  readonly database?: string;
  readonly dynamodb?: string;
  readonly sqs?: string;
  /** When the ready line was read. */
  readonly readyAt: number;
  /** Every line the process wrote (stdout and stderr), in order. */
  readonly lines: readonly string[];
  readonly exited: Promise<void>;
  /** SIGKILL to the whole group; resolves when the node process (our child) has exited. */
  killHard(): Promise<void>;
  /**
   * Resolves when the node process is gone for good: a zombie still holds its pid, and the data-dir
   * lock counts it as alive until it is reaped.
   */
  reaped(): Promise<void>;
  pause(): void;
  resume(): void;
  /** SIGTERM (an orderly stop), SIGKILL to the group if it takes longer than `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

const live = new Set<StackProcess>();

/**
 * Spawns `test/faults/stack-process.ts` with these `startLocal` options in its own process group and
 * waits for its ready line. A start that fails throws with the process's last lines; the child is gone then.
 */
export async function spawnStack(
  options: Record<string, unknown>,
  { readyTimeoutMs = 90_000, label = 'stack' } = {},
): Promise<StackProcess> {
  // tsx as a loader in this one process, not its CLI, which would run the script in a second node
  // (0.7 s more CPU a start, and a killed wrapper's child left a zombie for PID 1 to reap).
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', STACK_ENTRY, JSON.stringify(options)],
    {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const groupPid = child.pid as number;
  const lines: string[] = [];
  const echo = process.env.FAULTS_LOG === '1';
  let onReady: ((line: Record<string, unknown>) => void) | undefined;
  const take = (stream: NodeJS.ReadableStream | null) => {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (echo) console.log(`[${label}] ${line}`);
      if (line.startsWith('{"ready":')) onReady?.(JSON.parse(line) as Record<string, unknown>);
    });
  };
  take(child.stdout);
  take(child.stderr);
  child.stdin?.on('error', () => undefined);
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-groupPid, signal);
    } catch {
      // already gone
    }
  };

  let ready: Record<string, unknown>;
  try {
    ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${label} not ready within ${readyTimeoutMs} ms`)),
        readyTimeoutMs,
      );
      onReady = (line) => {
        clearTimeout(timer);
        if (line.ready === true) resolve(line);
        else reject(new Error(String(line.error)));
      };
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${label} exited before it was ready`));
      });
    });
  } catch (err) {
    killGroup('SIGKILL');
    await exited;
    const tail = lines.slice(-15).join('\n');
    throw new Error(`${(err as Error).message}\n--- last lines of ${label} ---\n${tail}`);
  }

  const pid = Number(ready.pid);
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  const stack: StackProcess = {
    api: String(ready.api),
    pid,
    groupPid,
    store: String(ready.store),
    ...(ready.store === 'sqlite'
      ? { database: String(ready.database) }
      : { dynamodb: String(ready.dynamodb), sqs: String(ready.sqs) }),
    readyAt: Date.now(),
    lines,
    exited,
    async killHard() {
      killGroup('SIGKILL');
      await exited;
      live.delete(stack);
    },
    async reaped() {
      await waitFor(() => !pidExists(pid), { what: `pid ${pid} reaped`, timeoutMs: 15_000, intervalMs: 50 });
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    async stop(timeoutMs = 35_000) {
      if (gone) return;
      signal('SIGCONT');
      signal('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
      live.delete(stack);
    },
  };
  live.add(stack);
  return stack;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The WARN and ERROR lines of a stack's log, counted by message: `[dispatcher] fire skipped (misfire) ×30, ...`. */
export function logSummary(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const m = /^\S+ (?:WARN|ERROR) (\[[^\]]+\] .+?)(?= \w+=|$)/.exec(line);
    if (m?.[1]) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  return [...counts].map(([message, n]) => `${message} ×${n}`).join(', ') || 'none';
}

/** Every stack process still running (for an afterAll that must leave nothing behind). */
export async function killAllStacks(): Promise<void> {
  await Promise.all([...live].map((s) => s.killHard()));
}

/** Polls `/health` until stopped: whether it ever said 503 `starting`, and when it first said 200. */
export function watchHealth(url: string): { stop(): { sawStarting: boolean; firstOkAt?: number } } {
  let sawStarting = false;
  let firstOkAt: number | undefined;
  let running = true;
  void (async () => {
    while (running && firstOkAt === undefined) {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
        const body = (await res.json().catch(() => ({}))) as { status?: string };
        if (res.status === 503 && body.status === 'starting') sawStarting = true;
        if (res.status === 200) firstOkAt = Date.now();
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    stop() {
      running = false;
      return { sawStarting, ...(firstOkAt === undefined ? {} : { firstOkAt }) };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The admin API

export interface ApiReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
  readonly body: any;
}

export type Api = (method: string, path: string, body?: unknown) => Promise<ApiReply>;

/**
 * A whole stack in this process on the embedded engine (a database file of its own, removed at
 * stop), with fresh tokens, and its admin API client. The faults project starts no shared
 * stand-ins: a scenario on DynamoDB Local spawns a stack with its own.
 */
export async function startSharedStack(
  options: Partial<StartLocalOptions> = {},
): Promise<{ stack: EmbeddedLocalStack; api: Api }> {
  const stack = await startLocal({
    port: 0,
    inMemory: true,
    demo: false,
    logLevel: 'silent',
    adminToken: randomToken(),
    accessToken: randomToken(),
    ...options,
    store: 'sqlite',
  });
  return { stack, api: adminClient(stack.urls.api, stack.tokens.adminToken) };
}

export function adminClient(baseUrl: string, adminToken: string): Api {
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** A run as `GET /v1/logs` shows it (the fields the tests read). */
export interface RunView {
  readonly logId: number;
  readonly jobId: number;
  readonly status: 'running' | 'success' | 'fail' | 'skipped';
  readonly triggerType: string;
  readonly dedupKey: string;
  readonly scheduledTime: string;
  readonly triggerTime: string;
  readonly dispatchedAt: string | null;
  readonly triggerCode: number;
  readonly triggerMsg: string;
  readonly handleCode: number;
  readonly handleMsg: string;
  readonly handleTime: string | null;
  readonly attempt: number;
  readonly retriesLeft: number;
  readonly alarmStatus: string;
  readonly executorAddress: string | null;
  /** A skipped run stands for this many fires of its job, due from `scheduledTime` to `skippedUntil`. */
  readonly skippedCount: number | null;
  readonly skippedUntil: string | null;
}

/** Every run of a job through `GET /v1/logs?jobId=` (following the cursor; pages may come back short). */
export async function runsOf(api: Api, jobId: number): Promise<RunView[]> {
  const runs: RunView[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `/v1/logs?jobId=${jobId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const reply = await api('GET', query);
    if (reply.status !== 200) throw new Error(`GET ${query}: ${reply.status} ${JSON.stringify(reply.body)}`);
    runs.push(...(reply.body.items as RunView[]));
    cursor = reply.body.nextCursor as string | null;
  } while (cursor);
  return runs;
}

export async function createAutoGroup(api: Api, appName: string): Promise<void> {
  const reply = await api('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' });
  if (reply.status !== 201) throw new Error(`group ${appName} not created: ${JSON.stringify(reply)}`);
}

/** Waits until GET /v1/executors shows an executor of the group online. */
export async function waitForExecutorOnline(api: Api, appName: string): Promise<void> {
  await waitFor(
    async () => {
      const reply = await api('GET', `/v1/executors?appName=${appName}`);
      return reply.body?.items?.[0]?.executors?.some((x: { online: boolean }) => x.online);
    },
    { what: 'the executor online' },
  );
}

/** One job per workflow node `N`, running handler `wfN` without retries; their ids by node. */
export async function createNodeJobs(
  api: Api,
  appName: string,
  nodes: readonly string[],
): Promise<Record<string, number>> {
  const jobs: Record<string, number> = {};
  for (const node of nodes) {
    const reply = await api('POST', '/v1/jobs', {
      appName,
      name: `node ${node}`,
      author: 'faults',
      executorHandler: `wf${node}`,
      executorFailRetryCount: 0,
    });
    if (reply.status !== 201)
      throw new Error(`job of node ${node} not created: ${JSON.stringify(reply.body)}`);
    jobs[node] = reply.body.id as number;
  }
  return jobs;
}

export interface CreatedJob {
  readonly id: number;
  readonly firstFire: number;
  readonly misfireStrategy: 'DO_NOTHING' | 'FIRE_ONCE_NOW';
}

/** `count` FIX_RATE 1 s jobs, started; `strategy(i)` picks each one's misfire strategy. */
export async function createEverySecondJobs(
  api: Api,
  appName: string,
  count: number,
  strategy: (i: number) => 'DO_NOTHING' | 'FIRE_ONCE_NOW' = () => 'DO_NOTHING',
): Promise<CreatedJob[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const reply = await api('POST', '/v1/jobs', {
        appName,
        name: `every-second-${i}`,
        author: 'faults',
        scheduleType: 'FIX_RATE',
        scheduleConf: '1',
        executorHandler: 'faultProbe',
        misfireStrategy: strategy(i),
        triggerStatus: 'RUNNING',
      });
      if (reply.status !== 201) throw new Error(`job not created: ${JSON.stringify(reply)}`);
      return {
        id: reply.body.id as number,
        firstFire: Date.parse(reply.body.triggerNextTime as string),
        misfireStrategy: reply.body.misfireStrategy as 'DO_NOTHING' | 'FIRE_ONCE_NOW',
      };
    }),
  );
}

export async function stopJobs(api: Api, jobs: readonly { id: number }[]): Promise<void> {
  await Promise.all(
    jobs.map(async (job) => {
      const reply = await api('POST', `/v1/jobs/${job.id}/stop`);
      if (reply.status !== 200) throw new Error(`job ${job.id} not stopped: ${JSON.stringify(reply)}`);
    }),
  );
}

/** Waits until `ms` have passed since `since`: only to see that something does NOT happen meanwhile. */
export function quietPeriod(since: number, ms: number, what: string): Promise<true> {
  return waitFor(() => Date.now() >= since + ms, { what, timeoutMs: ms + 5_000, intervalMs: 100 });
}

// ---------------------------------------------------------------------------------------------------
// Tallies

export interface FireTally {
  /** Expected fires (every second from each job's first fire up to `expectedUntil`). */
  readonly expected: number;
  /** Distinct expected fires received at least once. */
  readonly ran: number;
  /** Receipts beyond the first of the same (jobId, logDateTime), plus repeated logIds. */
  readonly duplicates: number;
  /** Receipts whose logDateTime is earlier than one already received for the same job. */
  readonly outOfOrder: number;
  /** Receipts not on any job's 1 s grid. */
  readonly offGrid: number;
  /** Expected fires outside the gaps that were not received: must be none. */
  readonly missedOutsideGap: readonly { jobId: number; time: string }[];
  /** Expected fires inside the gaps (downtime), by what became of them. */
  readonly gap: {
    readonly expected: number;
    readonly ran: number;
    readonly skipped: number;
    readonly absent: number;
    /** Recorded as skipped and received anyway: must be none. */
    readonly skippedAndRan: number;
  };
  /** receipt − scheduled time over first receipts, ms. */
  readonly lateness: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Before, between and after the gaps: receipt lateness (first receipts) and fires missed. */
  readonly phases: readonly { readonly p50: number; readonly max: number; readonly missed: number }[];
}

export interface TallyInput {
  readonly jobs: readonly Pick<CreatedJob, 'id' | 'firstFire'>[];
  readonly receipts: readonly RunReceipt[];
  /** Last scheduled time every job must have had fired (inclusive). */
  readonly expectedUntil: number;
  /** Scheduled times inside any of these [from, to] may be missing (the stack was down). */
  readonly gaps?: readonly { readonly from: number; readonly to: number }[];
  /** Per job, the scheduled times the admin API shows as skipped. */
  readonly skipped?: ReadonlyMap<number, ReadonlySet<number>>;
}

export function tallyFires(input: TallyInput): FireTally {
  const { jobs, receipts, expectedUntil, gaps = [] } = input;
  const firstOf = new Map(jobs.map((j) => [j.id, j.firstFire]));
  const counts = new Map<string, number>();
  const logIds = new Map<number, number>();
  const newest = new Map<number, number>();
  const firstLateness: number[] = [];
  let duplicates = 0;
  let outOfOrder = 0;
  let offGrid = 0;
  for (const r of receipts) {
    const key = `${r.jobId}@${r.logDateTime}`;
    const seen = counts.get(key) ?? 0;
    counts.set(key, seen + 1);
    if (seen > 0) duplicates++;
    else firstLateness.push(r.receivedAt - r.logDateTime);
    const sameLog = logIds.get(r.logId) ?? 0;
    logIds.set(r.logId, sameLog + 1);
    if (sameLog > 0 && seen === 0) duplicates++; // the same logId under another time: still sent twice
    const before = newest.get(r.jobId);
    if (before !== undefined && r.logDateTime < before) outOfOrder++;
    newest.set(r.jobId, Math.max(before ?? r.logDateTime, r.logDateTime));
    const first = firstOf.get(r.jobId);
    if (first === undefined || r.logDateTime < first || (r.logDateTime - first) % 1000 !== 0) offGrid++;
  }
  let expected = 0;
  let ran = 0;
  const missedOutsideGap: { jobId: number; time: string }[] = [];
  const inGap = { expected: 0, ran: 0, skipped: 0, absent: 0, skippedAndRan: 0 };
  for (const job of jobs) {
    const skippedTimes = input.skipped?.get(job.id) ?? new Set<number>();
    for (let t = job.firstFire; t <= expectedUntil; t += 1000) {
      expected++;
      const received = (counts.get(`${job.id}@${t}`) ?? 0) > 0;
      if (received) ran++;
      const inside = gaps.some((gap) => t >= gap.from && t <= gap.to);
      if (!inside) {
        if (!received) missedOutsideGap.push({ jobId: job.id, time: new Date(t).toISOString() });
        continue;
      }
      inGap.expected++;
      const skipped = skippedTimes.has(t);
      if (received && skipped) inGap.skippedAndRan++;
      else if (received) inGap.ran++;
      else if (skipped) inGap.skipped++;
      else inGap.absent++;
    }
  }
  const sorted = [...firstLateness].sort((a, b) => a - b);
  const pick = (p: number) => percentileOf(sorted, p);
  const bounds = [Number.NEGATIVE_INFINITY, ...gaps.flatMap((g) => [g.from, g.to]), Number.POSITIVE_INFINITY];
  const phases = Array.from({ length: gaps.length + 1 }, (_, i) => {
    const [from, to] = [bounds[2 * i] as number, bounds[2 * i + 1] as number];
    const inPhase = (t: number) => t > from && t < to;
    const late = receipts
      .filter(
        (r, k) =>
          inPhase(r.logDateTime) &&
          receipts.findIndex((x) => x.jobId === r.jobId && x.logDateTime === r.logDateTime) === k,
      )
      .map((r) => r.receivedAt - r.logDateTime)
      .sort((a, b) => a - b);
    return {
      p50: percentileOf(late, 50),
      max: late.at(-1) ?? Number.NaN,
      missed: missedOutsideGap.filter((m) => inPhase(Date.parse(m.time))).length,
    };
  });
  return {
    phases,
    expected,
    ran,
    duplicates,
    outOfOrder,
    offGrid,
    missedOutsideGap,
    gap: inGap,
    lateness: { p50: pick(50), p99: pick(99), max: sorted.at(-1) ?? Number.NaN },
  };
}

/** The p-th percentile (nearest rank) of ascending values; NaN for none. */
function percentileOf(sorted: readonly number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

/**
 * Per job, the scheduled times its runs with status `skipped` stand for (from the admin API): a
 * skipped run may stand for a range of its job's fires, every second (the kit's jobs fire so) from
 * its scheduledTime to its skippedUntil.
 */
export function skippedTimes(runsByJob: ReadonlyMap<number, readonly RunView[]>): Map<number, Set<number>> {
  return new Map(
    [...runsByJob].map(([jobId, runs]) => [
      jobId,
      new Set(
        runs
          .filter((r) => r.status === 'skipped')
          .flatMap((r) => {
            const from = Date.parse(r.scheduledTime);
            const until = r.skippedUntil === null ? from : Date.parse(r.skippedUntil);
            return Array.from({ length: Math.floor((until - from) / 1000) + 1 }, (_, i) => from + i * 1000);
          }),
      ),
    ]),
  );
}

/** A FIRE_ONCE_NOW catch-up run: the tick's MISFIRE fire, or a late fire sent as the catch-up. */
export const isCatchUp = (run: RunView): boolean =>
  run.status !== 'skipped' && (run.triggerType === 'MISFIRE' || run.triggerMsg.includes('the catch-up of'));

export const iso = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString());

/**
 * The admin's runs against what the executor received: runs the API shows as sent (not skipped, not
 * refused) that never reached the executor, and received runs the API does not show as finished.
 */
export function crossCheck(
  runsByJob: ReadonlyMap<number, readonly RunView[]>,
  receipts: readonly RunReceipt[],
): { neverReceived: RunView[]; receivedNotFinished: { logId: number; status: string }[] } {
  const received = new Set(receipts.map((r) => r.logId));
  const all = [...runsByJob.values()].flat();
  const byLogId = new Map(all.map((r) => [r.logId, r]));
  return {
    neverReceived: all.filter(
      (r) => r.status !== 'skipped' && r.triggerCode === 200 && !received.has(r.logId),
    ),
    receivedNotFinished: [...received]
      .map((logId) => ({ logId, status: byLogId.get(logId)?.status ?? 'missing' }))
      .filter((r) => r.status !== 'success'),
  };
}

export async function runsByJob(api: Api, jobs: readonly { id: number }[]): Promise<Map<number, RunView[]>> {
  return new Map(await Promise.all(jobs.map(async (j) => [j.id, await runsOf(api, j.id)] as const)));
}

// ---------------------------------------------------------------------------------------------------
// The end of an every-second scenario

export interface Gap {
  readonly from: number;
  readonly to: number;
}

export interface EverySecondOutcome {
  readonly tally: FireTally;
  readonly runs: ReadonlyMap<number, readonly RunView[]>;
  /** Catch-up runs, per gap (by when they were claimed or received). */
  readonly catchUps: readonly number[];
  /** Catch-ups the admin's run does not note as one (sent late at the last look). */
  readonly unnotedCatchUps: number;
  /** Most catch-up runs of one job after one gap. */
  readonly maxCatchUpsPerJobAndGap: number;
  /** logIds of catch-up runs of DO_NOTHING jobs: must be none. */
  readonly doNothingCatchUps: readonly number[];
  /** Runs of DO_NOTHING jobs received later than the misfire threshold (+1 s): must be none. */
  readonly lateDoNothing: readonly { jobId: number; scheduled: string; lateMs: number }[];
  readonly neverReceived: readonly RunView[];
  readonly receivedNotFinished: readonly { logId: number; status: string }[];
}

/**
 * Stops the jobs, waits for the fires outside the gaps (up to 15 s), a quiet 2 s for anything late or
 * repeated, and for every received run to finish (up to 20 s), then tallies receipts against the
 * schedule and the admin API's runs.
 */
export async function finishEverySecond(
  api: Api,
  jobs: readonly CreatedJob[],
  receipts: readonly RunReceipt[],
  gaps: readonly Gap[],
): Promise<EverySecondOutcome> {
  const stopAt = Date.now();
  await stopJobs(api, jobs);
  const expectedUntil = Math.floor((stopAt - 500) / 1000) * 1000;
  const receivedTimes = (jobId: number) =>
    new Set(receipts.filter((r) => r.jobId === jobId).map((r) => r.logDateTime));
  const outsideGapsReceived = (job: CreatedJob) => {
    const got = receivedTimes(job.id);
    for (let t = job.firstFire; t <= expectedUntil; t += 1000) {
      if (!gaps.some((g) => t >= g.from && t <= g.to) && !got.has(t)) return false;
    }
    return true;
  };
  // Not asserted here: the tally names what is missing.
  await waitFor(() => jobs.every(outsideGapsReceived), {
    what: 'every fire outside the gaps received',
    timeoutMs: 15_000,
  }).catch(() => undefined);
  await quietPeriod(Date.now(), 2_000, 'late or repeated runs');

  let runs = new Map<number, RunView[]>();
  await waitFor(
    async () => {
      runs = await runsByJob(api, jobs);
      return crossCheck(runs, receipts).receivedNotFinished.length === 0;
    },
    { what: 'every received run finished', timeoutMs: 20_000, intervalMs: 500 },
  ).catch(() => undefined);
  const { neverReceived, receivedNotFinished } = crossCheck(runs, receipts);
  const tally = tallyFires({ jobs, receipts, expectedUntil, gaps, skipped: skippedTimes(runs) });

  // A catch-up: a run the admin notes as one, or any run of a FIRE_ONCE_NOW job received more than
  // the threshold (+1 s) late (a catch-up taken at the last look before sending carries no note).
  const strategyOf = new Map(jobs.map((j) => [j.id, j.misfireStrategy]));
  const isLate = (r: RunReceipt) => r.receivedAt - r.logDateTime > MISFIRE_THRESHOLD_MS + 1_000;
  const gapAt = (at: number) =>
    gaps.findIndex((g, i) => at >= g.from && at < (gaps[i + 1]?.from ?? Number.POSITIVE_INFINITY));
  const catchUpAt = new Map<number, { jobId: number; at: number; noted: boolean }>();
  for (const run of [...runs.values()].flat().filter(isCatchUp)) {
    catchUpAt.set(run.logId, { jobId: run.jobId, at: Date.parse(run.triggerTime), noted: true });
  }
  for (const r of receipts.filter((x) => isLate(x) && strategyOf.get(x.jobId) === 'FIRE_ONCE_NOW')) {
    const noted = catchUpAt.get(r.logId)?.noted ?? false;
    catchUpAt.set(r.logId, { jobId: r.jobId, at: r.receivedAt, noted });
  }
  const perJobAndGap = new Map<string, number>();
  for (const c of catchUpAt.values()) {
    const key = `${c.jobId}/${gapAt(c.at)}`;
    perJobAndGap.set(key, (perJobAndGap.get(key) ?? 0) + 1);
  }
  const catchUps = [...catchUpAt.entries()];
  return {
    tally,
    runs,
    catchUps: gaps.map((_, i) => catchUps.filter(([, c]) => gapAt(c.at) === i).length),
    unnotedCatchUps: catchUps.filter(([, c]) => !c.noted).length,
    maxCatchUpsPerJobAndGap: Math.max(0, ...perJobAndGap.values()),
    doNothingCatchUps: catchUps
      .filter(([, c]) => strategyOf.get(c.jobId) !== 'FIRE_ONCE_NOW')
      .map(([logId]) => logId),
    lateDoNothing: receipts
      .filter((r) => isLate(r) && strategyOf.get(r.jobId) !== 'FIRE_ONCE_NOW')
      .map((r) => ({ jobId: r.jobId, scheduled: iso(r.logDateTime), lateMs: r.receivedAt - r.logDateTime })),
    neverReceived,
    receivedNotFinished,
  };
}

/** One line of figures for an every-second scenario. */
export function describeOutcome(o: EverySecondOutcome): string {
  const t = o.tally;
  return (
    `fires expected ${t.expected}, ran ${t.ran}, duplicates ${t.duplicates}, out of order ${t.outOfOrder}, ` +
    `off grid ${t.offGrid}, missed outside the downtime ${t.missedOutsideGap.length}; inside the downtime ` +
    `${t.gap.expected}: ran ${t.gap.ran}, recorded skipped ${t.gap.skipped}, no run ${t.gap.absent}, skipped and ran ` +
    `${t.gap.skippedAndRan}; FIRE_ONCE_NOW catch-up runs ${o.catchUps.join(' + ')} (${o.unnotedCatchUps} not noted ` +
    `as one; most per job and downtime ` +
    `${o.maxCatchUpsPerJobAndGap}); shown as sent but never received ${o.neverReceived.length}; received but not ` +
    `finished ${o.receivedNotFinished.length}; lateness p50/p99/max ${t.lateness.p50}/${t.lateness.p99}/${t.lateness.max} ms` +
    (t.phases.length > 1
      ? `; before/between/after the downtimes: lateness p50/max ${t.phases.map((p) => `${p.p50}/${p.max}`).join(', ')} ms, ` +
        `missed ${t.phases.map((p) => p.missed).join(', ')}`
      : '')
  );
}

/** FAULTS_DEBUG=1: per job, each second of the gaps: R received, C catch-up, s skipped, r running, - no run. */
export function printTimeline(
  jobs: readonly CreatedJob[],
  receipts: readonly RunReceipt[],
  runs: ReadonlyMap<number, readonly RunView[]>,
  gaps: readonly Gap[],
  origin: number,
): void {
  for (const job of jobs) {
    const got = new Set(receipts.filter((r) => r.jobId === job.id).map((r) => r.logDateTime));
    const byTime = new Map((runs.get(job.id) ?? []).map((r) => [Date.parse(r.scheduledTime), r]));
    const cells = gaps.map((gap) => {
      const out: string[] = [];
      for (let t = Math.ceil(gap.from / 1000) * 1000; t <= gap.to; t += 1000) {
        const run = byTime.get(t);
        const mark = got.has(t) ? (run && isCatchUp(run) ? 'C' : 'R') : run ? run.status[0] : '-';
        out.push(`${((t - origin) / 1000).toFixed(0)}:${mark}`);
      }
      return out.join(' ');
    });
    console.log(`job ${job.id} ${job.misfireStrategy}: ${cells.join(' | ')}`);
  }
  const reasons = new Map<string, number>();
  for (const r of [...runs.values()].flat().filter((x) => x.status === 'skipped')) {
    const why = (r.triggerMsg.split('Skipped, never sent: ')[1] ?? '').replace(/[0-9][0-9.:TZ-]*/g, '#');
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  console.log('skip reasons', JSON.stringify([...reasons]));
}

/** Each missed fire with what the admin API shows for it: no run, or its run's status and why. */
function explainMissed(o: EverySecondOutcome): { jobId: number; time: string; run: string }[] {
  return o.tally.missedOutsideGap.map(({ jobId, time }) => {
    const run = o.runs.get(jobId)?.find((r) => Date.parse(r.scheduledTime) === Date.parse(time));
    const why = run?.triggerMsg.split('\n').find((l) => l.startsWith('Skipped')) ?? run?.handleMsg ?? '';
    return {
      jobId,
      time,
      run: run
        ? `${run.logId} ${run.triggerType} ${run.status} (trigger ${run.triggerCode}): ${why}`
        : 'no run',
    };
  });
}

/** The assertions every every-second scenario shares. */
export function expectEverySecondOutcome(o: EverySecondOutcome): void {
  expect(o.tally.duplicates, 'duplicates').toBe(0);
  expect(o.tally.outOfOrder, 'runs received out of schedule order').toBe(0);
  expect(o.tally.offGrid, 'runs off the schedule').toBe(0);
  expect(explainMissed(o), 'fires outside the downtime that never ran').toEqual([]);
  expect(o.tally.gap.skippedAndRan, 'fires recorded as skipped that ran').toBe(0);
  expect(o.doNothingCatchUps, 'catch-ups of DO_NOTHING jobs').toEqual([]);
  expect(o.maxCatchUpsPerJobAndGap <= 1, 'at most one catch-up per FIRE_ONCE_NOW job and downtime').toBe(
    true,
  );
  expect(o.lateDoNothing, 'DO_NOTHING runs received later than the misfire threshold').toEqual([]);
  expect(
    o.neverReceived.map((r) => ({
      jobId: r.jobId,
      logId: r.logId,
      scheduledTime: r.scheduledTime,
      status: r.status,
    })),
    'runs the admin shows as sent (triggerCode 200) that never reached the executor',
  ).toEqual([]);
  expect(o.receivedNotFinished, 'received runs the admin does not show as finished').toEqual([]);
}
