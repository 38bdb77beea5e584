/** `tickring preview "<schedule>"`: the next fire times, as the server computes them. */
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { formatInstant, isTimeZone, relativeTime, toMillis } from '../output.js';
import { examples, instant, intIn, oneOf } from './args.js';

interface PreviewOptions {
  readonly type: 'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE';
  readonly tz?: string;
  readonly count: number;
  readonly from?: string;
}

export function registerPreview(program: Command, run: ActionRunner, now: () => number): void {
  program
    .command('preview')
    .description(
      "the next fire times of a schedule (the server's /v1/schedule/preview), in its zone and yours",
    )
    .argument('<schedule>', 'a Quartz cron, FIX_RATE seconds, or an ONCE instant')
    .option(
      '--type <type>',
      'CRON, FIX_RATE, ONCE or NONE',
      oneOf(['NONE', 'CRON', 'FIX_RATE', 'ONCE']),
      'CRON',
    )
    .option('--tz <zone>', 'the IANA time zone the cron is read in (the server takes UTC without it)')
    .option('--count <n>', 'how many fire times (1-100)', intIn(1, 100), 5)
    .option('--from <when>', 'fires after this instant (ISO time, or a span back from now: 1h)', instant(now))
    .addHelpText(
      'after',
      examples(
        'tickring preview "0 0 2 * * ?" --tz Europe/Berlin',
        'tickring preview "0 0/15 10 ? * 6L" --tz Europe/Berlin --count 3',
        'tickring preview 30 --type FIX_RATE',
        'tickring preview "0 0 9 ? * MON-FRI" --tz Asia/Shanghai --json',
      ),
    )
    .action(
      run<PreviewOptions>(async (ctx, [conf], opts) => {
        const client = await ctx.client();
        const answer = await client.previewSchedule({
          query: {
            scheduleType: opts.type,
            scheduleConf: conf as string,
            count: opts.count,
            ...(opts.tz === undefined ? {} : { timeZone: opts.tz }),
            ...(opts.from === undefined ? {} : { from: opts.from }),
          },
        });
        if (ctx.json) return ctx.out.json(answer);

        const zone = opts.tz ?? 'UTC';
        if (!isTimeZone(zone)) throw new UsageError(`this node does not know the time zone ${zone}`);
        const local = ctx.out.zone;
        const { c } = ctx.out;
        ctx.out.note(
          `${answer.times.length === 0 ? 'No fire' : `Next ${answer.times.length} fire${answer.times.length === 1 ? '' : 's'}`} of ${opts.type} ${JSON.stringify(conf)} in ${zone}${answer.times.length < opts.count && answer.times.length > 0 ? ' (the schedule ends there)' : ''}:`,
        );
        if (answer.times.length === 0) return;
        const same = zone === local;
        const rows = answer.times.map((t, i) => {
          const ms = toMillis(t) ?? 0;
          return [
            String(i + 1),
            formatInstant(ms, zone, { weekday: true }),
            ...(same ? [] : [formatInstant(ms, local, { weekday: true })]),
            c.dim(relativeTime(ms, ctx.out.now())),
          ];
        });
        ctx.out.table(['#', zone, ...(same ? [] : [`${local} (yours)`]), ''], rows);
      }),
    );
}
