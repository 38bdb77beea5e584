/** `tickring jobs ledger ID --from --to`: every fire a job's schedule owed in a window and what became of it. */
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import { examples, instant, positiveId } from './args.js';

/** The one-word fate of a ledger entry, with its detail (the run, the rule, the calendar, …). */
export function fateOf(entry: {
  outcome: string;
  logId: number | null;
  status: string | null;
  rule: string | null;
  calendar: { calendarId: string; date: string; label: string | null } | null;
  exception: { action: string; by: string; reason: string | null } | null;
  stoppedBy: string | null;
}): [string, string] {
  switch (entry.outcome) {
    case 'ran':
      return [`ran ${entry.status ?? ''}`.trim(), `log ${entry.logId}`];
    case 'skipped':
      return [`skipped ${entry.rule ?? ''}`.trim(), entry.logId === null ? '' : `log ${entry.logId}`];
    case 'calendar':
      return [
        'calendar',
        entry.calendar
          ? `${entry.calendar.calendarId} ${entry.calendar.date} ${entry.calendar.label ?? ''}`.trim()
          : '',
      ];
    case 'exception':
      return [
        'exception',
        entry.exception
          ? `${entry.exception.action} by ${entry.exception.by} ${entry.exception.reason ?? ''}`.trim()
          : '',
      ];
    case 'paused':
      return ['paused', entry.stoppedBy ?? ''];
    default:
      return [entry.outcome, ''];
  }
}

export function registerLedger(jobs: Command, run: ActionRunner, now: () => number): void {
  jobs
    .command('ledger')
    .description(
      "every fire a job's schedule owed in a window, and what became of each (exit 1: some unexplained)",
    )
    .argument('<id>', "the job's id", positiveId)
    .option(
      '--from <when>',
      'window start: 30m, 1h, 2d back from now, or an ISO time (default: 1h)',
      instant(now),
    )
    .option('--to <when>', 'window end: a span back from now or an ISO time (default: now)', instant(now))
    .addHelpText(
      'after',
      examples(
        'tickring jobs ledger 7',
        'tickring jobs ledger 7 --from 1d --to 2h',
        'tickring jobs ledger 7 --from 2030-01-02T00:00:00Z --json',
      ),
    )
    .action(
      run<{ from?: string; to?: string }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const to = opts.to ?? new Date(now()).toISOString();
        const from = opts.from ?? new Date(Date.parse(to) - 3_600_000).toISOString();
        const ledger = await client.getJobLedger({ path: { id: Number(id) }, query: { from, to } });
        // A fire nothing explains fails the command, so a script can check a schedule with it.
        const code = ledger.summary.unexplained > 0 ? 1 : 0;
        if (ctx.json) {
          ctx.out.json(ledger);
          return code;
        }
        ctx.out.table(
          ['SCHEDULED', 'UNTIL', 'FIRES', 'OUTCOME', 'DETAIL'],
          ledger.entries.map((e) => [e.scheduledTime, e.until ?? '', String(e.count), ...fateOf(e)]),
        );
        const { skippedBy, ...counts } = ledger.summary;
        const parts = Object.entries(counts)
          .filter(([, n]) => n > 0)
          .map(([outcome, n]) => `${outcome} ${n}`);
        const rules = Object.entries(skippedBy)
          .filter(([, n]) => n > 0)
          .map(([rule, n]) => `${rule} ${n}`);
        ctx.out.note(
          `${parts.join(', ') || 'no fire owed'}${rules.length ? ` (skipped: ${rules.join(', ')})` : ''}`,
        );
        if (ledger.definitionChangedInWindow)
          ctx.out.note('The schedule changed inside the window (the ledger follows the audit log).');
        if (ledger.calendarsChangedInWindow.length)
          ctx.out.note(
            `Calendars changed inside the window, read as they are now: ${ledger.calendarsChangedInWindow.join(', ')}`,
          );
        return code;
      }),
    );
}
