/**
 * `tickring jobs ledger ID --from --to` and `tickring workflows ledger ID --from --to`: every fire a
 * job's (a workflow's) schedule owed in a window and what became of it (the run it started).
 */
import type { FireLedger, WorkflowFireLedger } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
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
  /** A workflow's fire: the workflow run it started, and its status. */
  runId?: string | null;
  runStatus?: string | null;
}): [string, string] {
  const log = entry.logId === null ? '' : `log ${entry.logId}`;
  const started = entry.runId ? `run ${entry.runId}${entry.runStatus ? ` ${entry.runStatus}` : ''}, ` : '';
  switch (entry.outcome) {
    case 'ran':
      // A workflow's fire whose start failed has no run: its schedule job's run says why.
      return [
        `ran ${entry.status ?? ''}`.trim(),
        entry.runId === null && entry.status === 'fail' ? `not started, ${log}` : `${started}${log}`,
      ];
    case 'skipped':
      return [`skipped ${entry.rule ?? ''}`.trim(), `${started}${log}`.replace(/, $/, '')];
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
    case 'unexplained':
      // A workflow's fire its schedule job claimed that started no run names that claim.
      return [entry.outcome, entry.logId === null ? '' : `claimed (${log}), no run started`];
    default:
      return [entry.outcome, ''];
  }
}

export function registerLedger(jobs: Command, run: ActionRunner, now: () => number): void {
  ledgerCommand(jobs, run, now, {
    what: 'job',
    read: async (ctx, id, query) => (await ctx.client()).getJobLedger({ path: { id }, query }),
  });
}

export function registerWorkflowLedger(workflows: Command, run: ActionRunner, now: () => number): void {
  ledgerCommand(workflows, run, now, {
    what: 'workflow',
    read: async (ctx, id, query) => (await ctx.client()).getWorkflowLedger({ path: { id }, query }),
  });
}

/** `<parent> ledger <id>`: the same command over a job's or a workflow's ledger. */
function ledgerCommand(
  parent: Command,
  run: ActionRunner,
  now: () => number,
  ledgers: {
    readonly what: 'job' | 'workflow';
    readonly read: (
      ctx: Context,
      id: number,
      query: { from: string; to: string },
    ) => Promise<FireLedger | WorkflowFireLedger>;
  },
): void {
  const { what } = ledgers;
  const command = `tickring ${what}s ledger`;
  parent
    .command('ledger')
    .description(
      what === 'job'
        ? "every fire a job's schedule owed in a window, and what became of each (exit 1: some unexplained)"
        : "every fire a workflow's schedule owed in a window, and the run each started (exit 1: some unexplained)",
    )
    .argument('<id>', `the ${what}'s id`, positiveId)
    .option(
      '--from <when>',
      'window start: 30m, 1h, 2d back from now, or an ISO time (default: 1h)',
      instant(now),
    )
    .option('--to <when>', 'window end: a span back from now or an ISO time (default: now)', instant(now))
    .addHelpText(
      'after',
      examples(
        `${command} 7`,
        `${command} 7 --from 1d --to 2h`,
        `${command} 7 --from 2030-01-02T00:00:00Z --json`,
      ),
    )
    .action(
      run<{ from?: string; to?: string }>(async (ctx, [id], opts) => {
        const to = opts.to ?? new Date(now()).toISOString();
        const from = opts.from ?? new Date(Date.parse(to) - 3_600_000).toISOString();
        const ledger = await ledgers.read(ctx, Number(id), { from, to });
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
        if ('starterJobId' in ledger && ledger.starterJobId === null)
          ctx.out.note('The workflow has no schedule: it runs only when triggered.');
        if (ledger.definitionChangedInWindow)
          ctx.out.note('The schedule changed inside the window (the ledger follows the audit log).');
        if (ledger.calendarsChangedInWindow.length)
          ctx.out.note(
            `Calendars changed inside the window (each fire judged by the version of its time): ${ledger.calendarsChangedInWindow.join(', ')}`,
          );
        return code;
      }),
    );
}
