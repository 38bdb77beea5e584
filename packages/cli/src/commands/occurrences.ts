/** `tickring jobs occurrences|skip|move|unskip`: one-off exceptions of a job's schedule (`/v1/jobs/{id}/occurrences`). */
import type { Job } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { UsageError } from '../errors.js';
import { parseSpan } from '../time.js';
import { examples, intIn, positiveId } from './args.js';

const TIME_HELP = `
TIME is the occurrence's scheduled time as listed by \`tickring jobs occurrences ID\`: an ISO-8601 instant
with a zone (2030-01-02T09:00:00Z) or epoch milliseconds. It must be a future fire of the job's schedule,
not planned already (the server answers 409 within 15 s of it).
`;

/** The occurrence commands, under `tickring jobs`. */
export function registerOccurrences(jobs: Command, run: ActionRunner): void {
  jobs
    .command('occurrences')
    .description("list a job's upcoming fires with their skips and moves")
    .argument('<id>', "the job's id", positiveId)
    .option('--from <time>', 'from this ISO-8601 time (default: now)')
    .option('--to <time>', 'up to this ISO-8601 time')
    .option('-n, --limit <n>', 'at most this many (1-100)', intIn(1, 100), 20)
    .addHelpText('after', examples('tickring jobs occurrences 7', 'tickring jobs occurrences 7 -n 50 --json'))
    .action(
      run<{ from?: string; to?: string; limit: number }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const listed = await client.listOccurrences({
          path: { id: Number(id) },
          query: {
            limit: opts.limit,
            ...(opts.from === undefined ? {} : { from: opts.from }),
            ...(opts.to === undefined ? {} : { to: opts.to }),
          },
        });
        if (ctx.json) return ctx.out.json(listed);
        if (listed.occurrences.length === 0) return ctx.out.note(`Job ${listed.jobId} has no upcoming fire.`);
        ctx.out.table(
          ['SCHEDULED', 'FIRES', 'EXCEPTION', 'BY', 'REASON'],
          listed.occurrences.map((o) => [
            o.time,
            o.fireAt ?? '—',
            o.exception === null
              ? o.changeable
                ? ''
                : 'planned'
              : o.exception.action === 'skip'
                ? 'skipped'
                : 'moved',
            o.exception?.by ?? '',
            o.exception?.reason ?? '',
          ]),
        );
      }),
    );

  jobs
    .command('skip')
    .description('skip one upcoming fire of a job (its schedule goes on)')
    .argument('<id>', "the job's id", positiveId)
    .argument('<time>', "the fire's scheduled time")
    .option('--reason <text>', 'why (kept with the skip and in the audit log)')
    .addHelpText(
      'after',
      `${examples('tickring jobs skip 7 2030-01-02T09:00:00Z --reason "public holiday"')}${TIME_HELP}`,
    )
    .action(
      run<{ reason?: string }>(async (ctx, [id, time], opts) => {
        const client = await ctx.client();
        const job = await client.skipOccurrence({
          path: { id: Number(id), time: String(time) },
          body: opts.reason === undefined ? {} : { reason: opts.reason },
        });
        done(ctx, job, `Skipped the fire of ${String(time)}`);
      }),
    );

  jobs
    .command('move')
    .description('move one upcoming fire of a job to another time (it keeps its scheduled time)')
    .argument('<id>', "the job's id", positiveId)
    .argument('<time>', "the fire's scheduled time")
    .requiredOption('--to <time>', 'the new time: ISO-8601, epoch ms, or +SPAN/-SPAN from TIME (+30m, -1h)')
    .option('--reason <text>', 'why (kept with the move and in the audit log)')
    .addHelpText(
      'after',
      `${examples(
        'tickring jobs move 7 2030-01-02T09:00:00Z --to 2030-01-02T09:30:00Z',
        'tickring jobs move 7 2030-01-02T09:00:00Z --to +30m --reason "deploy window"',
      )}${TIME_HELP}The new time must be in the future and strictly between the fires before and after it.\n`,
    )
    .action(
      run<{ to: string; reason?: string }>(async (ctx, [id, time], opts) => {
        const client = await ctx.client();
        const to = moveTarget(String(time), opts.to);
        const job = await client.moveOccurrence({
          path: { id: Number(id), time: String(time) },
          body: { to, ...(opts.reason === undefined ? {} : { reason: opts.reason }) },
        });
        done(ctx, job, `Moved the fire of ${String(time)} to ${to}`);
      }),
    );

  jobs
    .command('unskip')
    .alias('unmove')
    .description("take back a fire's skip or move: it fires at its own time again")
    .argument('<id>', "the job's id", positiveId)
    .argument('<time>', "the fire's scheduled time")
    .addHelpText('after', `${examples('tickring jobs unskip 7 2030-01-02T09:00:00Z')}${TIME_HELP}`)
    .action(
      run(async (ctx, [id, time]) => {
        const client = await ctx.client();
        const job = await client.restoreOccurrence({ path: { id: Number(id), time: String(time) } });
        done(ctx, job, `The fire of ${String(time)} is back at its own time`);
      }),
    );
}

/** `--to`: as given, or a span from the occurrence's time (+30m, -1h). */
export function moveTarget(time: string, to: string): string {
  const sign = to.startsWith('+') ? 1 : to.startsWith('-') ? -1 : 0;
  if (sign === 0) return to;
  const span = parseSpan(to.slice(1));
  const at = /^\d+$/.test(time) ? Number(time) : Date.parse(time);
  if (span === undefined || !Number.isFinite(at)) {
    throw new UsageError(
      `--to ${JSON.stringify(to)}: a relative time needs a span (+30s, +15m, -1h) and TIME an ISO-8601 instant or epoch ms`,
    );
  }
  return new Date(at + sign * span).toISOString();
}

function done(ctx: Context, job: Job, what: string): void {
  if (ctx.json) {
    ctx.out.json(job);
    return;
  }
  ctx.out.line(`${what} (job ${job.id}); next fire ${ctx.out.when(job.triggerNextTime)}.`);
}
