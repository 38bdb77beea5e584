/** `tickring preview "<schedule>"`: the next fire times, as the server computes them. */
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { formatInstant, isTimeZone, relativeTime, toMillis } from '../output.js';
import { collect, examples, instant, intIn, oneOf } from './args.js';

interface PreviewOptions {
  readonly type: 'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE';
  readonly tz?: string;
  readonly count: number;
  readonly from?: string;
  readonly startAt?: string;
  readonly endAt?: string;
  readonly maxRuns?: number;
  readonly jitter?: number;
  readonly job?: number;
  readonly onlyCalendar?: string[];
  readonly excludeCalendar?: string[];
}

const ENDS_TEXT = {
  maxRuns: 'maxRuns used up',
  endAt: 'endAt reached',
  noNextFire: 'no next fire',
  calendar: 'its calendars allow no further fire',
} as const;

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
    .option('--start-at <when>', 'the schedule’s startAt: no fire before it', instant(now))
    .option('--end-at <when>', 'the schedule’s endAt: no fire after it', instant(now))
    .option('--max-runs <n>', 'at most this many fires (a job’s runs remaining)', intIn(1))
    .option(
      '--jitter <seconds>',
      'the job’s jitterSeconds: shows each fire’s real time (with --job)',
      intIn(0, 3600),
    )
    .option('--job <id>', 'the job the fires are of (a fire’s jitter depends on it)', intIn(1))
    .option('--only-calendar <id>', 'fire only on working days of this calendar (repeatable)', collect)
    .option('--exclude-calendar <id>', 'never fire on a date this calendar excludes (repeatable)', collect)
    .addHelpText(
      'after',
      examples(
        'tickring preview "0 0 2 * * ?" --tz Europe/Berlin',
        'tickring preview "0 0/15 10 ? * 6L" --tz Europe/Berlin --count 3',
        'tickring preview 30 --type FIX_RATE',
        'tickring preview "0 30 2 * * ?" --tz Europe/Berlin --from 2030-03-29T00:00:00Z   # marks the DST change',
        'tickring preview "0 0 * * * ?" --max-runs 3 --jitter 300 --job 7',
        'tickring preview "0 0 9 ? * MON-FRI" --tz Asia/Shanghai --json',
        'tickring preview "0 0 9 * * ?" --tz Asia/Shanghai --only-calendar cn-workdays   # lists the days skipped',
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
            ...(opts.startAt === undefined ? {} : { startAt: opts.startAt }),
            ...(opts.endAt === undefined ? {} : { endAt: opts.endAt }),
            ...(opts.maxRuns === undefined ? {} : { maxRuns: opts.maxRuns }),
            ...(opts.jitter === undefined ? {} : { jitterSeconds: opts.jitter }),
            ...(opts.job === undefined ? {} : { jobId: opts.job }),
            ...(opts.onlyCalendar === undefined ? {} : { onlyCalendars: opts.onlyCalendar.join(',') }),
            ...(opts.excludeCalendar === undefined
              ? {}
              : { excludeCalendars: opts.excludeCalendar.join(',') }),
          },
        });
        if (ctx.json) return ctx.out.json(answer);

        const zone = opts.tz ?? 'UTC';
        if (!isTimeZone(zone)) throw new UsageError(`this node does not know the time zone ${zone}`);
        const local = ctx.out.zone;
        const { c } = ctx.out;
        const ends = answer.ends ? ` (then the schedule ends: ${ENDS_TEXT[answer.ends]})` : '';
        ctx.out.note(
          `${answer.times.length === 0 ? 'No fire' : `Next ${answer.times.length} fire${answer.times.length === 1 ? '' : 's'}`} of ${opts.type} ${JSON.stringify(conf)} in ${zone}${ends}:`,
        );
        if (answer.times.length > 0) {
          const same = zone === local;
          const jittered = answer.fires.some((f) => f.fireAt !== f.time);
          const rows = answer.fires.map((f, i) => {
            const ms = toMillis(f.time) ?? 0;
            const at = f.fireAt === null ? undefined : (toMillis(f.fireAt) ?? ms);
            return [
              String(i + 1),
              formatInstant(ms, zone, { weekday: true }),
              ...(same ? [] : [formatInstant(ms, local, { weekday: true })]),
              ...(jittered ? [at === undefined ? 'needs --job' : `+${((at - ms) / 1000).toFixed(3)} s`] : []),
              f.dst ? c.yellow('DST: repeated hour') : '',
              c.dim(relativeTime(at ?? ms, ctx.out.now())),
            ];
          });
          ctx.out.table(
            ['#', zone, ...(same ? [] : [`${local} (yours)`]), ...(jittered ? ['JITTER'] : []), '', ''],
            rows,
          );
        }
        for (const f of answer.fires) if (f.dst) ctx.out.note(c.yellow(`DST: ${f.dst.note}`));
        for (const s of answer.skipped) {
          const why =
            s.reason === 'WEEKEND' ? 'not a working day' : `excluded${s.label ? ` (${s.label})` : ''}`;
          ctx.out.note(
            c.dim(
              `Skipped ${formatInstant(toMillis(s.time) ?? 0, zone, { weekday: true })} and the rest of ${s.date}: ${why} in calendar ${s.calendarId} (${s.list})`,
            ),
          );
        }
        for (const t of answer.dst.transitions) {
          const what = t.kind === 'skippedHour' ? 'clocks spring forward' : 'clocks fall back';
          ctx.out.note(
            c.yellow(
              `DST ${t.localFrom}–${t.localTo.slice(11)} (${what}, ${t.offsetBefore} → ${t.offsetAfter}): ${t.note}`,
            ),
          );
        }
        if (answer.dst.transitions.length > 0) ctx.out.note(c.dim(`Policy: ${answer.dst.policy}`));
      }),
    );
}
