import type { Job } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import type { ShownError } from '../lib/api';
import {
  createBody,
  FIELDS,
  fieldProblems,
  formFieldOf,
  formFromJob,
  newJobForm,
  summaryOf,
  updateBody,
} from './job-form';

const JOB: Job = {
  id: 7,
  appName: 'my-app',
  name: 'Nightly report',
  author: 'ops',
  alarmEmail: '',
  alarmWebhook: '',
  scheduleType: 'CRON',
  scheduleConf: '0 0 2 * * ?',
  timeZone: 'Europe/Berlin',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: '2030-12-31T00:00:00.000Z',
  maxRuns: 10,
  jitterSeconds: 0,
  calendars: { only: ['cn-workdays', 'de-workdays'], exclude: [] },
  runsRemaining: 4,
  scheduleEnded: null,
  failurePolicy: null,
  deadline: null,
  pausedBy: null,
  occurrenceExceptions: [],
  logRetentionDays: null,
  keepSuccessfulRuns: null,
  executorRouteStrategy: 'FIRST',
  executorHandler: 'reportHandler',
  executorParam: '',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  executorFailRetryCount: 2,
  retryBackoffSeconds: 10,
  glueType: 'BEAN',
  glueSource: '',
  childJobIds: [8, 9],
  triggerStatus: 'RUNNING',
  triggerNextTime: '2030-01-02T01:00:00.000Z',
  triggerLastTime: null,
  glueUpdatetime: '2030-01-01T00:00:00.000Z',
  scheduleRevision: 1,
  version: 3,
  workflowId: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
};

describe('createBody', () => {
  it('sends every field with numbers as numbers, without a BEAN job’s source', () => {
    const form = {
      ...newJobForm({ appName: 'my-app', author: 'ana', timeZone: 'Europe/Berlin' }),
      name: 'Every 10 s',
      scheduleConf: ' 0/10 * * * * ? ',
      executorHandler: 'demoJobHandler',
      executorTimeout: '30',
      childJobIds: [3],
    };
    const made = createBody(form);
    expect(made).toEqual({
      body: {
        appName: 'my-app',
        name: 'Every 10 s',
        author: 'ana',
        alarmEmail: '',
        alarmWebhook: '',
        scheduleType: 'CRON',
        scheduleConf: '0/10 * * * * ?',
        timeZone: 'Europe/Berlin',
        misfireStrategy: 'DO_NOTHING',
        startAt: null,
        endAt: null,
        maxRuns: null,
        jitterSeconds: 0,
        calendars: { only: [], exclude: [] },
        executorRouteStrategy: 'FIRST',
        executorHandler: 'demoJobHandler',
        executorParam: '',
        executorBlockStrategy: 'SERIAL_EXECUTION',
        executorTimeout: 30,
        executorFailRetryCount: 0,
        retryBackoffSeconds: 10,
        glueType: 'BEAN',
        childJobIds: [3],
        triggerStatus: 'STOPPED',
        failurePolicy: null,
        deadline: null,
        alertChannels: null,
        logRetentionDays: null,
        keepSuccessfulRuns: null,
      },
    });
  });

  it('sends a GLUE job’s source, and no schedule for NONE', () => {
    const made = createBody({
      ...newJobForm(),
      glueType: 'GLUE_SHELL',
      glueSource: 'echo hi',
      scheduleType: 'NONE',
      scheduleConf: 'left over',
    });
    expect('body' in made && made.body).toMatchObject({ glueSource: 'echo hi', scheduleConf: '' });
  });

  it('refuses numbers that are not whole and >= 0, naming each field', () => {
    const made = createBody({ ...newJobForm(), executorTimeout: '-1', retryBackoffSeconds: '2.5' });
    expect('error' in made && made.error.problems).toEqual([
      { field: 'executorTimeout', message: 'Enter a whole number, 0 or more.' },
      { field: 'retryBackoffSeconds', message: 'Enter a whole number, 0 or more.' },
    ]);
  });
});

describe('the bounds and the jitter', () => {
  it('sends empty bounds as null and typed ones as given, and lists every local problem at once', () => {
    const made = createBody({
      ...newJobForm(),
      startAt: ' 2030-01-01T00:00:00Z ',
      maxRuns: '3',
      jitterSeconds: '30',
    });
    expect('body' in made && made.body).toMatchObject({
      startAt: '2030-01-01T00:00:00Z',
      endAt: null,
      maxRuns: 3,
      jitterSeconds: 30,
    });
    const bad = createBody({ ...newJobForm(), maxRuns: '0', jitterSeconds: '-1', executorTimeout: 'x' });
    expect('error' in bad && bad.error.problems.map((p) => p.field)).toEqual([
      'executorTimeout',
      'jitterSeconds',
      'maxRuns',
    ]);
  });

  it('sends a cleared bound as null in an update, and an unchanged one not at all', () => {
    expect(updateBody(JOB, { ...formFromJob(JOB), endAt: '', maxRuns: '10' })).toEqual({
      body: { endAt: null, version: 3 },
      changed: ['endAt'],
    });
  });
});

describe('the failure policy and the deadline', () => {
  it('sends N in a row, or N of the last M with a resume, and a deadline with its days', () => {
    const form = {
      ...newJobForm({ timeZone: 'Europe/Berlin' }),
      pauseMode: 'ofLast' as const,
      pauseFailures: '3',
      pauseOfLast: '5',
      resumeAfterSeconds: '600',
      deadlineTime: '06:00',
      deadlineDays: 'weekdays' as const,
    };
    expect('body' in createBody(form) && createBody(form)).toMatchObject({
      body: {
        failurePolicy: { pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 },
        deadline: { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' },
      },
    });
    const inARow = createBody({
      ...form,
      pauseMode: 'consecutive',
      resumeAfterSeconds: '',
      deadlineTime: '',
    });
    expect('body' in inARow && inARow.body).toMatchObject({
      failurePolicy: { pauseAfter: { consecutive: 3 } },
      deadline: null,
    });
    expect('body' in inARow && inARow.body.failurePolicy).not.toHaveProperty('resumeAfterSeconds');
  });

  it('lists every local problem at once: N above M, a short resume, a bad HH:MM', () => {
    const made = createBody({
      ...newJobForm(),
      pauseMode: 'ofLast',
      pauseFailures: '6',
      pauseOfLast: '5',
      resumeAfterSeconds: '30',
      deadlineTime: '6:00',
    });
    expect('error' in made && made.error.problems.map((p) => p.field)).toEqual([
      'pauseFailures',
      'resumeAfterSeconds',
      'deadlineTime',
    ]);
  });

  it('reads a job’s policy and deadline into the form, and sends neither when unchanged', () => {
    const job: Job = {
      ...JOB,
      failurePolicy: { pauseAfter: { consecutive: 4 }, resumeAfterSeconds: 120 },
      deadline: { time: '05:30', timeZone: 'Asia/Shanghai', days: 'daily' },
    };
    const form = formFromJob(job);
    expect(form).toMatchObject({
      pauseMode: 'consecutive',
      pauseFailures: '4',
      resumeAfterSeconds: '120',
      deadlineTime: '05:30',
      deadlineZone: 'Asia/Shanghai',
      deadlineDays: 'daily',
    });
    expect(updateBody(job, form)).toEqual({ body: { version: 3 }, changed: [] });
    expect(updateBody(job, { ...form, pauseMode: 'off', deadlineTime: '' })).toEqual({
      body: { failurePolicy: null, deadline: null, version: 3 },
      changed: ['failurePolicy', 'deadline'],
    });
  });

  it('puts the server’s nested problems next to their fields', () => {
    const refused: ShownError = {
      status: 400,
      message: 'two problems',
      problems: [
        { field: 'failurePolicy.pauseAfter.failures', message: 'failures (6) must not exceed ofLast (5)' },
        { field: 'body.deadline.timeZone', message: 'deadline.timeZone must be an IANA time zone' },
        { field: 'failurePolicy.pauseAfter.ofLast', message: 'ofLast must be a whole number' },
      ],
    };
    expect(fieldProblems(refused, 'pauseFailures')).toEqual(['failures (6) must not exceed ofLast (5)']);
    expect(fieldProblems(refused, 'deadlineZone')).toEqual(['deadline.timeZone must be an IANA time zone']);
    expect(summaryOf(refused).map((p) => p.field)).toEqual(['pauseFailures', 'deadlineZone', 'pauseOfLast']);
    expect(formFieldOf('/failurePolicy/resumeAfterSeconds')).toBe('resumeAfterSeconds');
  });
});

describe('the alert channels and the log retention', () => {
  it('reads a job’s routing and retention into the form: absent or null is the group’s, [] none', () => {
    expect(formFromJob(JOB)).toMatchObject({
      alertRouting: 'group',
      alertChannels: [],
      logRetentionDays: '',
      keepSuccessfulRuns: '',
    });
    expect(formFromJob({ ...JOB, alertChannels: null }).alertRouting).toBe('group');
    expect(formFromJob({ ...JOB, alertChannels: [] }).alertRouting).toBe('none');
    expect(
      formFromJob({
        ...JOB,
        alertChannels: ['ch-ops', 'ch-chat'],
        logRetentionDays: 90,
        keepSuccessfulRuns: 0.1,
      }),
    ).toMatchObject({
      alertRouting: 'chosen',
      alertChannels: ['ch-ops', 'ch-chat'],
      logRetentionDays: '90',
      keepSuccessfulRuns: '10',
    });
  });

  it('keeps what the user did not touch: an unchanged job (channels absent, any share) sends only its version', () => {
    for (const job of [
      JOB,
      { ...JOB, alertChannels: null },
      { ...JOB, alertChannels: [] },
      { ...JOB, alertChannels: ['ch-ops', 'ch-chat'], logRetentionDays: 90, keepSuccessfulRuns: 0.1 },
      { ...JOB, keepSuccessfulRuns: 0.07 },
      { ...JOB, keepSuccessfulRuns: 0.123 },
      { ...JOB, keepSuccessfulRuns: 1e-7 },
    ] satisfies Job[]) {
      expect(updateBody(job, formFromJob(job)), JSON.stringify(job.keepSuccessfulRuns)).toEqual({
        body: { version: 3 },
        changed: [],
      });
    }
    // The channels ticked are kept while another routing is picked; only the routing counts.
    const chosen = { ...JOB, alertChannels: ['ch-ops'] };
    expect(updateBody(chosen, { ...formFromJob(chosen), alertRouting: 'group' })).toEqual({
      body: { alertChannels: null, version: 3 },
      changed: ['alertChannels'],
    });
  });

  it('sends the group’s default as null, none as [], the channels ticked; the retention as numbers', () => {
    const form = newJobForm();
    const body = (changes: Partial<typeof form>) => {
      const made = createBody({ ...form, ...changes });
      if ('error' in made) throw new Error(made.error.message);
      return made.body;
    };
    expect(body({}).alertChannels).toBeNull();
    expect(body({ alertRouting: 'none', alertChannels: ['ch-ops'] }).alertChannels).toEqual([]);
    expect(body({ alertRouting: 'chosen', alertChannels: ['ch-ops', 'ch-chat'] }).alertChannels).toEqual([
      'ch-ops',
      'ch-chat',
    ]);
    expect(body({ logRetentionDays: ' 90 ', keepSuccessfulRuns: '10' })).toMatchObject({
      logRetentionDays: 90,
      keepSuccessfulRuns: 0.1,
    });
    expect(body({ keepSuccessfulRuns: '0.5' }).keepSuccessfulRuns).toBe(0.005);
    expect(body({ keepSuccessfulRuns: '100' }).keepSuccessfulRuns).toBe(1);
    expect(updateBody(JOB, { ...formFromJob(JOB), logRetentionDays: '7', keepSuccessfulRuns: '25' })).toEqual(
      {
        body: { logRetentionDays: 7, keepSuccessfulRuns: 0.25, version: 3 },
        changed: ['logRetentionDays', 'keepSuccessfulRuns'],
      },
    );
  });

  it('checks as the API does and names every problem at once', () => {
    const made = createBody({
      ...newJobForm(),
      alertRouting: 'chosen',
      alertChannels: [],
      logRetentionDays: '3651',
      keepSuccessfulRuns: '0',
    });
    expect('error' in made && made.error.problems).toEqual([
      { field: 'alertChannels', message: 'Tick at least one channel, or pick None.' },
      { field: 'logRetentionDays', message: 'Enter a whole number from 1 to 3650.' },
      {
        field: 'keepSuccessfulRuns',
        message: 'Enter a percentage more than 0 and at most 100 (empty: every success).',
      },
    ]);
    const tooMany = createBody({
      ...newJobForm(),
      alertRouting: 'chosen',
      alertChannels: Array.from({ length: 11 }, (_, i) => `ch-${i}`),
    });
    expect('error' in tooMany && tooMany.error.problems).toEqual([
      { field: 'alertChannels', message: 'Tick at most 10 channels (11 ticked).' },
    ]);
    for (const [days, percent] of [
      ['0', '101'],
      ['1.5', '-5'],
      ['ninety', 'ten'],
    ]) {
      const bad = createBody({ ...newJobForm(), logRetentionDays: days!, keepSuccessfulRuns: percent! });
      expect('error' in bad && bad.error.problems.map((p) => p.field), `${days} / ${percent}`).toEqual([
        'logRetentionDays',
        'keepSuccessfulRuns',
      ]);
    }
  });

  it('puts the server’s problems next to the channels and the retention', () => {
    const refused: ShownError = {
      status: 400,
      message: 'two problems',
      problems: [
        { field: 'alertChannels', message: 'alertChannels[1] must be an alert channel id; got ""' },
        { field: 'body.logRetentionDays', message: 'logRetentionDays must be a whole number of days' },
      ],
    };
    expect(fieldProblems(refused, 'alertChannels')).toEqual([
      'alertChannels[1] must be an alert channel id; got ""',
    ]);
    expect(summaryOf(refused).map((p) => p.field)).toEqual(['alertChannels', 'logRetentionDays']);
    expect(formFieldOf('/alertChannels/1')).toBe('alertChannels');
    expect(formFieldOf('keepSuccessfulRuns')).toBe('keepSuccessfulRuns');
  });
});

describe('updateBody', () => {
  it('sends nothing but the version when nothing changed', () => {
    expect(updateBody(JOB, formFromJob(JOB))).toEqual({ body: { version: 3 }, changed: [] });
  });

  it('sends only the changed fields (child jobs compared as a set)', () => {
    const form = {
      ...formFromJob(JOB),
      scheduleConf: '0 30 2 * * ?',
      executorFailRetryCount: '3',
      childJobIds: [9, 8],
    };
    expect(updateBody(JOB, form)).toEqual({
      body: { scheduleConf: '0 30 2 * * ?', executorFailRetryCount: 3, version: 3 },
      changed: ['scheduleConf', 'executorFailRetryCount'],
    });
  });

  it('sends the calendars when a list changed (compared as sets), and not otherwise', () => {
    const reordered = {
      ...formFromJob(JOB),
      calendars: { only: ['de-workdays', 'cn-workdays'], exclude: [] },
    };
    expect(updateBody(JOB, reordered)).toEqual({ body: { version: 3 }, changed: [] });
    const picked = { ...formFromJob(JOB), calendars: { only: ['cn-workdays'], exclude: ['cn-holidays'] } };
    expect(updateBody(JOB, picked)).toEqual({
      body: { calendars: { only: ['cn-workdays'], exclude: ['cn-holidays'] }, version: 3 },
      changed: ['calendars'],
    });
  });

  it('puts a calendar list’s problem next to the calendars', () => {
    const refused: ShownError = {
      status: 400,
      message: 'missing',
      field: 'calendars.only',
      problems: [
        { field: 'calendars.only', message: 'calendars.only names calendars that do not exist: nope' },
      ],
    };
    expect(fieldProblems(refused, 'calendars')).toEqual([
      'calendars.only names calendars that do not exist: nope',
    ]);
    expect(summaryOf(refused)).toEqual([
      { field: 'calendars', message: 'calendars.only names calendars that do not exist: nope' },
    ]);
  });

  it('sends a removed child job', () => {
    const made = updateBody(JOB, { ...formFromJob(JOB), childJobIds: [8] });
    expect(made).toEqual({ body: { childJobIds: [8], version: 3 }, changed: ['childJobIds'] });
  });
});

describe('problems by field', () => {
  const error: ShownError = {
    status: 400,
    message: 'two problems',
    field: 'scheduleConf',
    problems: [
      { field: 'scheduleConf', message: 'scheduleConf: Invalid cron expression' },
      { field: 'jobGroup', message: 'group nope does not exist' },
      { field: 'body', message: 'unknown field x' },
    ],
  };

  it('finds a field by its name, its XXL-JOB alias and pointer forms', () => {
    expect(formFieldOf('scheduleConf')).toBe('scheduleConf');
    expect(formFieldOf('body.timeZone')).toBe('timeZone');
    expect(formFieldOf('/executorTimeout')).toBe('executorTimeout');
    expect(formFieldOf('childJobIds/0')).toBe('childJobIds');
    expect(formFieldOf('childJobId')).toBe('childJobIds');
    expect(formFieldOf('jobDesc')).toBe('name');
    expect(formFieldOf('body')).toBeUndefined();
    expect(formFieldOf(undefined)).toBeUndefined();
  });

  it('puts each problem next to its field and all of them in the summary', () => {
    expect(fieldProblems(error, 'scheduleConf')).toEqual(['scheduleConf: Invalid cron expression']);
    expect(fieldProblems(error, 'appName')).toEqual(['group nope does not exist']);
    expect(fieldProblems(error, 'name')).toEqual([]);
    expect(fieldProblems(undefined, 'name')).toEqual([]);
    expect(summaryOf(error)).toEqual([
      { field: 'scheduleConf', message: 'scheduleConf: Invalid cron expression' },
      { field: 'appName', message: 'group nope does not exist' },
      { field: undefined, message: 'unknown field x' },
    ]);
  });

  it('summarizes an error without problems (403, 409) as its message', () => {
    expect(summaryOf({ status: 409, message: 'the job changed', problems: [] })).toEqual([
      { field: undefined, message: 'the job changed' },
    ]);
  });

  it('has a label and help for every form field but the schedule (its help is by type)', () => {
    for (const [field, meta] of Object.entries(FIELDS)) {
      expect(meta.label, field).not.toBe('');
      if (field !== 'scheduleConf') expect(meta.help, field).not.toBe('');
    }
  });
});
