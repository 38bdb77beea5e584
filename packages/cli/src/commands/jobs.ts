/** `tickring jobs ls|get|create|edit|start|stop|trigger|rm` (and the occurrence commands): jobs (`/v1/jobs`). */
import type { Job, JobCreate, JobPage, JobUpdate, TickringClient, TriggerAccepted } from '@tickring/client';
import { type Command, InvalidArgumentError } from 'commander';
import { type ActionRunner, type Context, sleep } from '../context.js';
import { CommandFailedError, UsageError } from '../errors.js';
import { canAsk, confirm } from '../prompt.js';
import { collect, examples, idList, intIn, oneOf, positiveId } from './args.js';
import { registerJobBackfill } from './backfills.js';
import { registerLedger } from './ledger.js';
import { registerOccurrences } from './occurrences.js';
import { followLog } from './run-log.js';

interface JobFlags {
  readonly file?: string;
  readonly app?: string;
  readonly name?: string;
  readonly author?: string;
  readonly cron?: string;
  readonly scheduleType?: string;
  readonly scheduleConf?: string;
  readonly tz?: string;
  readonly handler?: string;
  readonly param?: string;
  readonly route?: string;
  readonly block?: string;
  readonly misfire?: string;
  readonly timeout?: number;
  readonly retries?: number;
  readonly retryBackoff?: number;
  readonly alarmEmail?: string;
  readonly alarmWebhook?: string;
  readonly children?: number[];
  readonly status?: 'RUNNING' | 'STOPPED';
  readonly startAt?: string;
  readonly endAt?: string;
  readonly maxRuns?: string;
  readonly jitter?: number;
  readonly pauseAfter?: PauseAfterFlag;
  readonly resumeAfter?: number | 'none';
  readonly deadline?: DeadlineFlag;
  readonly onlyCalendar?: string[];
  readonly excludeCalendar?: string[];
  readonly clearCalendars?: boolean;
  readonly retentionDays?: number | 'default';
  readonly keepSuccessful?: number | 'all';
}

type PauseAfterFlag = { consecutive: number } | { failures: number; ofLast: number } | 'none';
type DeadlineFlag = { time: string; timeZone: string; days?: 'daily' | 'weekdays' } | 'none';

const JOB_FILE_HELP = `
A file holds the body of POST /v1/jobs (PUT /v1/jobs/{id} for edit), with tickring's or XXL-JOB's field
names, e.g.:
  {"appName": "my-app", "name": "Nightly report", "author": "ops", "scheduleType": "CRON",
   "scheduleConf": "0 0 2 * * ?", "timeZone": "Europe/Berlin", "executorHandler": "nightlyReport"}
Flags override the file's fields. The server checks the job and lists every problem at once.
`;

export function registerJobs(program: Command, run: ActionRunner, now: () => number = Date.now): void {
  const jobs = program
    .command('jobs')
    .description('jobs: list, show, create, edit, start, stop, trigger, delete')
    .addHelpText(
      'after',
      examples(
        'tickring jobs ls --app my-app',
        'tickring jobs create -f job.json',
        'tickring jobs trigger 7 --param region=eu --follow',
      ),
    );

  jobs
    .command('ls')
    .description('list jobs in id order (one page; --all for every page)')
    .option('--app <appName>', "only this group's jobs")
    .option('--status <status>', 'only RUNNING (scheduled) or STOPPED jobs', oneOf(['RUNNING', 'STOPPED']))
    .option('--all', 'read every page')
    .option('--limit <n>', 'jobs per page (1-100)', intIn(1, 100))
    .option('--cursor <cursor>', 'start at this page (the nextCursor of the one before)')
    .addHelpText(
      'after',
      examples(
        'tickring jobs ls',
        'tickring jobs ls --app my-app --status RUNNING',
        'tickring jobs ls --all --json | jq ".items | length"',
      ),
    )
    .action(
      run<{ app?: string; status?: 'RUNNING' | 'STOPPED'; all?: boolean; limit?: number; cursor?: string }>(
        async (ctx, _args, opts) => {
          const client = await ctx.client();
          const query = {
            ...(opts.app === undefined ? {} : { appName: opts.app }),
            ...(opts.status === undefined ? {} : { triggerStatus: opts.status }),
            ...(opts.limit === undefined ? {} : { limit: opts.limit }),
            ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
          };
          let page: JobPage;
          if (opts.all) {
            const items: Job[] = [];
            for await (const p of client.pages('listJobs', { query })) items.push(...p.items);
            page = { items, nextCursor: null };
          } else {
            page = await client.listJobs({ query });
          }
          if (ctx.json) return ctx.out.json(page);
          if (page.items.length === 0) ctx.out.note('No jobs found.');
          else {
            ctx.out.table(
              ['ID', 'APP', 'NAME', 'SCHEDULE', 'HANDLER', 'STATUS', 'NEXT FIRE'],
              page.items.map((j) => [
                String(j.id),
                j.appName,
                j.name,
                schedule(j),
                handler(j),
                j.scheduleEnded
                  ? `${ctx.out.status(j.triggerStatus)} (${j.scheduleEnded.reason})`
                  : ctx.out.status(j.triggerStatus),
                j.triggerStatus === 'RUNNING' ? ctx.out.shortWhen(j.triggerNextTime) : '-',
              ]),
            );
          }
          if (page.nextCursor) {
            ctx.out.note(
              ctx.out.ce.dim(
                `More jobs: tickring jobs ls --all, or the next page with --cursor ${page.nextCursor}`,
              ),
            );
          }
        },
      ),
    );

  jobs
    .command('get')
    .description('show one job')
    .argument('<id>', "the job's id", positiveId)
    .addHelpText('after', examples('tickring jobs get 7', 'tickring jobs get 7 --json > job.json'))
    .action(
      run(async (ctx, [id]) => {
        const client = await ctx.client();
        const job = await client.getJob({ path: { id: Number(id) } });
        if (ctx.json) return ctx.out.json(job);
        showJob(ctx, job);
      }),
    );

  jobFlags(
    jobs
      .command('create')
      .description('create a job from a JSON file and/or flags (created STOPPED unless --status RUNNING)')
      .addHelpText(
        'after',
        `${examples(
          'tickring jobs create -f job.json',
          'tickring jobs create --app my-app --name "Nightly report" --author ops --cron "0 0 2 * * ?" --tz Europe/Berlin --handler nightlyReport',
          'cat job.json | tickring jobs create -f - --status RUNNING',
        )}${JOB_FILE_HELP}`,
      ),
  ).action(
    run<JobFlags>(async (ctx, _args, flags) => {
      const body = await jobBody(ctx, flags);
      if (Object.keys(body).length === 0)
        throw new UsageError('give the job with -f <file> and/or flags (see --help)');
      const client = await ctx.client();
      const job = await client.createJob({ body: body as unknown as JobCreate });
      if (ctx.json) return ctx.out.json(job);
      ctx.out.note(
        `Created job ${job.id}${job.triggerStatus === 'STOPPED' ? ` (STOPPED: tickring jobs start ${job.id})` : ''}.`,
      );
      showJob(ctx, job);
    }),
  );

  jobFlags(
    jobs
      .command('edit')
      .description('change a job: the fields of a JSON file and/or flags, laid over the job')
      .argument('<id>', "the job's id", positiveId)
      .addHelpText(
        'after',
        `${examples(
          'tickring jobs edit 7 -f job.json',
          'tickring jobs edit 7 --cron "0 30 2 * * ?" --param region=eu',
          'tickring jobs get 7 --json > job.json && $EDITOR job.json && tickring jobs edit 7 -f job.json',
        )}${JOB_FILE_HELP}A file read with \`jobs get --json\` carries the job's version: the edit is refused (409) when
someone changed the job since.
`,
      ),
  ).action(
    run<JobFlags>(async (ctx, [id], flags) => {
      const body = await jobBody(ctx, flags);
      if (Object.keys(body).length === 0)
        throw new UsageError('nothing to change: give -f <file> and/or flags (see --help)');
      const client = await ctx.client();
      const job = await client.updateJob({ path: { id: Number(id) }, body: body as unknown as JobUpdate });
      if (ctx.json) return ctx.out.json(job);
      ctx.out.note(`Changed job ${job.id}.`);
      showJob(ctx, job);
    }),
  );

  for (const [verb, what] of [
    ['start', 'start scheduling a job (from its next fire)'],
    ['stop', 'stop scheduling a job (it still runs when triggered)'],
  ] as const) {
    jobs
      .command(verb)
      .description(what)
      .argument('<id>', "the job's id", positiveId)
      .addHelpText('after', examples(`tickring jobs ${verb} 7`))
      .action(
        run(async (ctx, [id]) => {
          const client = await ctx.client();
          const job =
            verb === 'start'
              ? await client.startJob({ path: { id: Number(id) } })
              : await client.stopJob({ path: { id: Number(id) } });
          if (ctx.json) return ctx.out.json(job);
          ctx.out.line(
            verb === 'start'
              ? `Job ${job.id} ${ctx.out.status(job.triggerStatus)}; next fire ${ctx.out.when(job.triggerNextTime)}`
              : `Job ${job.id} ${ctx.out.status(job.triggerStatus)}.`,
          );
        }),
      );
  }

  jobs
    .command('trigger')
    .description('run a job once now (whatever its schedule and status)')
    .argument('<id>', "the job's id", positiveId)
    .option('--param <param>', "the handler's parameter for this run only (instead of the job's)")
    .option('--address <url>', 'send this run to this executor instead of the group (repeatable)', collect)
    .option('--follow', "print the run's log until it ends; exit 0 when it succeeded, 1 when it failed")
    .addHelpText(
      'after',
      `${examples(
        'tickring jobs trigger 7',
        'tickring jobs trigger 7 --param "date=2030-01-01" --follow',
        'tickring jobs trigger 7 --address http://10.0.0.5:9999/',
      )}\nWith --follow --json: one JSON object per line: the trigger's answer, each slice of the log
(RunOutput), then the finished run.\n`,
    )
    .action(
      run<{ param?: string; address?: string[]; follow?: boolean }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const jobId = Number(id);
        const body = {
          ...(opts.param === undefined ? {} : { executorParam: opts.param }),
          ...(opts.address === undefined ? {} : { addressList: opts.address }),
        };
        const accepted = await client.triggerJob({ path: { id: jobId }, body });
        const logIds = logIdsOf(accepted);
        if (ctx.json) {
          if (opts.follow) ctx.out.print(`${JSON.stringify(accepted)}\n`);
          else ctx.out.json(accepted);
        } else if (logIds.length > 0) {
          ctx.out.line(`Triggered job ${jobId}: run ${logIds.join(', ')}`);
        } else {
          ctx.out.line(`Triggered job ${jobId} (fire ${accepted.dedupKey})`);
        }
        if (!opts.follow) {
          if (!ctx.json && logIds.length > 0) {
            ctx.out.note(ctx.out.ce.dim(`Its log: tickring runs log ${logIds[0]} --follow`));
          }
          return;
        }
        const runs = logIds.length > 0 ? logIds : await runsOfFire(ctx, client, jobId, accepted.dedupKey);
        let code = 0;
        for (const logId of runs) {
          if (runs.length > 1 && !ctx.json) ctx.out.note(ctx.out.ce.bold(`── run ${logId}`));
          code = Math.max(code, await followLog(ctx, client, logId));
        }
        return code;
      }),
    );

  jobs
    .command('rm')
    .description('delete a job')
    .argument('<id>', "the job's id", positiveId)
    .option('-y, --yes', 'do not ask')
    .addHelpText('after', examples('tickring jobs rm 7', 'tickring jobs rm 7 --yes'))
    .action(
      run<{ yes?: boolean }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const jobId = Number(id);
        if (!opts.yes) {
          if (!canAsk(ctx.io)) throw new UsageError('not asking without a terminal: add --yes to delete');
          const job = await client.getJob({ path: { id: jobId } });
          if (
            !(await confirm(ctx.io, `Delete job ${job.id} ${JSON.stringify(job.name)} (${job.appName})?`))
          ) {
            throw new CommandFailedError('not deleted');
          }
        }
        await client.deleteJob({ path: { id: jobId } });
        if (!ctx.json) ctx.out.note(`Deleted job ${jobId}.`);
      }),
    );

  registerOccurrences(jobs, run);
  registerJobBackfill(jobs, run, now);
  registerLedger(jobs, run, now);
}

function jobFlags(cmd: Command): Command {
  return cmd
    .option('-f, --file <file>', 'a JSON file with the fields (- for stdin)')
    .option('--app <appName>', 'the group whose executors run it')
    .option('--name <name>', 'what it does')
    .option('--author <author>', 'who owns it')
    .option('--cron <expr>', 'a Quartz cron (sets --schedule-type CRON), e.g. "0 0 2 * * ?"')
    .option(
      '--schedule-type <type>',
      'NONE, CRON, FIX_RATE or ONCE',
      oneOf(['NONE', 'CRON', 'FIX_RATE', 'ONCE']),
    )
    .option('--schedule-conf <conf>', 'the cron, the seconds (FIX_RATE) or the instant (ONCE)')
    .option('--tz <zone>', 'the IANA time zone its cron is read in')
    .option('--handler <name>', "the executor's handler")
    .option('--param <param>', "the handler's parameter")
    .option('--route <strategy>', 'how an executor is picked: FIRST, ROUND, RANDOM, SHARDING_BROADCAST, ...')
    .option('--block <strategy>', 'SERIAL_EXECUTION, DISCARD_LATER or COVER_EARLY')
    .option('--misfire <strategy>', 'DO_NOTHING or FIRE_ONCE_NOW')
    .option('--timeout <seconds>', 'seconds a run may take (0: no limit)', intIn(0))
    .option('--retries <n>', 'tries again after a failure', intIn(0))
    .option(
      '--retry-backoff <seconds>',
      'seconds before the first retry (doubled for each further one)',
      intIn(0),
    )
    .option('--alarm-email <list>', 'addresses to alarm, separated by commas')
    .option('--alarm-webhook <url>', 'an http(s) URL the failed run is POSTed to')
    .option('--children <ids>', 'jobs to trigger after a success, e.g. 3,4', idList)
    .option('--status <status>', 'RUNNING (scheduled) or STOPPED', oneOf(['RUNNING', 'STOPPED']))
    .option('--start-at <instant>', 'no scheduled fire before this ISO instant ("none" clears it)', bound)
    .option('--end-at <instant>', 'no scheduled fire after this ISO instant ("none" clears it)', bound)
    .option(
      '--max-runs <n>',
      'at most this many scheduled fires, then the job stops itself ("none" clears it)',
      maxRuns,
    )
    .option(
      '--jitter <seconds>',
      'delay each fire by a fixed offset in [0, seconds) (0-3600, below its interval)',
      intIn(0, 3600),
    )
    .option(
      '--pause-after <rule>',
      'pause after N final failures in a row ("3") or N of the last M ("3/5"); "none" removes the policy',
      pauseAfterRule,
    )
    .option(
      '--resume-after <duration>',
      'with --pause-after: start a paused job again after this long ("10m", "1h", "600s"; at least 1m)',
      duration,
    )
    .option(
      '--deadline <time zone>',
      'must have succeeded by this local time each day: "06:00 Europe/Berlin" (add "weekdays" for Mon-Fri); "none" clears it',
      deadlineOf,
    )
    .option(
      '--only-calendar <id>',
      'fire only on working days of this calendar (repeatable; with --exclude-calendar they replace the job’s calendars)',
      collect,
    )
    .option('--exclude-calendar <id>', 'never fire on a date this calendar excludes (repeatable)', collect)
    .option('--clear-calendars', 'the schedule follows no calendar')
    .option(
      '--retention-days <n>',
      'keep its run records this many days (1-3650); "default": the deployment’s (TICKRING_LOG_RETENTION_DAYS)',
      retentionDays,
    )
    .option(
      '--keep-successful <share>',
      'keep only this share of successful runs for the whole retention, e.g. 0.1 (the others a day); "all": every one',
      keepSuccessful,
    );
}

/** Days, or "default" (the field cleared: the deployment's retention). The server checks the range too. */
export function retentionDays(value: string): number | 'default' {
  return /^(default|none|null)$/i.test(value.trim()) ? 'default' : intIn(1, 3650)(value);
}

/** A share in (0, 1], or "all" (the field cleared: every success kept). */
export function keepSuccessful(value: string): number | 'all' {
  const text = value.trim();
  if (/^(all|none|null)$/i.test(text)) return 'all';
  const share = Number(text);
  if (text === '' || !Number.isFinite(share) || share <= 0 || share > 1) {
    throw new InvalidArgumentError(
      'give a share of successful runs above 0 and at most 1 (e.g. 0.1), or all',
    );
  }
  return share;
}

/** The calendars of the flags: both lists replace the job's (none given: the body's or the job's stay). */
function calendarsOf(flags: JobFlags): Record<string, unknown> | null | undefined {
  const given = flags.onlyCalendar !== undefined || flags.excludeCalendar !== undefined;
  if (flags.clearCalendars && given) {
    throw new UsageError('--clear-calendars takes no --only-calendar or --exclude-calendar beside it');
  }
  if (flags.clearCalendars) return null;
  if (!given) return undefined;
  return { only: flags.onlyCalendar ?? [], exclude: flags.excludeCalendar ?? [] };
}

/** "3" (in a row), "3/5" (of the last 5), or "none". */
export function pauseAfterRule(value: string): PauseAfterFlag {
  const text = value.trim();
  if (/^(none|null)$/i.test(text)) return 'none';
  const match = /^(\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) throw new InvalidArgumentError('give N (failures in a row), N/M (N of the last M) or none');
  const failures = Number(match[1]);
  return match[2] === undefined ? { consecutive: failures } : { failures, ofLast: Number(match[2]) };
}

/** "10m", "1h", "600s" or "600" (seconds), or "none": whole seconds. */
export function duration(value: string): number | 'none' {
  const text = value.trim();
  if (/^(none|null)$/i.test(text)) return 'none';
  const match = /^(\d+)\s*(s|m|h|d)?$/i.exec(text);
  if (!match) throw new InvalidArgumentError('give a duration such as 90s, 10m, 2h or 1d');
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? 's').toLowerCase() as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** "06:00 Europe/Berlin" with "weekdays" (or "daily") after it, or "none". The server checks time and zone. */
export function deadlineOf(value: string): DeadlineFlag {
  const parts = value.trim().split(/\s+/);
  if (parts.length === 1 && /^(none|null)$/i.test(parts[0] ?? '')) return 'none';
  const [time, timeZone, days, ...rest] = parts;
  if (
    time === undefined ||
    timeZone === undefined ||
    rest.length > 0 ||
    (days !== undefined && days !== 'daily' && days !== 'weekdays')
  ) {
    throw new InvalidArgumentError(
      'give "HH:MM Zone", e.g. "06:00 Europe/Berlin", optionally followed by weekdays',
    );
  }
  return { time, timeZone, ...(days === undefined ? {} : { days }) };
}

/** The failure policy the flags say; undefined when they say nothing of it. */
function failurePolicyOf(flags: JobFlags): unknown {
  if (flags.pauseAfter === undefined) {
    if (flags.resumeAfter !== undefined) {
      throw new UsageError('--resume-after goes with --pause-after (the whole policy is set at once)');
    }
    return undefined;
  }
  if (flags.pauseAfter === 'none') return null;
  return {
    pauseAfter: flags.pauseAfter,
    ...(flags.resumeAfter === undefined || flags.resumeAfter === 'none'
      ? {}
      : { resumeAfterSeconds: flags.resumeAfter }),
  };
}

/** A bound's flag: "none" (or "null") clears it; anything else goes to the server as given (it checks it). */
function bound(value: string): string {
  return /^(none|null)$/i.test(value.trim()) ? 'none' : value.trim();
}

function maxRuns(value: string): string {
  return /^(none|null)$/i.test(value.trim()) ? 'none' : String(intIn(1)(value));
}

/** A bound flag's value in a body: null clears it. */
function boundValue(value: string | undefined, read: (v: string) => unknown = (v) => v): unknown {
  if (value === undefined) return undefined;
  return value === 'none' ? null : read(value);
}

async function jobBody(ctx: Context, flags: JobFlags): Promise<Record<string, unknown>> {
  const file = flags.file ? await ctx.readJsonFile(flags.file) : {};
  if (flags.cron !== undefined && flags.scheduleType !== undefined && flags.scheduleType !== 'CRON') {
    throw new UsageError(`--cron sets the schedule type CRON; --schedule-type says ${flags.scheduleType}`);
  }
  if (flags.cron !== undefined && flags.scheduleConf !== undefined) {
    throw new UsageError('give the schedule with --cron or with --schedule-conf, not both');
  }
  const fields: Record<string, unknown> = {
    appName: flags.app,
    name: flags.name,
    author: flags.author,
    scheduleType: flags.cron !== undefined ? 'CRON' : flags.scheduleType,
    scheduleConf: flags.cron ?? flags.scheduleConf,
    timeZone: flags.tz,
    executorHandler: flags.handler,
    executorParam: flags.param,
    executorRouteStrategy: flags.route?.toUpperCase(),
    executorBlockStrategy: flags.block?.toUpperCase(),
    misfireStrategy: flags.misfire?.toUpperCase(),
    executorTimeout: flags.timeout,
    executorFailRetryCount: flags.retries,
    retryBackoffSeconds: flags.retryBackoff,
    alarmEmail: flags.alarmEmail,
    alarmWebhook: flags.alarmWebhook,
    childJobIds: flags.children,
    triggerStatus: flags.status,
    startAt: boundValue(flags.startAt),
    endAt: boundValue(flags.endAt),
    maxRuns: boundValue(flags.maxRuns, Number),
    jitterSeconds: flags.jitter,
    failurePolicy: failurePolicyOf(flags),
    deadline: flags.deadline === undefined ? undefined : flags.deadline === 'none' ? null : flags.deadline,
    calendars: calendarsOf(flags),
    logRetentionDays: flags.retentionDays === 'default' ? null : flags.retentionDays,
    keepSuccessfulRuns: flags.keepSuccessful === 'all' ? null : flags.keepSuccessful,
  };
  return { ...file, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
}

/** The runs a trigger created: `logIds` (or `logId`) when the server names them. */
export function logIdsOf(accepted: TriggerAccepted): number[] {
  const a = accepted as TriggerAccepted & { logId?: unknown; logIds?: unknown };
  if (Array.isArray(a.logIds) && a.logIds.length > 0)
    return a.logIds.filter((n): n is number => typeof n === 'number');
  if (typeof a.logId === 'number') return [a.logId];
  return [];
}

/** A fire's runs found by its dedupKey (a broadcast's are numbered when its executors are known). */
async function runsOfFire(
  ctx: Context,
  client: TickringClient,
  jobId: number,
  dedupKey: string,
): Promise<number[]> {
  const { signal, release } = ctx.interruptible();
  try {
    const until = ctx.out.now() + 30_000;
    for (;;) {
      const page = await client.listRuns({ query: { jobId, limit: 100 } });
      const found = page.items.filter((r) => r.dedupKey === dedupKey).map((r) => r.logId);
      if (found.length > 0) return found.sort((a, b) => a - b);
      if (ctx.out.now() > until)
        throw new CommandFailedError(`no run of fire ${dedupKey} showed up within 30 s`);
      await sleep(500, signal);
    }
  } finally {
    release();
  }
}

function schedule(j: Job): string {
  return scheduleText(j);
}

/** A schedule in a table cell: "cron 0 0 2 * * ? (Europe/Berlin)", "every 30 s", "once …", "-" for NONE. */
export function scheduleText(j: {
  readonly scheduleType: string;
  readonly scheduleConf: string;
  readonly timeZone?: string;
}): string {
  switch (j.scheduleType) {
    case 'NONE':
      return '-';
    case 'CRON':
      return `cron ${j.scheduleConf}${j.timeZone && j.timeZone !== 'UTC' ? ` (${j.timeZone})` : ''}`;
    case 'FIX_RATE':
      return `every ${j.scheduleConf} s`;
    case 'ONCE':
      return `once ${j.scheduleConf}`;
    default:
      return `${j.scheduleType} ${j.scheduleConf}`;
  }
}

function handler(j: Job): string {
  return j.glueType === 'BEAN' ? j.executorHandler : j.glueType;
}

/** Why a stopped job's schedule ended, in words. */
export function endedText(ended: NonNullable<Job['scheduleEnded']>): string {
  switch (ended.reason) {
    case 'maxRuns':
      return 'maxRuns used up';
    case 'endAt':
      return 'endAt reached';
    case 'calendar':
      return 'its calendars allow no further fire';
    default:
      return 'the schedule fires no more';
  }
}

/** The bounds, jitter, runs remaining and end reason of a job: only the ones it has. */
function boundRows(ctx: Context, j: Job): [string, string][] {
  const { out } = ctx;
  const rows: [string, string][] = [];
  if (j.startAt) rows.push(['start at', out.when(j.startAt)]);
  if (j.endAt) rows.push(['end at', out.when(j.endAt)]);
  if (j.maxRuns !== null) rows.push(['runs remaining', `${j.runsRemaining ?? 0} of ${j.maxRuns}`]);
  if (j.jitterSeconds > 0) rows.push(['jitter', `up to ${j.jitterSeconds} s per fire`]);
  if (j.calendars.only.length > 0) rows.push(['only on', `working days of ${j.calendars.only.join(', ')}`]);
  if (j.calendars.exclude.length > 0)
    rows.push(['not on', `dates excluded by ${j.calendars.exclude.join(', ')}`]);
  if (j.scheduleEnded)
    rows.push([
      'ended',
      `${endedText(j.scheduleEnded)} (${j.scheduleEnded.reason}), ${out.when(j.scheduleEnded.at)}`,
    ]);
  rows.push(...policyRows(ctx, j));
  rows.push(...retentionRows(j));
  return rows;
}

/** How long its runs are kept, and the estimate of what that costs (GET of one job only). */
export function retentionRows(j: Job): [string, string][] {
  const r = j.retention;
  if (!r) return [];
  const sample = r.successSample < 1 ? `, ${r.successSample * 100}% of successes (the others 1 day)` : '';
  const kib = Math.round(r.estimatedBytes / 1024);
  return [
    [
      'runs kept',
      `${r.days} days${j.logRetentionDays === null ? ' (the deployment’s default)' : ''}${sample}`,
    ],
    [
      'history (est.)',
      `~${r.estimatedRecords} records, ~${kib} KiB, ~$${r.estimatedMonthlyCostUsd}/month on DynamoDB`,
    ],
  ];
}

/** The failure policy, a pause by it, the deadline and where the job stands against it: only what it has. */
export function policyRows(ctx: Context, j: Job): [string, string][] {
  const { out } = ctx;
  const rows: [string, string][] = [];
  const policy = j.failurePolicy;
  if (policy) {
    const rule = policy.pauseAfter;
    const text =
      'consecutive' in rule ? `${rule.consecutive} in a row` : `${rule.failures} of the last ${rule.ofLast}`;
    const resume =
      policy.resumeAfterSeconds === undefined ? '' : `, resumes after ${policy.resumeAfterSeconds} s`;
    rows.push(['pause after', `${text} final failures${resume}`]);
  }
  if (j.pausedBy) {
    rows.push([
      'paused',
      `by its failure policy (${j.pausedBy.failures} of ${j.pausedBy.ofLast} failed), ${out.when(j.pausedBy.at)}` +
        (j.pausedBy.resumeAt === null
          ? '; start it when fixed'
          : `; resumes ${out.when(j.pausedBy.resumeAt)}`),
    ]);
  }
  return [...rows, ...deadlineRows(ctx, j)];
}

/** The deadline and where a job or a workflow stands against it; none without one. */
export function deadlineRows(
  ctx: Context,
  { deadline, deadlineStatus: status }: Pick<Job, 'deadline' | 'deadlineStatus'>,
): [string, string][] {
  if (!deadline) return [];
  const { out } = ctx;
  const state =
    status === null || status === undefined
      ? ''
      : status.state === 'met'
        ? ` — met at ${out.when(status.at)}`
        : status.state === 'missed'
          ? ` — missed (${out.when(status.window.to)})`
          : ' — pending';
  return [
    [
      'deadline',
      `${deadline.time} ${deadline.timeZone}${deadline.days === 'weekdays' ? ' (weekdays)' : ''}${state}`,
    ],
  ];
}

function showJob(ctx: Context, j: Job): void {
  const { out } = ctx;
  out.details([
    ['id', String(j.id)],
    ['name', j.name],
    ['app', j.appName],
    ['author', j.author],
    ['status', out.status(j.triggerStatus)],
    [
      'schedule',
      j.scheduleType === 'NONE' ? 'NONE (runs when triggered)' : `${j.scheduleType} ${j.scheduleConf}`,
    ],
    ['time zone', j.timeZone],
    ...boundRows(ctx, j),
    ['next fire', j.triggerStatus === 'RUNNING' ? out.when(j.triggerNextTime) : '-'],
    ['last fire', out.when(j.triggerLastTime)],
    [
      'handler',
      j.glueType === 'BEAN' ? j.executorHandler : `${j.glueType} (glue, ${j.glueSource.length} chars)`,
    ],
    ['param', j.executorParam === '' ? '-' : j.executorParam],
    ['route', j.executorRouteStrategy],
    ['block', j.executorBlockStrategy],
    ['misfire', j.misfireStrategy],
    ['timeout', j.executorTimeout === 0 ? 'none' : `${j.executorTimeout} s`],
    [
      'retries',
      j.executorFailRetryCount === 0
        ? '0'
        : `${j.executorFailRetryCount} (first after ${j.retryBackoffSeconds} s)`,
    ],
    ['children', j.childJobIds.length === 0 ? '-' : j.childJobIds.join(', ')],
    ['alarm email', j.alarmEmail || '-'],
    ['alarm webhook', j.alarmWebhook || '-'],
    ['version', String(j.version)],
    ['created', out.when(j.createdAt)],
    ['updated', out.when(j.updatedAt)],
  ]);
}
