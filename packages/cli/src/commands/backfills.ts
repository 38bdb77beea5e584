/**
 * `tickring jobs backfill ID --from --to`: run the fires a job's schedule would have made in a past
 * range (`tickring workflows backfill ID`: a workflow run for each of its schedule's); `tickring backfills ls|get|cancel`: follow and stop them. `--wait` shows the progress: a bar
 * rewritten in place on a terminal, a line per change elsewhere (logs, CI).
 */
import type { Backfill, TickringClient } from '@tickring/client';
import { type Command, InvalidArgumentError } from 'commander';
import { type ActionRunner, abortable, type Context, sleep } from '../context.js';
import { EXIT, InterruptedError, UsageError } from '../errors.js';
import { examples, instant, intIn, positiveId } from './args.js';

/** `--rate 30`, `--rate 30/min` or `--rate 30/m`: fires a minute. */
export function ratePerMinute(value: string): number {
  const match = /^(\d+)\s*(?:\/\s*(?:min|m|minute))?$/i.exec(value.trim());
  const n = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`expected a rate of fires a minute, e.g. 30 or 30/min; got ${value}`);
  }
  return n;
}

const ENDED: ReadonlySet<string> = new Set(['COMPLETED', 'CANCELLED']);

export function registerJobBackfill(jobs: Command, run: ActionRunner, now: () => number): void {
  registerBackfillCommand(jobs, run, now, 'job');
}

/** `tickring workflows backfill ID`: the same for a workflow's schedule, each fire a workflow run. */
export function registerWorkflowBackfill(workflows: Command, run: ActionRunner, now: () => number): void {
  registerBackfillCommand(workflows, run, now, 'workflow');
}

function registerBackfillCommand(
  parent: Command,
  run: ActionRunner,
  now: () => number,
  kind: 'job' | 'workflow',
): void {
  const plural = `${kind}s`;
  parent
    .command('backfill')
    .description(
      kind === 'job'
        ? "run the fires a job's schedule would have made in a past range, each with its own scheduled time"
        : 'start a workflow run for each fire its schedule would have made in a past range, each with its own scheduled time',
    )
    .argument('<id>', `the ${kind}'s id`, positiveId)
    .requiredOption(
      '--from <when>',
      'the range start: an instant, or a span back from now (e.g. 2d)',
      instant(now),
    )
    .option('--to <when>', 'the range end, left out (default: now)', instant(now))
    .option(
      '--parallelism <n>',
      `most ${kind === 'job' ? 'fires' : 'workflow runs'} running at once (default 1: one after another)`,
      intIn(1, 100),
    )
    .option('--rate <n/min>', 'most fires started a minute, e.g. 30/min', ratePerMinute)
    .option('--dry-run', 'only count the fires the range holds')
    .option('--wait', 'show the progress until it ends; exit 0 when every fire succeeded, 1 otherwise')
    .addHelpText(
      'after',
      `${examples(
        `tickring ${plural} backfill 7 --from 2030-01-01T00:00:00Z --to 2030-01-02T00:00:00Z --dry-run`,
        `tickring ${plural} backfill 7 --from 2d --parallelism 4 --rate 30/min --wait`,
      )}
The fires are [from, to): at or after --from and before --to, within the ${kind}'s startAt / endAt,
on the days its calendars allow; at most 10000 a backfill. A ${kind} has at most one backfill running
(tickring backfills cancel ID).${
        kind === 'workflow'
          ? '\nEach fire starts a workflow run (trigger BACKFILL, input {"scheduledTime": …}); it counts as\nrunning until that run ends.'
          : ''
      }
`,
    )
    .action(
      run<{
        from: string;
        to?: string;
        parallelism?: number;
        rate?: number;
        dryRun?: boolean;
        wait?: boolean;
      }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const path = { id: Number(id) };
        const range = { from: opts.from, to: opts.to ?? new Date(ctx.out.now()).toISOString() };
        if (opts.dryRun) {
          const preview =
            kind === 'job'
              ? await client.previewBackfill({ path, body: range })
              : await client.previewWorkflowBackfill({ path, body: range });
          if (ctx.json) return ctx.out.json(preview);
          const span = preview.first
            ? ` from ${ctx.out.when(preview.first)} to ${ctx.out.when(preview.last)}`
            : '';
          ctx.out.print(`${preview.total}${preview.tooMany ? '+' : ''} fires${span}\n`);
          if (preview.tooMany) {
            ctx.out.warn(
              `more than ${preview.limit}: a backfill makes at most ${preview.limit}; split the range`,
            );
            return EXIT.failed;
          }
          return;
        }
        const body = {
          ...range,
          ...(opts.parallelism === undefined ? {} : { parallelism: opts.parallelism }),
          ...(opts.rate === undefined ? {} : { ratePerMinute: opts.rate }),
        };
        const backfill =
          kind === 'job'
            ? await client.startBackfill({ path, body })
            : await client.startWorkflowBackfill({ path, body });
        if (!opts.wait) {
          if (ctx.json) return ctx.out.json(backfill);
          ctx.out.note(
            `Started backfill ${backfill.id}: ${backfill.total} fires of ${kind} ${path.id}, ${backfill.parallelism} at a time${
              backfill.ratePerMinute === null ? '' : `, at most ${backfill.ratePerMinute} a minute`
            }.`,
          );
          ctx.out.note(ctx.out.ce.dim(`Its progress: tickring backfills get ${backfill.id}`));
          return;
        }
        return waitForBackfill(ctx, client, backfill);
      }),
    );
}

export function registerBackfills(program: Command, run: ActionRunner): void {
  const backfills = program
    .command('backfills')
    .description("backfills of jobs' and workflows' schedules: list one's, show one's progress, cancel")
    .addHelpText(
      'after',
      examples('tickring backfills ls --job 7', 'tickring backfills get bf-7-mfx3k2a1-9c1e --wait'),
    );

  backfills
    .command('ls')
    .alias('list')
    .description("a job's or a workflow's backfills, newest first")
    .option('--job <id>', "the job's id", positiveId)
    .option('--workflow <id>', "the workflow's id", positiveId)
    .option('--limit <n>', 'at most this many', intIn(1, 100), 20)
    .addHelpText(
      'after',
      examples(
        'tickring backfills ls --job 7',
        'tickring backfills ls --workflow 3',
        'tickring backfills ls --job 7 --json',
      ),
    )
    .action(
      run<{ job?: number; workflow?: number; limit: number }>(async (ctx, _args, opts) => {
        if ((opts.job === undefined) === (opts.workflow === undefined)) {
          throw new UsageError('give one of --job <id> or --workflow <id>');
        }
        const client = await ctx.client();
        const query = { limit: opts.limit };
        const page =
          opts.job !== undefined
            ? await client.listJobBackfills({ path: { id: opts.job }, query })
            : await client.listWorkflowBackfills({ path: { id: opts.workflow as number }, query });
        if (ctx.json) return ctx.out.json(page);
        const owner = opts.job !== undefined ? `Job ${opts.job}` : `Workflow ${opts.workflow}`;
        if (page.items.length === 0) return ctx.out.note(`${owner} has no backfills.`);
        ctx.out.table(
          ['ID', 'STATE', 'RANGE', 'PROGRESS', 'RUNNING', 'FAILED', 'STARTED', 'BY'],
          page.items.map((b) => [
            b.id,
            ctx.out.status(b.state),
            `${ctx.out.shortWhen(b.from)} – ${ctx.out.shortWhen(b.to)}`,
            `${b.succeeded + b.failed}/${b.total}`,
            String(b.running),
            String(b.failed),
            ctx.out.shortWhen(b.createdAt),
            b.createdBy,
          ]),
        );
      }),
    );

  backfills
    .command('get')
    .alias('show')
    .description("a backfill's progress")
    .argument('<id>', "the backfill's id")
    .option('--wait', 'show the progress until it ends; exit 0 when every fire succeeded, 1 otherwise')
    .addHelpText(
      'after',
      examples(
        'tickring backfills get bf-7-mfx3k2a1-9c1e',
        'tickring backfills get bf-7-mfx3k2a1-9c1e --wait',
      ),
    )
    .action(
      run<{ wait?: boolean }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const backfill = await client.getBackfill({ path: { id: id as string } });
        if (opts.wait) return waitForBackfill(ctx, client, backfill);
        if (ctx.json) return ctx.out.json(backfill);
        showBackfill(ctx, backfill);
      }),
    );

  backfills
    .command('cancel')
    .description('start no more of its fires (the running ones finish)')
    .argument('<id>', "the backfill's id")
    .addHelpText('after', examples('tickring backfills cancel bf-7-mfx3k2a1-9c1e'))
    .action(
      run(async (ctx, [id]) => {
        const client = await ctx.client();
        const backfill = await client.cancelBackfill({ path: { id: id as string } });
        if (ctx.json) return ctx.out.json(backfill);
        ctx.out.note(
          `Cancelled backfill ${backfill.id}: ${backfill.dispatched} of ${backfill.total} fires were started${
            backfill.running > 0 ? `, ${backfill.running} still running` : ''
          }.`,
        );
      }),
    );
}

function showBackfill(ctx: Context, b: Backfill): void {
  const { out } = ctx;
  out.details([
    ['id', b.id],
    b.workflowId === null
      ? ['job', `${b.jobId} (${b.appName})`]
      : ['workflow', `${b.workflowId} (${b.appName}; its schedule job ${b.jobId})`],
    ['state', out.status(b.state)],
    ['range', `${out.when(b.from)} – ${out.when(b.to)} (${b.scheduleType} ${b.scheduleConf}, ${b.timeZone})`],
    ['progress', progressText(b)],
    [
      'parallelism',
      `${b.parallelism}${b.ratePerMinute === null ? '' : `, at most ${b.ratePerMinute} a minute`}`,
    ],
    ['next fire', b.nextFireTime === null ? '-' : out.when(b.nextFireTime)],
    ...(b.failures.length > 0
      ? [['failed fires', b.failures.map((f) => out.when(f)).join(', ')] as const]
      : []),
    ['started', `${out.when(b.createdAt)} by ${b.createdBy}`],
    ...(b.cancelledAt === null
      ? []
      : [['cancelled', `${out.when(b.cancelledAt)} by ${b.cancelledBy}`] as const]),
    ...(b.stopReason === null ? [] : [['stopped', b.stopReason] as const]),
    ['ended', b.endedAt === null ? '-' : out.when(b.endedAt)],
  ]);
}

/** "12/24 done · 10 succeeded · 2 failed · 2 running". */
function progressText(b: Backfill): string {
  return `${b.succeeded + b.failed}/${b.total} done · ${b.succeeded} succeeded · ${b.failed} failed · ${b.running} running`;
}

const BAR_WIDTH = 24;

function bar(b: Backfill): string {
  const done = b.total === 0 ? 1 : (b.succeeded + b.failed) / b.total;
  const full = Math.round(done * BAR_WIDTH);
  return `[${'#'.repeat(full)}${'-'.repeat(BAR_WIDTH - full)}]`;
}

/**
 * Polls the backfill until it ends: on a terminal (stderr) a bar rewritten in place, elsewhere a line
 * each time its counts change; then the outcome (with --json the ended backfill, one line). Exit 0 when
 * it COMPLETED with no failed fire, 1 otherwise, 130 on Ctrl-C (the backfill goes on).
 */
export async function waitForBackfill(
  ctx: Context,
  client: TickringClient,
  first: Backfill,
  pollMs = 500,
): Promise<number> {
  const { signal, release } = ctx.interruptible();
  const { out } = ctx;
  const tty = ctx.io.stderr.isTTY === true && !ctx.json;
  let shown = '';
  try {
    let b = first;
    for (;;) {
      const text = `${b.state} ${progressText(b)}`;
      if (tty) ctx.io.stderr.write(`\r\x1b[K${bar(b)} ${text}`);
      else if (text !== shown && !ctx.json) out.note(text);
      shown = text;
      if (ENDED.has(b.state) && b.endedAt !== null) {
        if (tty) ctx.io.stderr.write('\n');
        if (ctx.json) out.print(`${JSON.stringify(b)}\n`);
        else out.note(`Backfill ${b.id} ${b.state}: ${progressText(b)}.`);
        return b.state === 'COMPLETED' && b.failed === 0 ? EXIT.ok : EXIT.failed;
      }
      await sleep(pollMs, signal);
      b = await abortable(client.getBackfill({ path: { id: b.id } }), signal);
    }
  } catch (err) {
    if (signal.aborted) {
      if (tty) ctx.io.stderr.write('\n');
      out.note(
        out.ce.dim(
          `Stopped waiting for backfill ${first.id}; it goes on (tickring backfills cancel ${first.id} stops it).`,
        ),
      );
      throw new InterruptedError();
    }
    throw err;
  } finally {
    release();
  }
}
