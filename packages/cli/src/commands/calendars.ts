/**
 * `tickring calendars ls|show|create|import|export|days|delete`: business calendars
 * (`/v1/calendars`): working weekdays, holidays, make-up workdays, iCalendar in and out.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Calendar, CalendarCreate, CalendarPage } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { UsageError } from '../errors.js';
import { clip } from '../output.js';
import { readAll } from '../prompt.js';
import { examples, intIn } from './args.js';
import { confirmDelete } from './groups.js';

const FILE_HELP = `
A file holds the body of POST /v1/calendars, e.g.:
  {"id": "cn-workdays", "name": "China workdays", "timeZone": "Asia/Shanghai",
   "workingDays": ["MON", "TUE", "WED", "THU", "FRI"],
   "excluded": [{"from": "2030-10-01", "to": "2030-10-07", "label": "National Day"}],
   "included": [{"date": "2030-09-28", "label": "Make-up day"}]}
The server checks it as a whole and lists every problem at once.
`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function date(value: string): string {
  if (!DATE.test(value)) throw new UsageError(`expected a date written YYYY-MM-DD; got ${value}`);
  return value;
}

export function registerCalendars(program: Command, run: ActionRunner): void {
  const calendars = program
    .command('calendars')
    .description(
      'business calendars (working days, holidays, make-up days): list, show, create, import, export, days, delete',
    )
    .addHelpText(
      'after',
      examples(
        'tickring calendars import holidays.ics --id cn-workdays --time-zone Asia/Shanghai',
        'tickring calendars days cn-workdays --from 2030-10-01 --to 2030-10-31',
        'tickring calendars export cn-workdays cn-workdays.ics',
      ),
    );

  calendars
    .command('ls')
    .alias('list')
    .description('list calendars in id order (every page)')
    .addHelpText(
      'after',
      examples('tickring calendars ls', 'tickring calendars ls --json | jq -r ".items[].id"'),
    )
    .action(
      run(async (ctx) => {
        const client = await ctx.client();
        const items: Calendar[] = [];
        for await (const page of client.pages('listCalendars', { query: { limit: 100 } }))
          items.push(...page.items);
        const all: CalendarPage = { items, nextCursor: null };
        if (ctx.json) return ctx.out.json(all);
        if (items.length === 0) return ctx.out.note('No calendars found.');
        ctx.out.table(
          ['ID', 'NAME', 'ZONE', 'WORKING DAYS', 'EXCLUDED', 'MAKE-UP', 'VERSION', 'UPDATED'],
          items.map((c) => [
            c.id,
            clip(c.name, 32),
            c.timeZone,
            workingDaysText(c.workingDays),
            String(c.excluded.length),
            String(c.included.length),
            String(c.version),
            ctx.out.shortWhen(c.updatedAt),
          ]),
        );
      }),
    );

  calendars
    .command('show')
    .alias('get')
    .description('show one calendar: its pattern, exclusions and make-up days')
    .argument('<id>', "the calendar's id")
    .addHelpText(
      'after',
      examples('tickring calendars show cn-workdays', 'tickring calendars show cn-workdays --json'),
    )
    .action(
      run(async (ctx, [id]) => {
        const client = await ctx.client();
        const calendar = await client.getCalendar({ path: { id: id as string } });
        if (ctx.json) return ctx.out.json(calendar);
        showCalendar(ctx, calendar);
      }),
    );

  calendars
    .command('create')
    .description('create a calendar from a JSON file')
    .requiredOption('-f, --file <file>', 'the JSON calendar (- for stdin)')
    .addHelpText('after', `${examples('tickring calendars create -f calendar.json')}${FILE_HELP}`)
    .action(
      run<{ file: string }>(async (ctx, _args, opts) => {
        const body = await ctx.readJsonFile(opts.file);
        const client = await ctx.client();
        const calendar = await client.createCalendar({ body: body as unknown as CalendarCreate });
        if (ctx.json) return ctx.out.json(calendar);
        ctx.out.note(`Created calendar ${calendar.id}.`);
        showCalendar(ctx, calendar);
      }),
    );

  calendars
    .command('import')
    .description('create a calendar from an iCalendar (.ics) file: all-day events are holidays')
    .argument('<file>', 'the .ics file (- for stdin)')
    .option('--id <id>', "the new calendar's id (default: the file's name)")
    .option('--name <name>', "its name (default: the file's X-WR-CALNAME, else the id)")
    .option('--time-zone <zone>', "its IANA zone (default: the file's X-WR-TIMEZONE, else UTC)")
    .addHelpText(
      'after',
      `${examples(
        'tickring calendars import holidays.ics --id cn-workdays --time-zone Asia/Shanghai',
        'curl -s https://example.com/holidays.ics | tickring calendars import - --id public-holidays',
      )}
Yearly events (RRULE) become dates from January 1 of last year to December 31 five years ahead;
timed events are left out (the server's notes say which). Events with CATEGORIES:WORKDAY are make-up days.
`,
    )
    .action(
      run<{ id?: string; name?: string; timeZone?: string }>(async (ctx, [file], opts) => {
        const path = file as string;
        let ics: string;
        try {
          ics = path === '-' ? await readAll(ctx.io) : await readFile(path, 'utf8');
        } catch (err) {
          throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
        }
        const id = opts.id ?? idFromFile(path);
        const client = await ctx.client();
        const imported = await client.importCalendar({
          body: {
            id,
            ics,
            ...(opts.name === undefined ? {} : { name: opts.name }),
            ...(opts.timeZone === undefined ? {} : { timeZone: opts.timeZone }),
          },
        });
        if (ctx.json) return ctx.out.json(imported);
        const { calendar, notes } = imported;
        ctx.out.note(
          `Imported calendar ${calendar.id}: ${calendar.excluded.length} excluded, ${calendar.included.length} make-up days.`,
        );
        for (const note of notes) ctx.out.warn(note);
      }),
    );

  calendars
    .command('export')
    .description('write a calendar as iCalendar (.ics), to a file or stdout')
    .argument('<id>', "the calendar's id")
    .argument('[file]', 'where to write it (default: stdout)')
    .addHelpText('after', examples('tickring calendars export cn-workdays cn-workdays.ics'))
    .action(
      run(async (ctx, [id, file]) => {
        const client = await ctx.client();
        const ics = await client.exportCalendar({ path: { id: id as string } });
        if (file === undefined) return ctx.out.print(ics);
        await writeFile(file as string, ics);
        ctx.out.note(`Wrote ${file}.`);
      }),
    );

  calendars
    .command('days')
    .description('the days of a range: allowed or not, and why (weekend, holiday, make-up day)')
    .argument('<id>', "the calendar's id")
    .requiredOption('--from <date>', 'the first day (YYYY-MM-DD)', date)
    .requiredOption('--to <date>', 'the last day (YYYY-MM-DD, at most 366 days on)', date)
    .option('--off', 'only the days that are not allowed')
    .addHelpText(
      'after',
      examples('tickring calendars days cn-workdays --from 2030-10-01 --to 2030-10-31 --off'),
    )
    .action(
      run<{ from: string; to: string; off?: boolean }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const answer = await client.listCalendarDays({
          path: { id: id as string },
          query: { from: opts.from, to: opts.to },
        });
        if (ctx.json) return ctx.out.json(answer);
        const days = opts.off ? answer.days.filter((d) => !d.allowed) : answer.days;
        if (days.length === 0) return ctx.out.note('No such days in the range.');
        ctx.out.table(
          ['DATE', 'DAY', 'ALLOWED', 'WHY', 'LABEL'],
          days.map((d) => [d.date, d.weekday, d.allowed ? 'yes' : 'no', d.reason, d.label ?? '']),
        );
      }),
    );

  calendars
    .command('delete')
    .alias('rm')
    .description('delete a calendar')
    .argument('<id>', "the calendar's id")
    .option('--expected-version <n>', 'only if it is still at this version', intIn(1))
    .option('-y, --yes', 'do not ask')
    .addHelpText('after', examples('tickring calendars delete cn-workdays --yes'))
    .action(
      run<{ expectedVersion?: number; yes?: boolean }>(async (ctx, [id], opts) => {
        await confirmDelete(ctx, `Delete calendar ${id}?`, opts.yes);
        const client = await ctx.client();
        await client.deleteCalendar({
          path: { id: id as string },
          ...(opts.expectedVersion === undefined ? {} : { query: { expectedVersion: opts.expectedVersion } }),
        });
        if (!ctx.json) ctx.out.note(`Deleted calendar ${id}.`);
      }),
    );
}

/** A calendar id from a file name: `China Holidays 2030.ics` → `china-holidays-2030`. */
function idFromFile(path: string): string {
  const base = path === '-' ? '' : (path.split(/[\\/]/).at(-1) ?? '').replace(/\.ics$/i, '');
  const id = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  if (id === '') throw new UsageError('give the calendar an id with --id');
  return id;
}

function workingDaysText(days: readonly string[]): string {
  return days.length === 0 ? 'none' : days.map((d) => d.slice(0, 2)).join(' ');
}

function showCalendar(ctx: Context, calendar: Calendar): void {
  ctx.out.details([
    ['ID', calendar.id],
    ['Name', calendar.name],
    ...(calendar.description === '' ? [] : [['Description', calendar.description] as const]),
    ['Time zone', calendar.timeZone],
    ['Working days', workingDaysText(calendar.workingDays)],
    ['Version', `${calendar.version} (by ${calendar.updatedBy}, ${ctx.out.shortWhen(calendar.updatedAt)})`],
  ]);
  if (calendar.excluded.length > 0) {
    ctx.out.line();
    ctx.out.table(
      ['EXCLUDED', 'LABEL'],
      calendar.excluded.map((e) => [e.to === undefined ? e.from : `${e.from} .. ${e.to}`, e.label ?? '']),
    );
  }
  if (calendar.included.length > 0) {
    ctx.out.line();
    ctx.out.table(
      ['MAKE-UP DAY', 'LABEL'],
      calendar.included.map((e) => [e.date, e.label ?? '']),
    );
  }
}
