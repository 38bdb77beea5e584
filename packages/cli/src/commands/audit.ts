import type { Command } from 'commander';
import { summarizeChanges } from '../audit-summary.js';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { clip } from '../output.js';
import { examples, instant, intIn, positiveId } from './args.js';
import { readUpTo } from './paging.js';

interface AuditOptions {
  readonly target?: string;
  readonly job?: number;
  readonly group?: string;
  readonly user?: string;
  readonly actor?: string;
  readonly action?: string;
  readonly since?: string;
  readonly until?: string;
  readonly limit?: number;
  readonly all?: boolean;
  readonly cursor?: string;
}

const DEFAULT_LIMIT = 20;

export function registerAudit(program: Command, run: ActionRunner, now: () => number): void {
  program
    .command('audit')
    .description('the audit log, newest first: who changed what, when, and the fields before and after')
    .option(
      '--target <target>',
      'only this target: job#7, group#my-app, user#ana, token#<id>, run#<logId>, bootstrap',
    )
    .option('--job <id>', 'only this job (--target job#<id>)', positiveId)
    .option('--group <appName>', "only this group's records: the group, its jobs and their runs")
    .option('--user <username>', 'only changes to this user (--target user#<username>)')
    .option('--actor <name>', 'only the changes made by: a username, token:<name>, bootstrap, or a token id')
    .option('--action <action>', 'only this action (job.update), or, ending in *, those it begins (job.*)')
    .option(
      '--since <when>',
      'at or after: 30m, 1h, 2d, 1w, or an ISO time (default: 30 days back)',
      instant(now),
    )
    .option('--until <when>', 'at or before: 30m, 1h, 2d, or an ISO time (default: now)', instant(now))
    .option('--limit <n>', `how many records at most (default ${DEFAULT_LIMIT})`, intIn(1, 10_000))
    .option('--all', 'every record (of the time range), page after page')
    .option('--cursor <cursor>', 'go on where an earlier listing stopped (its nextCursor)')
    .addHelpText(
      'after',
      `${examples(
        'tickring audit',
        'tickring audit --job 7',
        'tickring audit --group billing --action "job.*" --since 1d',
        'tickring audit --actor ana --since 2030-01-01T00:00:00Z --until 2030-01-02T00:00:00Z --all',
        'tickring audit --user ana --json | jq ".items[].changes"',
      )}
Actions: job.create, job.update, job.delete, job.start, job.stop, job.trigger, run.kill, group.create,
group.update, group.delete, group.accessToken.set, group.accessToken.clear, user.create, user.update,
user.delete, user.password, token.create, token.revoke, bootstrap.rotate.
CHANGES shows the changed fields as field: before → after (a creation by its main fields; secrets read
[redacted]). With --json: {"items": [...], "nextCursor"}, the records as the server keeps them, every
field's before and after included.
`,
    )
    .action(
      run<AuditOptions>(async (ctx, _args, opts) => {
        const targets = [
          opts.target,
          opts.job === undefined ? undefined : `job#${opts.job}`,
          opts.user === undefined ? undefined : `user#${opts.user}`,
        ].filter((t): t is string => t !== undefined);
        if (targets.length > 1) throw new UsageError('give one target: --target, --job or --user');
        if (opts.all && opts.limit !== undefined) throw new UsageError('give --all or --limit, not both');
        const limit = opts.all ? Number.POSITIVE_INFINITY : (opts.limit ?? DEFAULT_LIMIT);
        const base = {
          ...(targets[0] === undefined ? {} : { target: targets[0] }),
          ...(opts.group === undefined ? {} : { appName: opts.group }),
          ...(opts.actor === undefined ? {} : { actor: opts.actor }),
          ...(opts.action === undefined ? {} : { action: opts.action }),
          ...(opts.since === undefined ? {} : { from: opts.since }),
          ...(opts.until === undefined ? {} : { to: opts.until }),
        };

        const client = await ctx.client();
        const { items, nextCursor } = await readUpTo(limit, opts.cursor, (page) =>
          client.listAudit({ query: { ...base, ...page } }),
        );

        if (ctx.json) return ctx.out.json({ items, nextCursor });
        const { out } = ctx;
        if (items.length === 0) {
          out.note(
            `No audit records found${opts.since === undefined ? ' (in the last 30 days; --since looks further back)' : ''}.`,
          );
        } else {
          const width = Math.max(40, (ctx.io.stdout.columns ?? 160) - 90);
          out.table(
            ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'CHANGES'],
            items.map((r) => [
              out.shortWhen(r.at),
              clip(r.actor.name, 24),
              r.action,
              clip(r.target, 30),
              summarizeChanges(r, width),
            ]),
          );
        }
        if (nextCursor) {
          out.note(out.ce.dim(`More records: a higher --limit, --all, or go on with --cursor ${nextCursor}`));
        }
      }),
    );
}
