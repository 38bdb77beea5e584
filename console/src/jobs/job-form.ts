// The job editor's form: its fields (labels, help from the API schema's descriptions, choices), the
// form made from a job, and the create/update bodies made from the form. Pure.

import type { Job, JobCreate, JobUpdate } from '@tickring/client';
import type { ShownError } from '../lib/api';
import { problemsFor } from '../lib/field-problems';

export type ScheduleType = Job['scheduleType'];
export type MisfireStrategy = Job['misfireStrategy'];
export type RouteStrategy = Job['executorRouteStrategy'];
export type BlockStrategy = Job['executorBlockStrategy'];
export type GlueType = Job['glueType'];
export type TriggerStatus = Job['triggerStatus'];
/** off: no failure policy; consecutive: N final failures in a row; ofLast: N of the last M. */
export type PauseMode = 'off' | 'consecutive' | 'ofLast';
export type DeadlineDays = NonNullable<NonNullable<Job['deadline']>['days']>;
/** group: the group's default channels (null); none: no channel ([]); chosen: the channels ticked. */
export type AlertRouting = 'group' | 'none' | 'chosen';

/** The server's limits (MIN/MAX_LOG_RETENTION_DAYS, MAX_JOB_ALERT_CHANNELS): shown in the help, checked before asking. */
export const LOG_RETENTION_DAYS = { min: 1, max: 3650 } as const;
export const MAX_ALERT_CHANNELS = 10;

/** What the inputs hold: numbers as typed (checked on save), child jobs as ids. */
export interface JobForm {
  appName: string;
  name: string;
  author: string;
  alarmEmail: string;
  alarmWebhook: string;
  scheduleType: ScheduleType;
  scheduleConf: string;
  timeZone: string;
  misfireStrategy: MisfireStrategy;
  /** ISO instants as typed; empty: no bound. */
  startAt: string;
  endAt: string;
  /** As typed; empty: no limit. */
  maxRuns: string;
  jitterSeconds: string;
  /** Calendar ids: fire only on working days of these; never on dates those exclude. */
  calendars: { only: string[]; exclude: string[] };
  executorRouteStrategy: RouteStrategy;
  executorHandler: string;
  executorParam: string;
  executorBlockStrategy: BlockStrategy;
  executorTimeout: string;
  executorFailRetryCount: string;
  retryBackoffSeconds: string;
  glueType: GlueType;
  glueSource: string;
  childJobIds: number[];
  triggerStatus: TriggerStatus;
  /** The failure policy: its rule, N (and M) as typed, the resume delay as typed (empty: none). */
  pauseMode: PauseMode;
  pauseFailures: string;
  pauseOfLast: string;
  resumeAfterSeconds: string;
  /** The deadline: HH:MM as typed (empty: no deadline), its zone, its days. */
  deadlineTime: string;
  deadlineZone: string;
  deadlineDays: DeadlineDays;
  /** Where the job's alerts go; the ids ticked are kept while another routing is picked. */
  alertRouting: AlertRouting;
  alertChannels: string[];
  /** Days as typed; empty: the install's default. */
  logRetentionDays: string;
  /** A percentage as typed (the API takes a share of 1); empty: every success kept. */
  keepSuccessfulRuns: string;
}

export type FormField = keyof JobForm;

export interface Choice<V extends string> {
  readonly value: V;
  readonly label: string;
}

/** Labels and help text (short forms of the schema's descriptions) of each field. */
export const FIELDS: Record<FormField, { readonly label: string; readonly help: string }> = {
  appName: { label: 'Group', help: 'The executor group whose executors run the job.' },
  name: { label: 'Name', help: 'What the job does (XXL-JOB’s job description).' },
  author: { label: 'Author', help: 'Who owns the job.' },
  alarmEmail: {
    label: 'Alarm e-mail',
    help: 'Addresses to alarm when a run fails for good, separated by commas; empty for none.',
  },
  alarmWebhook: {
    label: 'Alarm webhook',
    help: 'An http(s) URL the failed run is POSTed to when its last retry fails; empty for none.',
  },
  scheduleType: { label: 'Schedule type', help: 'How the schedule below is read.' },
  scheduleConf: { label: 'Schedule', help: '' },
  timeZone: { label: 'Time zone', help: 'The IANA time zone the cron is read in (its hours and days).' },
  misfireStrategy: {
    label: 'When a fire comes late',
    help: 'A scheduled fire more than 5 s late (the scheduler was down or backed up).',
  },
  startAt: {
    label: 'Start at',
    help: 'No scheduled fire before this instant (ISO-8601 with Z or an offset); empty for none.',
  },
  endAt: {
    label: 'End at',
    help: 'No scheduled fire after this instant; then the job stops itself. Empty for none.',
  },
  maxRuns: {
    label: 'Most scheduled runs',
    help: 'After this many scheduled fires the job stops itself (manual and retry runs do not count). Empty for no limit.',
  },
  jitterSeconds: {
    label: 'Jitter (seconds)',
    help: 'Delays each fire by a fixed offset in [0, jitter) s, derived from the job and the fire; at most 3600 and less than the time between fires. 0 for none.',
  },
  calendars: {
    label: 'Calendars',
    help: 'Only on: fires only on working days of every calendar ticked (a make-up Saturday fires, a holiday Monday does not). Not on: never on a date a ticked calendar excludes, whatever its weekdays say. Each calendar reads the fire’s date in its own time zone.',
  },
  executorRouteStrategy: { label: 'Routing', help: 'How a run picks its executor among the group’s.' },
  executorHandler: { label: 'Handler', help: 'The handler the executor runs; required for BEAN code.' },
  executorParam: { label: 'Parameter', help: 'The parameter the handler gets.' },
  executorBlockStrategy: {
    label: 'While the previous run still runs',
    help: 'What an executor does with a run while the job’s previous one is still running.',
  },
  executorTimeout: {
    label: 'Timeout (seconds)',
    help: 'Seconds a run may take before the executor stops it; 0 for no timeout.',
  },
  executorFailRetryCount: { label: 'Retries', help: 'How often a failed run is tried again.' },
  retryBackoffSeconds: {
    label: 'Retry back-off (seconds)',
    help: 'Seconds before the first retry; doubled for each further one.',
  },
  glueType: {
    label: 'Code',
    help: 'A handler registered in the executor (BEAN), or a script run as it is (GLUE).',
  },
  glueSource: { label: 'Script', help: 'The script of a GLUE job.' },
  childJobIds: {
    label: 'Child jobs',
    help: 'Jobs triggered when a run of this one succeeds; no cycles, not the job itself.',
  },
  triggerStatus: {
    label: 'Schedule on',
    help: 'On: fired by its schedule (RUNNING). Off: fires only when triggered (STOPPED).',
  },
  pauseMode: {
    label: 'Pause the schedule',
    help: 'Stops the schedule (and alarms) when runs keep failing. A run counts once its retries are used up; killed and skipped runs do not count.',
  },
  pauseFailures: { label: 'Failures', help: 'How many final failures, 1 to 100.' },
  pauseOfLast: { label: 'Of the last', help: 'Among this many newest final outcomes, 1 to 100.' },
  resumeAfterSeconds: {
    label: 'Resume after (seconds)',
    help: 'Starts the schedule again this long after the pause (60 s to 30 days); empty: it stays off until someone starts it.',
  },
  deadlineTime: {
    label: 'Deadline',
    help: 'A run must have succeeded by this local time (HH:MM); an alarm when it has not. Empty for none.',
  },
  deadlineZone: { label: 'Deadline time zone', help: 'The IANA time zone the deadline is read in.' },
  deadlineDays: { label: 'Deadline days', help: 'Every day, or Monday to Friday in that zone.' },
  alertRouting: {
    label: 'Alert channels',
    help: 'Where the job’s alerts go, besides the alarm e-mail and webhook above: its group’s default channels, none, or the channels ticked.',
  },
  alertChannels: {
    label: 'Alert channels',
    help: `The channels the job’s alerts go to, at most ${MAX_ALERT_CHANNELS}.`,
  },
  logRetentionDays: {
    label: 'Keep run history (days)',
    help: `Days a run’s record (its result and messages) is kept after its trigger, ${LOG_RETENTION_DAYS.min} to ${LOG_RETENTION_DAYS.max}. Empty: the install’s default (TICKRING_LOG_RETENTION_DAYS, 30 unless set). Applies to runs from the change on.`,
  },
  keepSuccessfulRuns: {
    label: 'Successful runs kept (%)',
    help: 'The share of successful runs kept for the whole history, more than 0 and at most 100; the others are kept one day (the same runs every time). Failed, skipped and running runs are always kept. Empty: every success.',
  },
};

export const ALERT_ROUTINGS: readonly Choice<AlertRouting>[] = [
  { value: 'group', label: 'Group default' },
  { value: 'none', label: 'None' },
  { value: 'chosen', label: 'These channels' },
];

export const PAUSE_MODES: readonly Choice<PauseMode>[] = [
  { value: 'off', label: 'Never (no failure policy)' },
  { value: 'consecutive', label: 'After N failures in a row' },
  { value: 'ofLast', label: 'After N failures of the last M runs' },
];

export const DEADLINE_DAYS: readonly Choice<DeadlineDays>[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekdays', label: 'Weekdays (Monday to Friday)' },
];

/** The schedule field's label, help and placeholder by type (from scheduleConf's description). */
export const SCHEDULE_CONF: Record<ScheduleType, { label: string; help: string; placeholder: string }> = {
  NONE: { label: 'Schedule', help: 'No schedule: the job runs only when triggered.', placeholder: '' },
  CRON: {
    label: 'Cron expression (Quartz)',
    help: 'Seconds first, optional year last: second minute hour day-of-month month day-of-week [year]; ? L W # allowed; days of week 1-7 = SUN-SAT.',
    placeholder: '0 0 2 * * ?',
  },
  FIX_RATE: { label: 'Seconds between fires', help: 'Whole seconds, 1 or more.', placeholder: '30' },
  ONCE: {
    label: 'Instant',
    help: 'An ISO-8601 instant with its zone or offset.',
    placeholder: '2030-06-01T12:00:00Z',
  },
};

export const SCHEDULE_TYPES: readonly Choice<ScheduleType>[] = [
  { value: 'CRON', label: 'Cron (Quartz)' },
  { value: 'FIX_RATE', label: 'Fixed rate' },
  { value: 'ONCE', label: 'Once' },
  { value: 'NONE', label: 'None (only when triggered)' },
];

export const MISFIRE_STRATEGIES: readonly Choice<MisfireStrategy>[] = [
  { value: 'DO_NOTHING', label: 'Skip it (recorded as a skipped run)' },
  { value: 'FIRE_ONCE_NOW', label: 'Run it once to catch up' },
];

export const ROUTE_STRATEGIES: readonly Choice<RouteStrategy>[] = [
  { value: 'FIRST', label: 'First executor' },
  { value: 'LAST', label: 'Last executor' },
  { value: 'ROUND', label: 'Round robin' },
  { value: 'RANDOM', label: 'Random' },
  { value: 'CONSISTENT_HASH', label: 'Consistent hash' },
  { value: 'LEAST_FREQUENTLY_USED', label: 'Least frequently used' },
  { value: 'LEAST_RECENTLY_USED', label: 'Least recently used' },
  { value: 'FAILOVER', label: 'Failover (first that answers)' },
  { value: 'BUSYOVER', label: 'Busy-over (first that is idle)' },
  { value: 'SHARDING_BROADCAST', label: 'Sharding broadcast (every executor)' },
];

export const BLOCK_STRATEGIES: readonly Choice<BlockStrategy>[] = [
  { value: 'SERIAL_EXECUTION', label: 'Queue it (serial execution)' },
  { value: 'DISCARD_LATER', label: 'Discard the new run' },
  { value: 'COVER_EARLY', label: 'Stop the old run, start the new' },
];

export const GLUE_TYPES: readonly Choice<GlueType>[] = [
  { value: 'BEAN', label: 'Handler in the executor (BEAN)' },
  { value: 'GLUE_GROOVY', label: 'Groovy script' },
  { value: 'GLUE_SHELL', label: 'Shell script' },
  { value: 'GLUE_PYTHON', label: 'Python 3 script' },
  { value: 'GLUE_PYTHON2', label: 'Python 2 script' },
  { value: 'GLUE_NODEJS', label: 'Node.js script' },
  { value: 'GLUE_POWERSHELL', label: 'PowerShell script' },
  { value: 'GLUE_PHP', label: 'PHP script' },
];

/** The label of a choice's value (the value itself when unknown). */
export function choiceLabel<V extends string>(choices: readonly Choice<V>[], value: string): string {
  return choices.find((c) => c.value === value)?.label ?? value;
}

/** A new job's form: the API's defaults, the viewer's zone, the caller as author. */
export function newJobForm(defaults: { appName?: string; author?: string; timeZone?: string } = {}): JobForm {
  return {
    appName: defaults.appName ?? '',
    name: '',
    author: defaults.author ?? '',
    alarmEmail: '',
    alarmWebhook: '',
    scheduleType: 'CRON',
    scheduleConf: '',
    timeZone: defaults.timeZone ?? 'UTC',
    misfireStrategy: 'DO_NOTHING',
    startAt: '',
    endAt: '',
    maxRuns: '',
    jitterSeconds: '0',
    calendars: { only: [], exclude: [] },
    executorRouteStrategy: 'FIRST',
    executorHandler: '',
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: '0',
    executorFailRetryCount: '0',
    retryBackoffSeconds: '10',
    glueType: 'BEAN',
    glueSource: '',
    childJobIds: [],
    triggerStatus: 'STOPPED',
    pauseMode: 'off',
    pauseFailures: '3',
    pauseOfLast: '5',
    resumeAfterSeconds: '',
    deadlineTime: '',
    deadlineZone: defaults.timeZone ?? 'UTC',
    deadlineDays: 'daily',
    alertRouting: 'group',
    alertChannels: [],
    logRetentionDays: '',
    keepSuccessfulRuns: '',
  };
}

/** The form of a job as read. */
export function formFromJob(job: Job): JobForm {
  return {
    appName: job.appName,
    name: job.name,
    author: job.author,
    alarmEmail: job.alarmEmail,
    alarmWebhook: job.alarmWebhook,
    scheduleType: job.scheduleType,
    scheduleConf: job.scheduleConf,
    timeZone: job.timeZone,
    misfireStrategy: job.misfireStrategy,
    startAt: job.startAt ?? '',
    endAt: job.endAt ?? '',
    maxRuns: job.maxRuns === null ? '' : String(job.maxRuns),
    jitterSeconds: String(job.jitterSeconds),
    calendars: { only: [...job.calendars.only], exclude: [...job.calendars.exclude] },
    executorRouteStrategy: job.executorRouteStrategy,
    executorHandler: job.executorHandler,
    executorParam: job.executorParam,
    executorBlockStrategy: job.executorBlockStrategy,
    executorTimeout: String(job.executorTimeout),
    executorFailRetryCount: String(job.executorFailRetryCount),
    retryBackoffSeconds: String(job.retryBackoffSeconds),
    glueType: job.glueType,
    glueSource: job.glueSource,
    childJobIds: [...job.childJobIds],
    triggerStatus: job.triggerStatus,
    ...policyForm(job),
    alertRouting: alertRoutingOf(job.alertChannels),
    alertChannels: [...(job.alertChannels ?? [])],
    logRetentionDays: job.logRetentionDays === null ? '' : String(job.logRetentionDays),
    keepSuccessfulRuns: job.keepSuccessfulRuns === null ? '' : percentText(job.keepSuccessfulRuns),
  };
}

/** The routing of a job's channels as read (absent or null: the group's; []: none). */
export function alertRoutingOf(channels: readonly string[] | null | undefined): AlertRouting {
  if (channels === null || channels === undefined) return 'group';
  return channels.length === 0 ? 'none' : 'chosen';
}

/** A decimal number's text scaled by 10^`by`, read as a number: exact in decimal (no 0.1 × 100 = 10.000000000000002). */
function scaleDecimal(text: string, by: number): number {
  const [mantissa, exponent = '0'] = text.toLowerCase().split('e');
  return Number(`${mantissa}e${Number(exponent) + by}`);
}

/** A share of 1 as the percentage typed for it: 0.1 → "10". */
export function percentText(share: number): string {
  return String(scaleDecimal(String(share), 2));
}

type PolicyFields =
  | 'pauseMode'
  | 'pauseFailures'
  | 'pauseOfLast'
  | 'resumeAfterSeconds'
  | 'deadlineTime'
  | 'deadlineZone'
  | 'deadlineDays';

/** The failure policy's and the deadline's fields of a job as read (the defaults where it has none). */
function policyForm(job: Job): Pick<JobForm, PolicyFields> {
  const rule = job.failurePolicy?.pauseAfter;
  const resume = job.failurePolicy?.resumeAfterSeconds;
  return {
    pauseMode: rule === undefined ? 'off' : 'consecutive' in rule ? 'consecutive' : 'ofLast',
    pauseFailures:
      rule === undefined ? '3' : String('consecutive' in rule ? rule.consecutive : rule.failures),
    pauseOfLast: rule !== undefined && 'ofLast' in rule ? String(rule.ofLast) : '5',
    resumeAfterSeconds: resume === undefined ? '' : String(resume),
    deadlineTime: job.deadline?.time ?? '',
    deadlineZone: job.deadline?.timeZone ?? job.timeZone,
    deadlineDays: job.deadline?.days ?? 'daily',
  };
}

const NUMBER_FIELDS = ['executorTimeout', 'executorFailRetryCount', 'retryBackoffSeconds'] as const;

/** The fields a job body carries (the editable ones; JobCreate/JobUpdate without aliases and read-only ones). */
type JobBody = Omit<JobCreate, 'jobDesc' | 'jobGroup' | 'childJobId' | 'id' | 'version' | ReadOnlyKeys>;
type ReadOnlyKeys =
  | 'triggerNextTime'
  | 'triggerLastTime'
  | 'glueUpdatetime'
  | 'scheduleRevision'
  | 'createdAt'
  | 'updatedAt'
  | 'workflowId'
  | 'runsRemaining'
  | 'scheduleEnded'
  | 'pausedBy'
  | 'deadlineSetAt'
  | 'deadlineStatus'
  | 'occurrenceExceptions'
  | 'retention';

/**
 * The form as a body, or the problems found before asking the server (numbers that are not whole
 * numbers >= 0), in the server's error shape so they show the same way.
 */
function bodyOf(form: JobForm): { body: Required<JobBody> } | { error: ShownError } {
  const problems: { field: string; message: string }[] = [];
  const numbers: Partial<Record<(typeof NUMBER_FIELDS)[number], number>> = {};
  for (const field of NUMBER_FIELDS) {
    const raw = form[field].trim();
    if (!/^\d+$/.test(raw)) {
      problems.push({ field, message: 'Enter a whole number, 0 or more.' });
    } else {
      numbers[field] = Number(raw);
    }
  }
  const jitter = form.jitterSeconds.trim();
  if (!/^\d+$/.test(jitter))
    problems.push({ field: 'jitterSeconds', message: 'Enter a whole number, 0 or more.' });
  const maxRuns = form.maxRuns.trim();
  if (maxRuns !== '' && !/^[1-9]\d*$/.test(maxRuns))
    problems.push({
      field: 'maxRuns',
      message: 'Enter a whole number, 1 or more (or nothing for no limit).',
    });
  const policy = policyBody(form, problems);
  const settings = alertsAndRetentionBody(form, problems);
  if (problems.length > 0) {
    return {
      error: {
        message: problems.map((p) => p.message).join('; '),
        field: problems[0]!.field,
        problems,
      },
    };
  }
  return {
    body: {
      appName: form.appName,
      name: form.name,
      author: form.author,
      alarmEmail: form.alarmEmail,
      alarmWebhook: form.alarmWebhook,
      scheduleType: form.scheduleType,
      scheduleConf: form.scheduleType === 'NONE' ? '' : form.scheduleConf.trim(),
      timeZone: form.timeZone.trim(),
      misfireStrategy: form.misfireStrategy,
      // The server checks the instants (and every bound together): an empty one is no bound.
      startAt: form.startAt.trim() === '' ? null : form.startAt.trim(),
      endAt: form.endAt.trim() === '' ? null : form.endAt.trim(),
      maxRuns: maxRuns === '' ? null : Number(maxRuns),
      jitterSeconds: Number(jitter),
      calendars: { only: [...form.calendars.only], exclude: [...form.calendars.exclude] },
      executorRouteStrategy: form.executorRouteStrategy,
      executorHandler: form.executorHandler,
      executorParam: form.executorParam,
      executorBlockStrategy: form.executorBlockStrategy,
      executorTimeout: numbers.executorTimeout!,
      executorFailRetryCount: numbers.executorFailRetryCount!,
      retryBackoffSeconds: numbers.retryBackoffSeconds!,
      glueType: form.glueType,
      glueSource: form.glueSource,
      childJobIds: [...form.childJobIds],
      triggerStatus: form.triggerStatus,
      ...policy,
      ...settings,
    },
  };
}

/** Whole numbers within [min, max] as typed, or undefined (a problem noted for `field`). */
function wholeIn(
  raw: string,
  field: FormField,
  min: number,
  max: number,
  problems: { field: string; message: string }[],
): number | undefined {
  const text = raw.trim();
  if (/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max) return Number(text);
  problems.push({ field, message: `Enter a whole number from ${min} to ${max}.` });
  return undefined;
}

/** The failure policy and the deadline as a body's fields (null: none), problems noted on the way. */
function policyBody(
  form: JobForm,
  problems: { field: string; message: string }[],
): Required<Pick<JobBody, 'failurePolicy' | 'deadline'>> {
  let failurePolicy: NonNullable<JobBody['failurePolicy']> | null = null;
  if (form.pauseMode !== 'off') {
    const failures = wholeIn(form.pauseFailures, 'pauseFailures', 1, 100, problems);
    const ofLast =
      form.pauseMode === 'ofLast' ? wholeIn(form.pauseOfLast, 'pauseOfLast', 1, 100, problems) : undefined;
    if (failures !== undefined && ofLast !== undefined && failures > ofLast)
      problems.push({
        field: 'pauseFailures',
        message: `${failures} failures cannot be more than the last ${ofLast}.`,
      });
    const resume =
      form.resumeAfterSeconds.trim() === ''
        ? undefined
        : wholeIn(form.resumeAfterSeconds, 'resumeAfterSeconds', 60, 30 * 24 * 3600, problems);
    failurePolicy = {
      pauseAfter:
        form.pauseMode === 'consecutive'
          ? { consecutive: failures ?? 0 }
          : { failures: failures ?? 0, ofLast: ofLast ?? 0 },
      ...(resume === undefined ? {} : { resumeAfterSeconds: resume }),
    };
  }
  let deadline: NonNullable<JobBody['deadline']> | null = null;
  const time = form.deadlineTime.trim();
  if (time !== '') {
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time))
      problems.push({ field: 'deadlineTime', message: 'Enter a local time HH:MM, 00:00 to 23:59.' });
    if (form.deadlineZone.trim() === '')
      problems.push({ field: 'deadlineZone', message: 'Enter the time zone the deadline is read in.' });
    // Absent days is daily: only weekdays is sent, so an unchanged daily deadline compares equal.
    deadline = {
      time,
      timeZone: form.deadlineZone.trim(),
      ...(form.deadlineDays === 'weekdays' ? { days: 'weekdays' as const } : {}),
    };
  }
  return { failurePolicy, deadline };
}

/** The alert channels and the log retention as a body's fields (null: the default), problems noted on the way. */
function alertsAndRetentionBody(
  form: JobForm,
  problems: { field: string; message: string }[],
): Required<Pick<JobBody, 'alertChannels' | 'logRetentionDays' | 'keepSuccessfulRuns'>> {
  let alertChannels: string[] | null = null;
  if (form.alertRouting === 'none') alertChannels = [];
  if (form.alertRouting === 'chosen') {
    alertChannels = [...new Set(form.alertChannels)];
    if (alertChannels.length === 0)
      problems.push({ field: 'alertChannels', message: 'Tick at least one channel, or pick None.' });
    if (alertChannels.length > MAX_ALERT_CHANNELS)
      problems.push({
        field: 'alertChannels',
        message: `Tick at most ${MAX_ALERT_CHANNELS} channels (${alertChannels.length} ticked).`,
      });
  }
  const days = form.logRetentionDays.trim();
  const logRetentionDays =
    days === ''
      ? null
      : (wholeIn(days, 'logRetentionDays', LOG_RETENTION_DAYS.min, LOG_RETENTION_DAYS.max, problems) ?? null);
  const percent = form.keepSuccessfulRuns.trim();
  let keepSuccessfulRuns: number | null = null;
  if (percent !== '') {
    if (/^\d+(\.\d+)?$/.test(percent) && Number(percent) > 0 && Number(percent) <= 100) {
      keepSuccessfulRuns = scaleDecimal(percent, -2);
    } else {
      problems.push({
        field: 'keepSuccessfulRuns',
        message: 'Enter a percentage more than 0 and at most 100 (empty: every success).',
      });
    }
  }
  return { alertChannels, logRetentionDays, keepSuccessfulRuns };
}

/**
 * A create body: every field; the GLUE source only for a GLUE job (a BEAN job's empty source is
 * the default, and sending it could need the glue grant).
 */
export function createBody(form: JobForm): { body: JobCreate } | { error: ShownError } {
  const made = bodyOf(form);
  if ('error' in made) return made;
  const { glueSource, ...rest } = made.body;
  return { body: form.glueType === 'BEAN' ? rest : { ...rest, glueSource } };
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const x = [...a].sort();
    const y = [...b].sort();
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  // The calendars: the same lists, in any order.
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/**
 * An update body: only the fields that differ from the job as read, with its version (the server
 * refuses, 409, when someone changed it since). `changed` lists those fields (empty: nothing to send).
 */
export function updateBody(
  job: Job,
  form: JobForm,
): { body: JobUpdate & { version: number }; changed: string[] } | { error: ShownError } {
  const made = bodyOf(form);
  if ('error' in made) return made;
  const body: Record<string, unknown> = {};
  const read = {
    ...job,
    deadline: job.deadline && withoutDailyDays(job.deadline),
    // A job read without channels routes to its group's (as null does).
    alertChannels: job.alertChannels ?? null,
    // The share as the form reads and sends it back, so an untouched one compares equal.
    keepSuccessfulRuns:
      job.keepSuccessfulRuns === null ? null : scaleDecimal(percentText(job.keepSuccessfulRuns), -2),
  };
  for (const [key, value] of Object.entries(made.body)) {
    if (!same(value, (read as unknown as Record<string, unknown>)[key])) body[key] = value;
  }
  return { body: { ...(body as JobUpdate), version: job.version }, changed: Object.keys(body) };
}

/** A deadline with `days: 'daily'` written as absent (the same deadline). */
function withoutDailyDays(deadline: NonNullable<Job['deadline']>): NonNullable<Job['deadline']> {
  const { days, ...rest } = deadline;
  return days === 'weekdays' ? deadline : rest;
}

/** The names a problem may give a field (XXL-JOB's aliases, and JSON pointers) for each form field. */
const ALIASES: Partial<Record<FormField, readonly string[]>> = {
  appName: ['jobGroup'],
  name: ['jobDesc'],
  childJobIds: ['childJobId'],
  calendars: ['calendars.only', 'calendars.exclude'],
  pauseMode: ['failurePolicy', 'failurePolicy.pauseAfter'],
  pauseFailures: ['failurePolicy.pauseAfter.consecutive', 'failurePolicy.pauseAfter.failures'],
  pauseOfLast: ['failurePolicy.pauseAfter.ofLast'],
  resumeAfterSeconds: ['failurePolicy.resumeAfterSeconds'],
  deadlineTime: ['deadline', 'deadline.time'],
  deadlineZone: ['deadline.timeZone'],
  deadlineDays: ['deadline.days'],
};

/** The form field a problem's field names (`body.scheduleConf`, `/jobGroup`, `childJobIds/0`), if any. */
export function formFieldOf(problemField: string | undefined): FormField | undefined {
  if (!problemField) return undefined;
  const path = problemField
    .replace(/^\/?(body[./])?/, '')
    .replaceAll('/', '.')
    .trim();
  // A nested field first (failurePolicy.pauseAfter.ofLast), then the first part of the path.
  for (const [field, aliases] of Object.entries(ALIASES) as [FormField, readonly string[]][]) {
    if (aliases.includes(path)) return field;
  }
  const name = path.split(/[.[]/)[0]!;
  if (name in FIELDS) return name as FormField;
  for (const [field, aliases] of Object.entries(ALIASES) as [FormField, readonly string[]][]) {
    if (aliases.includes(name)) return field;
  }
  return undefined;
}

/** The messages of an error for one form field (`problemsFor` it and each of its aliases). */
export function fieldProblems(error: ShownError | undefined, field: FormField): string[] {
  const names = [field, ...(ALIASES[field] ?? [])];
  return [...new Set(names.flatMap((name) => problemsFor(error, name)))];
}

/** Every problem of an error, each with the form field it is about (for the summary at the top). */
export function summaryOf(error: ShownError): { field: FormField | undefined; message: string }[] {
  if (error.problems.length === 0) return [{ field: formFieldOf(error.field), message: error.message }];
  return error.problems.map((p) => ({ field: formFieldOf(p.field), message: p.message }));
}
