/** `tickring runs ls|get|log|kill`: runs (XXL-JOB's trigger log, `/v1/logs`). */
import type { Run } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { clip, formatDuration, formatInstant, type Output, toMillis, zonedParts } from '../output.js';
import { examples, instant, intIn, oneOf, positiveId } from './args.js';
import { readUpTo } from './paging.js';
import { followLog, printLog, resultMessage } from './run-log.js';

interface LsOptions {
  readonly job?: number;
  readonly app?: string;
  readonly status?: string;
  readonly since?: string;
  readonly until?: string;
  readonly limit: number;
  readonly cursor?: string;
}

export function registerRuns(program: Command, run: ActionRunner, now: () => number): void {
  const runs = program
    .command('runs')
    .description("runs of jobs (XXL-JOB's trigger log): list, show, read the log, kill")
    .addHelpText(
      'after',
      examples(
        'tickring runs ls --job 7 --since 1h',
        'tickring runs log 30064771073 --follow',
        'tickring runs kill 30064771073',
      ),
    );

  runs
    .command('ls')
    .description('list runs, newest first')
    .option('--job <id>', "only this job's runs", positiveId)
    .option('--app <appName>', "only the runs of this group's jobs")
    .option(
      '--status <status>',
      'running, success, fail or skipped (skipped: with --job only)',
      oneOf(['running', 'success', 'fail', 'skipped'], 'lower'),
    )
    .option('--since <when>', 'triggered at or after: 30m, 1h, 2d, 1w, or an ISO time', instant(now))
    .option('--until <when>', 'triggered at or before: 30m, 1h, 2d, or an ISO time', instant(now))
    .option('--limit <n>', 'how many runs at most', intIn(1, 10_000), 20)
    .option('--cursor <cursor>', 'go on where an earlier listing stopped (its nextCursor)')
    .addHelpText(
      'after',
      `${examples(
        'tickring runs ls',
        'tickring runs ls --job 7 --status fail --since 2d',
        'tickring runs ls --app my-app --since 2030-01-01T00:00:00Z --until 2030-01-02T00:00:00Z --limit 500',
        'tickring runs ls --job 7 --json | jq -r ".items[] | [.logId, .status] | @tsv"',
      )}\nWith --json: {"items": [...], "nextCursor"} as the API pages it, nextCursor where the listing stopped.\n`,
    )
    .action(
      run<LsOptions>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const base = {
          ...(opts.job === undefined ? {} : { jobId: opts.job }),
          ...(opts.app === undefined ? {} : { appName: opts.app }),
          ...(opts.status === undefined ? {} : { status: opts.status as Run['status'] }),
          ...(opts.since === undefined ? {} : { from: opts.since }),
          ...(opts.until === undefined ? {} : { to: opts.until }),
        };
        const { items, nextCursor } = await readUpTo(opts.limit, opts.cursor, (page) =>
          client.listRuns({ query: { ...base, ...page } }),
        );

        if (ctx.json) return ctx.out.json({ items, nextCursor });
        if (items.length === 0) ctx.out.note('No runs found.');
        else {
          ctx.out.table(
            ['LOG ID', 'JOB', 'STATUS', 'TRIGGER', 'SCHEDULED', 'TOOK', 'EXECUTOR', 'RESULT'],
            items.map((r) => [
              String(r.logId),
              `${r.jobId} ${clip(r.jobName, 24)}`,
              runStatusText(ctx.out, r, 'short'),
              r.triggerType,
              ctx.out.shortWhen(r.scheduledTime),
              took(r),
              r.executorAddress ?? '-',
              clip(resultMessage(r), 40) || '-',
            ]),
          );
        }
        if (nextCursor) {
          ctx.out.note(ctx.out.ce.dim(`More runs: a higher --limit, or go on with --cursor ${nextCursor}`));
        }
      }),
    );

  runs
    .command('get')
    .description('show one run')
    .argument('<logId>', "the run's logId", positiveId)
    .addHelpText('after', examples('tickring runs get 30064771073', 'tickring runs get 30064771073 --json'))
    .action(
      run(async (ctx, [logId]) => {
        const client = await ctx.client();
        const r = await client.getRun({ path: { logId: Number(logId) } });
        if (ctx.json) return ctx.out.json(r);
        showRun(ctx, r);
      }),
    );

  runs
    .command('log')
    .description("print a run's log, read from its executor; --follow keeps reading until the run ends")
    .argument('<logId>', "the run's logId", positiveId)
    .option(
      '--follow',
      'keep reading until the run has its result and the log its end; exit 0 when it succeeded, 1 when it failed (Ctrl-C stops following, the run goes on)',
    )
    .option('--from-line <n>', 'start at this line (1-based)', intIn(1), 1)
    .addHelpText(
      'after',
      `${examples(
        'tickring runs log 30064771073',
        'tickring runs log 30064771073 --follow && echo succeeded',
        'tickring runs log 30064771073 --from-line 100',
      )}\nWith --json: one JSON object per line, each slice of the log as the API answers it (RunOutput);
with --follow the finished run last.\n`,
    )
    .action(
      run<{ follow?: boolean; fromLine: number }>(async (ctx, [logId], opts) => {
        const client = await ctx.client();
        return opts.follow
          ? followLog(ctx, client, Number(logId), { fromLine: opts.fromLine })
          : printLog(ctx, client, Number(logId), opts.fromLine);
      }),
    );

  runs
    .command('kill')
    .description('stop a running run: recorded as failed "killed by user" (not retried, no alarm)')
    .argument('<logId>', "the run's logId", positiveId)
    .addHelpText('after', examples('tickring runs kill 30064771073'))
    .action(
      run(async (ctx, [logId]) => {
        const client = await ctx.client();
        const killed = await client.killRun({ path: { logId: Number(logId) } });
        if (ctx.json) return ctx.out.json(killed);
        ctx.out.line(
          `Run ${killed.logId} ${ctx.out.status(killed.status)}: ${killed.handleMsg}${killed.executorMsg ? ` (executor: ${killed.executorMsg})` : ''}`,
        );
      }),
    );
}

function took(r: Run): string {
  const began = toMillis(r.dispatchedAt) ?? toMillis(r.triggerTime);
  const ended = toMillis(r.handleTime);
  return began !== undefined && ended !== undefined ? formatDuration(ended - began) : '-';
}

/**
 * A run's status, coloured; a skipped run that stands for a range of its job's fires says how many and
 * when the last was due: "skipped ×12 until 01:02:11" (`short`: the time alone when on the day of its
 * scheduledTime) or "skipped ×12 until 2030-01-02 01:02:11 +00:00" (`full`).
 */
function runStatusText(
  out: Output,
  r: Pick<Run, 'status' | 'scheduledTime' | 'skippedCount' | 'skippedUntil'>,
  form: 'short' | 'full',
): string {
  const status = out.status(r.status);
  const count = r.skippedCount ?? 1;
  const until = toMillis(r.skippedUntil);
  if (r.status !== 'skipped' || count <= 1 || until === undefined) return status;
  return `${status} ${out.c.yellow(`×${count} until ${untilText(out.zone, toMillis(r.scheduledTime), until, form)}`)}`;
}

function untilText(zone: string, from: number | undefined, until: number, form: 'short' | 'full'): string {
  if (form === 'full') return formatInstant(until, zone);
  const last = zonedParts(until, zone);
  const sameDay = from !== undefined && zonedParts(from, zone).date === last.date;
  return sameDay ? last.time : `${last.date} ${last.time}`;
}

function showRun(ctx: Context, r: Run): void {
  const { out } = ctx;
  out.details([
    ['logId', String(r.logId)],
    ['job', `${r.jobId} ${r.jobName} (${r.appName})`],
    ['status', runStatusText(out, r, 'full')],
    ['trigger', `${r.triggerType}${r.parentLogId === null ? '' : ` of run ${r.parentLogId}`}`],
    ['attempt', `${r.attempt}${r.retriesLeft > 0 ? ` (${r.retriesLeft} retries left)` : ''}`],
    ['shard', r.shard],
    ['scheduled', out.when(r.scheduledTime)],
    ['dispatched', out.when(r.dispatchedAt)],
    ['finished', out.when(r.handleTime)],
    ['took', took(r)],
    ['executor', r.executorAddress ?? '-'],
    ['handler', r.executorHandler || '-'],
    ['param', r.executorParam === '' ? '-' : r.executorParam],
    ['trigger result', `${r.triggerCode} ${r.triggerMsg}`],
    ['result', r.handleCode === 0 ? '-' : `${r.handleCode} ${r.handleMsg}`],
    ['alarm', r.alarmStatus],
    ['fire', r.dedupKey],
  ]);
}
