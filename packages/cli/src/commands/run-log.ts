/**
 * A run's log as its executor keeps it (`GET /v1/logs/{logId}/output?fromLineNum=`), read once or
 * followed: polled until the run has its result and the answer says `isEnd` (every line read), then
 * the outcome. Used by `runs log` and `jobs trigger --follow`.
 */
import { type Run, type RunOutput, TickringApiError, type TickringClient } from '@tickring/client';
import { abortable, type Context, sleep } from '../context.js';
import { EXIT, InterruptedError } from '../errors.js';
import { formatDuration, toMillis } from '../output.js';

export interface FollowOptions {
  /** The first line to read (1-based). */
  readonly fromLine?: number;
  /** Between two polls. */
  readonly pollMs?: number;
  /** How long a run may be missing (the dispatcher has not recorded it yet) before giving up. */
  readonly recordWaitMs?: number;
  /** After the run finished, how long to wait for the executor to mark its log's end. */
  readonly endWaitMs?: number;
}

const POLL_MS = 500;
const RECORD_WAIT_MS = 60_000;
const END_WAIT_MS = 10_000;

function apiStatus(err: unknown): number | undefined {
  return err instanceof TickringApiError ? err.status : undefined;
}

/** Prints what the log has now (reading on while lines come); exit 0. */
export async function printLog(
  ctx: Context,
  client: TickringClient,
  logId: number,
  fromLine = 1,
): Promise<number> {
  let line = fromLine;
  for (;;) {
    const out = await client.getRunOutput({ path: { logId }, query: { fromLineNum: line } });
    writeSlice(ctx, out);
    if (out.isEnd || out.toLineNum < line) break;
    line = out.toLineNum + 1;
  }
  return EXIT.ok;
}

/**
 * Follows the run's log to its end and prints the outcome: exit 0 when the run succeeded, 1 when it
 * failed (or was skipped), 130 on Ctrl-C (the run goes on).
 */
export async function followLog(
  ctx: Context,
  client: TickringClient,
  logId: number,
  options: FollowOptions = {},
): Promise<number> {
  const { signal, release } = ctx.interruptible();
  try {
    const run = await follow(ctx, client, logId, signal, options);
    if (ctx.json) ctx.out.print(`${JSON.stringify(run)}\n`);
    else ctx.out.note(outcomeLine(ctx, run));
    return run.status === 'success' ? EXIT.ok : EXIT.failed;
  } catch (err) {
    if (signal.aborted) {
      ctx.out.note(
        ctx.out.ce.dim(`Stopped following run ${logId}; it goes on (tickring runs kill ${logId} stops it).`),
      );
      throw new InterruptedError();
    }
    throw err;
  } finally {
    release();
  }
}

async function follow(
  ctx: Context,
  client: TickringClient,
  logId: number,
  signal: AbortSignal,
  options: FollowOptions,
): Promise<Run> {
  const pollMs = options.pollMs ?? POLL_MS;
  const started = ctx.out.now();
  let line = options.fromLine ?? 1;
  const noted = new Set<string>();
  let finishedAt: number | undefined;
  const noteOnce = (key: string, text: string) => {
    if (noted.has(key)) return;
    noted.add(key);
    ctx.out.note(ctx.out.ce.dim(text));
  };
  const wait = () => sleep(pollMs, signal);

  for (;;) {
    let run: Run;
    try {
      run = await abortable(client.getRun({ path: { logId } }), signal);
    } catch (err) {
      const waited = ctx.out.now() - started;
      if (apiStatus(err) === 404 && waited < (options.recordWaitMs ?? RECORD_WAIT_MS)) {
        // The dispatcher records a triggered run within a moment; say so only when it takes a while.
        if (waited >= 2_000) noteOnce('record', `Waiting for run ${logId} to be dispatched…`);
        await wait();
        continue;
      }
      throw err;
    }
    const finished = run.status !== 'running';
    if (run.executorAddress === null) {
      // Not sent yet, or never will be (refused, no executor, skipped): no log to read.
      if (finished) return run;
      await wait();
      continue;
    }
    if (run.executorAddress.startsWith('lambda:')) {
      if (finished) return run;
      noteOnce(
        'lambda',
        `Run ${logId} runs on ${run.executorAddress}: its log is in CloudWatch; waiting for its result…`,
      );
      await wait();
      continue;
    }

    let out: RunOutput;
    try {
      out = await abortable(client.getRunOutput({ path: { logId }, query: { fromLineNum: line } }), signal);
    } catch (err) {
      const status = apiStatus(err);
      if (status === 409 || status === 502) {
        if (finished) {
          if (status === 502) noteOnce('log', `The log could not be read: ${(err as Error).message}`);
          return run;
        }
        if (status === 502) noteOnce('unreachable', `${(err as Error).message}; trying again…`);
        await wait();
        continue;
      }
      throw err;
    }
    writeSlice(ctx, out);
    if (out.toLineNum >= line) line = out.toLineNum + 1;
    if (out.isEnd) {
      return finished ? run : await abortable(client.getRun({ path: { logId } }), signal);
    }
    if (finished) {
      // The result is in; an executor that never marks the end of its log is not waited for forever.
      finishedAt ??= ctx.out.now();
      if (ctx.out.now() - finishedAt > (options.endWaitMs ?? END_WAIT_MS)) {
        noteOnce('end', "The executor did not mark the log's end; stopped reading.");
        return run;
      }
    }
    await wait();
  }
}

function writeSlice(ctx: Context, out: RunOutput): void {
  if (ctx.json) {
    ctx.out.print(`${JSON.stringify(out)}\n`);
  } else if (out.logContent) {
    ctx.out.print(out.logContent.endsWith('\n') ? out.logContent : `${out.logContent}\n`);
  }
}

/** "run 123 success in 2.1 s: done" for stderr. */
export function outcomeLine(ctx: Context, run: Run): string {
  const { ce } = ctx.out;
  const began = toMillis(run.dispatchedAt) ?? toMillis(run.triggerTime);
  const ended = toMillis(run.handleTime);
  const took = began !== undefined && ended !== undefined ? ` in ${formatDuration(ended - began)}` : '';
  const status =
    run.status === 'success'
      ? ce.green(run.status)
      : run.status === 'fail'
        ? ce.red(run.status)
        : ce.yellow(run.status);
  const msg = resultMessage(run);
  return `Run ${run.logId} ${status}${took}${msg ? `: ${firstLine(msg)}` : ''}`;
}

/**
 * What a run's result says: its handleMsg; for a run that was never handled (refused, no executor,
 * skipped) its triggerMsg.
 */
export function resultMessage(run: Run): string {
  if (run.handleMsg) return run.handleMsg;
  return run.handleCode === 0 && run.status !== 'running' ? run.triggerMsg : '';
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
