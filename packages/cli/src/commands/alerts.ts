/**
 * Alerting (admin): `tickring channels ls|create|update|test|rm`, `tickring silences ls|create|rm`,
 * and the history, `tickring alerts ls`.
 */
import type { Alert } from '@tickring/client';
import { type Command, InvalidArgumentError } from 'commander';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { examples, instant, intIn, oneOf, positiveId } from './args.js';
import { readUpTo } from './paging.js';

type AlarmKind = Alert['kind'];
type AlertState = Alert['state'];

/**
 * The API's alarm kinds (core's ALARM_KINDS, through openapi.json into the client's types) and alert
 * states, keyed by the API's own types: one it adds fails this build until named here.
 * alert-channels.test.ts checks them, in order, against openapi.json (made from core's lists).
 */
const ALARM_KIND_NAMES: Readonly<Record<AlarmKind, true>> = {
  runFailed: true,
  jobPaused: true,
  jobRecovered: true,
  deadlineMissed: true,
  fireUnexplained: true,
};
export const ALARM_KINDS = Object.keys(ALARM_KIND_NAMES) as AlarmKind[];
const ALERT_STATE_NAMES: Readonly<Record<AlertState, true>> = { sent: true, silenced: true, unrouted: true };
export const ALERT_STATES = Object.keys(ALERT_STATE_NAMES) as AlertState[];

function alarmKind(value: string): AlarmKind {
  const kind = ALARM_KINDS.find((k) => k === value.trim());
  if (!kind) throw new InvalidArgumentError(`expected one of ${ALARM_KINDS.join(', ')}`);
  return kind;
}

export function registerAlerts(program: Command, run: ActionRunner, now: () => number): void {
  const channels = program
    .command('channels')
    .description('alert channels: webhooks (templated, HMAC-signed), Slack, email (admin)')
    .addHelpText(
      'after',
      examples(
        'tickring channels create --name ops --kind webhook --target https://hooks.example.com/t --secret-env HOOK_SECRET',
        'tickring channels create --name chat --kind slack --url https://hooks.slack.com/services/T/B/X',
        'tickring channels update 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11 --url https://hooks.example.com/v2',
        'tickring channels test 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11',
        'tickring channels ls',
      ),
    );
  channels
    .command('ls')
    .alias('list')
    .description('every channel')
    .addHelpText('after', examples('tickring channels ls', 'tickring channels ls --json'))
    .action(
      run(async (ctx) => {
        const { items } = await (await ctx.client()).listAlertChannels({});
        if (ctx.json) return ctx.out.json({ items });
        if (items.length === 0) return ctx.out.note('No alert channels.');
        ctx.out.table(
          ['ID', 'NAME', 'KIND', 'URL', 'SIGNED'],
          items.map((c) => [c.id, c.name, c.kind, c.url ?? '', c.signed ? 'yes' : 'no']),
        );
      }),
    );
  channels
    .command('create')
    .description(
      'a new channel; a webhook secret is read from an environment variable, never from the command line',
    )
    .requiredOption('--name <name>', 'its name')
    .requiredOption('--kind <kind>', 'webhook, slack or email')
    .option('--target <url>', 'webhook and slack: where to POST (not --url: that names the tickring server)')
    .option('--body-template <text>', 'webhook: the body, with {{ path }} placeholders over the alert')
    .option('--secret-env <VAR>', 'webhook: the environment variable holding its HMAC secret')
    .addHelpText(
      'after',
      examples(
        'HOOK_SECRET=... tickring channels create --name ops --kind webhook --target https://hooks.example.com/t --secret-env HOOK_SECRET',
        'tickring channels create --name mail --kind email',
      ),
    )
    .action(
      run<{ name: string; kind: string; target?: string; bodyTemplate?: string; secretEnv?: string }>(
        async (ctx, _args, opts) => {
          const secret = opts.secretEnv === undefined ? undefined : ctx.io.env[opts.secretEnv];
          if (opts.secretEnv !== undefined && !secret) throw new Error(`${opts.secretEnv} is not set`);
          const channel = await (await ctx.client()).createAlertChannel({
            body: {
              name: opts.name,
              kind: opts.kind as 'webhook' | 'slack' | 'email',
              ...(opts.target === undefined ? {} : { url: opts.target }),
              ...(opts.bodyTemplate === undefined ? {} : { bodyTemplate: opts.bodyTemplate }),
              ...(secret === undefined ? {} : { secret }),
            },
          });
          if (ctx.json) return ctx.out.json(channel);
          ctx.out.note(`Created channel ${channel.id} (${channel.kind}${channel.signed ? ', signed' : ''}).`);
        },
      ),
    );
  channels
    .command('update')
    .alias('edit')
    .description(
      'change a channel: the options given (its kind cannot change); its secret is kept unless --secret-env or --unsigned',
    )
    .argument('<id>', "the channel's id")
    .option('--name <name>', 'its name')
    .option('--target <url>', 'webhook and slack: where to POST (not --url: that names the tickring server)')
    .option('--body-template <text>', 'webhook: the body, with {{ path }} placeholders over the alert')
    .option('--no-body-template', 'webhook: post the alert as JSON again')
    .option('--secret-env <VAR>', 'webhook: the environment variable holding its new HMAC secret')
    .option('--unsigned', 'webhook: stop signing its bodies (the secret is removed)')
    .option('--revision <n>', 'only if the channel is still at this revision', positiveId)
    .addHelpText(
      'after',
      examples(
        'tickring channels update 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11 --name ops --target https://hooks.example.com/v2',
        'NEW_SECRET=... tickring channels update 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11 --secret-env NEW_SECRET --revision 3',
      ),
    )
    .action(
      run<{
        name?: string;
        target?: string;
        bodyTemplate?: string | false;
        secretEnv?: string;
        unsigned?: boolean;
        revision?: number;
      }>(async (ctx, [id], opts) => {
        if (opts.secretEnv !== undefined && opts.unsigned) {
          throw new UsageError('give --secret-env or --unsigned, not both');
        }
        const secret = opts.secretEnv === undefined ? undefined : ctx.io.env[opts.secretEnv];
        if (opts.secretEnv !== undefined && !secret) throw new Error(`${opts.secretEnv} is not set`);
        const body = {
          ...(opts.name === undefined ? {} : { name: opts.name }),
          ...(opts.target === undefined ? {} : { url: opts.target }),
          ...(opts.bodyTemplate === undefined ? {} : { bodyTemplate: opts.bodyTemplate || null }),
          ...(secret === undefined ? {} : { secret }),
          ...(opts.unsigned ? { secret: null } : {}),
          ...(opts.revision === undefined ? {} : { revision: opts.revision }),
        };
        if (Object.keys(body).length === 0) {
          throw new UsageError(
            'nothing to change: give --name, --url, --body-template, --no-body-template, --secret-env or --unsigned',
          );
        }
        const channel = await (await ctx.client()).updateAlertChannel({ path: { id: id as string }, body });
        if (ctx.json) return ctx.out.json(channel);
        ctx.out.note(
          `Changed channel ${channel.id} (revision ${channel.revision}${channel.signed ? ', signed' : ''}).`,
        );
      }),
    );
  channels
    .command('test')
    .description('send one test message through a channel now and say what happened (exit 1: not delivered)')
    .argument('<id>', "the channel's id")
    .addHelpText('after', examples('tickring channels test 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11'))
    .action(
      run(async (ctx, [id]) => {
        const result = await (await ctx.client()).testAlertChannel({ path: { id: id as string } });
        // Not delivered fails the command, so a script can check a channel with it.
        const code = result.delivered ? 0 : 1;
        if (ctx.json) {
          ctx.out.json(result);
          return code;
        }
        const status = result.status === undefined ? '' : ` (HTTP ${result.status})`;
        ctx.out.note(
          result.delivered
            ? `Delivered a test message through channel ${result.channelId}${status}.`
            : `Not delivered through channel ${result.channelId}${status}: ${result.error ?? 'no reason given'}`,
        );
        return code;
      }),
    );
  channels
    .command('rm')
    .alias('delete')
    .description('delete a channel')
    .addHelpText('after', examples('tickring channels rm 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11'))
    .argument('<id>', "the channel's id")
    .action(
      run(async (ctx, [id]) => {
        await (await ctx.client()).deleteAlertChannel({ path: { id: id as string } });
        ctx.out.note(`Deleted channel ${id}.`);
      }),
    );

  const silences = program
    .command('silences')
    .description('silence alerts for a while (admin)')
    .addHelpText(
      'after',
      examples(
        'tickring silences ls',
        'tickring silences create --group orders --to 2030-01-01T12:00:00Z --reason deploy',
      ),
    );
  silences
    .command('ls')
    .alias('list')
    .description('every silence')
    .addHelpText('after', examples('tickring silences ls'))
    .action(
      run(async (ctx) => {
        const { items } = await (await ctx.client()).listAlertSilences({});
        if (ctx.json) return ctx.out.json({ items });
        if (items.length === 0) return ctx.out.note('No silences.');
        ctx.out.table(
          ['ID', 'JOB', 'GROUP', 'KIND', 'FROM', 'TO', 'REASON', 'BY'],
          items.map((s) => [
            s.id,
            s.jobId === undefined ? '*' : String(s.jobId),
            s.appName ?? '*',
            s.kind ?? '*',
            ctx.out.shortWhen(s.from),
            ctx.out.shortWhen(s.to),
            s.reason,
            s.createdBy,
          ]),
        );
      }),
    );
  silences
    .command('create')
    .description('alerts matching every option given are recorded, not sent, until --to')
    .option('--job <id>', "a job's id", positiveId)
    .option('--group <appName>', 'a group')
    .option('--kind <kind>', ALARM_KINDS.join(', '), alarmKind)
    .option('--from <when>', 'when it starts (default: now)', instant(now))
    .requiredOption('--to <when>', 'when it ends', instant(now))
    .requiredOption('--reason <text>', 'why')
    .addHelpText(
      'after',
      examples('tickring silences create --job 7 --to 2030-01-01T12:00:00Z --reason "db maintenance"'),
    )
    .action(
      run<{ job?: number; group?: string; kind?: AlarmKind; from?: string; to: string; reason: string }>(
        async (ctx, _args, opts) => {
          const silence = await (await ctx.client()).createAlertSilence({
            body: {
              ...(opts.job === undefined ? {} : { jobId: opts.job }),
              ...(opts.group === undefined ? {} : { appName: opts.group }),
              ...(opts.kind === undefined ? {} : { kind: opts.kind }),
              ...(opts.from === undefined ? {} : { from: opts.from }),
              to: opts.to,
              reason: opts.reason,
            },
          });
          if (ctx.json) return ctx.out.json(silence);
          ctx.out.note(`Created silence ${silence.id} until ${silence.to}.`);
        },
      ),
    );
  silences
    .command('rm')
    .alias('delete')
    .description('end a silence')
    .addHelpText('after', examples('tickring silences rm 0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f'))
    .argument('<id>', "the silence's id")
    .action(
      run(async (ctx, [id]) => {
        await (await ctx.client()).deleteAlertSilence({ path: { id: id as string } });
        ctx.out.note(`Deleted silence ${id}.`);
      }),
    );

  program
    .command('alerts')
    .description('the alert history (admin)')
    .addHelpText('after', examples('tickring alerts ls', 'tickring alerts ls --job 7'))
    .command('ls')
    .alias('list')
    .description('alerts newest first: sent, silenced or unrouted, with their deliveries')
    .addHelpText(
      'after',
      examples(
        'tickring alerts ls --job 7 --kind runFailed',
        'tickring alerts ls --state silenced --from 1d',
        'tickring alerts ls --from 1d --json',
      ),
    )
    .option('--job <id>', "a job's id", positiveId)
    .option('--kind <kind>', ALARM_KINDS.join(', '), alarmKind)
    .option('--state <state>', ALERT_STATES.join(', '), oneOf(ALERT_STATES, 'lower'))
    .option('--from <when>', 'first raised at or after', instant(now))
    .option('--to <when>', '…and before', instant(now))
    .option('--limit <n>', 'at most this many', intIn(1, 100), 20)
    .option('--cursor <cursor>', 'go on where an earlier listing stopped (its nextCursor)')
    .action(
      run<AlertsLsOptions>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const query = {
          ...(opts.job === undefined ? {} : { jobId: opts.job }),
          ...(opts.kind === undefined ? {} : { kind: opts.kind }),
          ...(opts.state === undefined ? {} : { state: opts.state }),
          ...(opts.from === undefined ? {} : { from: opts.from }),
          ...(opts.to === undefined ? {} : { to: opts.to }),
        };
        // A filtered page may come back short (even empty) with a cursor: read on up to --limit.
        const page = await readUpTo(opts.limit, opts.cursor, (at) =>
          client.listAlerts({ query: { ...query, ...at } }),
        );
        if (ctx.json) return ctx.out.json(page);
        if (page.items.length === 0) ctx.out.note('No alerts.');
        else {
          ctx.out.table(
            ['FIRST', 'JOB', 'KIND', 'COUNT', 'STATE', 'DELIVERIES', 'SUMMARY'],
            page.items.map((a) => [
              ctx.out.shortWhen(a.firstAt),
              String(a.jobId),
              a.kind,
              String(a.count),
              a.state,
              a.deliveries.map((d) => `${d.message}:${d.state}(${d.attempts.length})`).join(' ') || '-',
              a.summary,
            ]),
          );
        }
        if (page.nextCursor) {
          ctx.out.note(ctx.out.ce.dim(`More alerts: go on with --cursor ${page.nextCursor}`));
        }
      }),
    );
}

interface AlertsLsOptions {
  job?: number;
  kind?: AlarmKind;
  state?: AlertState;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}
