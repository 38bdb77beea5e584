import { describe, expect, it } from 'vitest';
import { problemsOf, ValidationError } from '../common/errors.js';
import {
  findChildCycle,
  firstFireForStart,
  JOB_DEFAULTS,
  type JobSpec,
  parseGroupSpec,
  parseJobSpec,
  scheduleChanged,
} from './job-validation.js';

const minimal = {
  appName: 'sample-app',
  name: 'nightly report',
  author: 'ops',
  executorHandler: 'demoJobHandler',
};

/** The ValidationError `fn` throws (fails the test when it throws nothing or something else). */
function validationError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

function expectFieldError(fn: () => unknown, field: string, message?: RegExp): void {
  const err = validationError(fn);
  expect(err.field).toBe(field);
  expect(err.message).toContain(field);
  if (message) expect(err.message).toMatch(message);
}

describe('parseJobSpec', () => {
  it('refuses a schedule text without its scheduleType instead of making a NONE job that keeps it', () => {
    expectFieldError(
      () => parseJobSpec({ ...minimal, scheduleConf: '0 0/5 * * * ?' }),
      'scheduleType',
      /scheduleType is required when scheduleConf is given.*CRON/,
    );
    // An edit of a scheduled job may change the text alone: the job's type applies.
    const cron = parseJobSpec({ ...minimal, scheduleType: 'CRON', scheduleConf: '0 0/5 * * * ?' });
    expect(parseJobSpec({ scheduleConf: '0 0/10 * * * ?' }, { base: cron })).toMatchObject({
      scheduleType: 'CRON',
      scheduleConf: '0 0/10 * * * ?',
    });
    // ...but not of a NONE job: that would be the same silent NONE.
    const none = parseJobSpec(minimal);
    expectFieldError(() => parseJobSpec({ scheduleConf: '30' }, { base: none }), 'scheduleType');
    // A NONE job stored with a schedule text (made before this rule) can still be edited in part.
    const older = { ...none, scheduleConf: '0 0/5 * * * ?' };
    expect(parseJobSpec({ childJobIds: [] }, { base: older })).toMatchObject({ scheduleType: 'NONE' });
    expect(parseJobSpec({ ...minimal, scheduleType: 'NONE', scheduleConf: '' }).scheduleType).toBe('NONE');
  });

  it("takes XXL-JOB's field names as pasted from its console or API: jobDesc, jobGroup, childJobId", () => {
    const { appName, name, ...rest } = minimal;
    expect(parseJobSpec({ ...rest, jobGroup: appName, jobDesc: name, childJobId: '3, 4,5' })).toEqual(
      parseJobSpec({ ...minimal, childJobIds: [3, 4, 5] }),
    );
    expect(parseJobSpec({ ...minimal, childJobId: '' }).childJobIds).toEqual([]);
    expectFieldError(() => parseJobSpec({ ...rest, jobGroup: 2, jobDesc: name }), 'jobGroup', /appName/);
    expectFieldError(() => parseJobSpec({ ...minimal, jobDesc: 'other' }), 'jobDesc', /name/);
    expectFieldError(() => parseJobSpec({ ...minimal, childJobId: '1,x' }), 'childJobId', /job ids/);
  });

  it('fills XXL-JOB defaults for fields not given', () => {
    expect(parseJobSpec(minimal)).toEqual({ ...JOB_DEFAULTS, ...minimal });
    expect(JOB_DEFAULTS).toMatchObject({
      scheduleType: 'NONE',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      executorRouteStrategy: 'FIRST',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      executorFailRetryCount: 0,
      retryBackoffSeconds: 10,
      glueType: 'BEAN',
      triggerStatus: 'STOPPED',
      alarmWebhook: '',
      childJobIds: [],
    });
  });

  it('accepts a fully specified job', () => {
    const full = {
      ...minimal,
      alarmEmail: 'a@example.com, b@example.org',
      alarmWebhook: 'https://hooks.example.com/x',
      scheduleType: 'CRON',
      scheduleConf: '0 0/5 * * * ?',
      timeZone: 'Asia/Shanghai',
      misfireStrategy: 'FIRE_ONCE_NOW',
      startAt: '2030-01-01T00:00:00Z',
      endAt: '2030-02-01T00:00:00+01:00',
      maxRuns: 10,
      jitterSeconds: 60,
      executorRouteStrategy: 'SHARDING_BROADCAST',
      executorParam: 'x=1',
      executorBlockStrategy: 'DISCARD_LATER',
      executorTimeout: 30,
      executorFailRetryCount: 2,
      retryBackoffSeconds: 0,
      glueType: 'GLUE_SHELL',
      glueSource: 'echo hi',
      childJobIds: [3, 4],
      triggerStatus: 'RUNNING',
    };
    expect(parseJobSpec(full)).toEqual({
      ...full,
      alarmEmail: 'a@example.com,b@example.org',
      startAt: Date.parse('2030-01-01T00:00:00Z'),
      endAt: Date.parse('2030-01-31T23:00:00Z'),
    });
  });

  it.each(['appName', 'name', 'author'])('requires %s when creating', (field) => {
    const { [field as keyof typeof minimal]: _, ...rest } = minimal;
    expectFieldError(() => parseJobSpec(rest), field, /required/);
  });

  it.each(['name', 'author'])('refuses a blank %s', (field) => {
    expectFieldError(() => parseJobSpec({ ...minimal, [field]: '   ' }), field, /required/);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [undefined, null, [], 'job', 3]) expectFieldError(() => parseJobSpec(body), 'body');
  });

  it('refuses an unknown field, naming it', () => {
    expectFieldError(
      () => parseJobSpec({ ...minimal, excutorHandler: 'x' }),
      'excutorHandler',
      /unknown field/,
    );
  });

  it('answers every problem of a body at once, each naming its field, none repeated by a later check', () => {
    const err = validationError(() =>
      parseJobSpec({
        name: '',
        author: 42,
        scheduleType: 'CRON',
        scheduleConf: 'bad cron',
        executorHandler: '',
        misfireStrategy: 'NOPE',
        executorTimeout: -3,
        excutorParam: 'typo',
        timeoutSeconds: 5,
      }),
    );
    expect(problemsOf(err).map((p) => p.field)).toEqual([
      'excutorParam',
      'timeoutSeconds',
      'author',
      'misfireStrategy',
      'executorTimeout',
      'appName',
      'name',
      'scheduleConf',
      'executorHandler',
    ]);
    expect(err.field).toBe('excutorParam');
    expect(err.message).toContain('unknown field "timeoutSeconds"');
    expect(err.message).toContain('name is required');
    expect(err.message).toContain('appName is required');
  });

  it('reads XXL-JOB’s names among the rest, and a glueType it cannot read makes no BEAN job of it', () => {
    const err = validationError(() =>
      parseJobSpec({
        jobGroup: 5,
        jobDesc: '',
        author: 'ops',
        glueType: 'GLUE_PYTHON3',
        glueSource: 'print(1)',
      }),
    );
    expect(problemsOf(err).map((p) => p.field)).toEqual(['jobGroup', 'glueType', 'name']);
    expect(err.message).not.toContain('appName is required');
    expect(err.message).not.toContain('executorHandler');
  });

  it('leaves out the schedule’s check when its type could not be read, and the jitter’s with it, not the bounds’', () => {
    const err = validationError(() =>
      parseJobSpec({
        ...minimal,
        scheduleType: 'WEEKLY',
        scheduleConf: '0 0 * * * ?',
        startAt: '2030-01-02T00:00:00Z',
        endAt: '2030-01-01T00:00:00Z',
        jitterSeconds: 3600,
      }),
    );
    expect(problemsOf(err).map((p) => p.field)).toEqual(['scheduleType', 'endAt']);
    // With a schedule that can be read, the jitter is judged too (an hourly cron: less than 3,600 s).
    const readable = validationError(() =>
      parseJobSpec({
        ...minimal,
        scheduleType: 'CRON',
        scheduleConf: '0 0 * * * ?',
        startAt: '2030-01-02T00:00:00Z',
        endAt: '2030-01-01T00:00:00Z',
        jitterSeconds: 3600,
      }),
    );
    expect(problemsOf(readable).map((p) => p.field)).toEqual(['endAt', 'jitterSeconds']);
  });

  it('ignores read-only fields a client sends back from GET', () => {
    const spec = parseJobSpec({ ...minimal, id: 9, version: 3, triggerNextTime: null, createdAt: 'x' });
    expect(spec).not.toHaveProperty('id');
    expect(spec).not.toHaveProperty('version');
  });

  it.each([
    ['scheduleType', 'HOURLY'],
    ['misfireStrategy', 'FIRE_ALL'],
    ['executorRouteStrategy', 'NEAREST'],
    ['executorBlockStrategy', 'CONCURRENT_EXECUTION'],
    ['glueType', 'GLUE_RUBY'],
    ['triggerStatus', 'PAUSED'],
  ])('refuses an unknown %s, listing the accepted values', (field, value) => {
    expectFieldError(() => parseJobSpec({ ...minimal, [field]: value }), field, /must be one of/);
  });

  it('refuses a bad cron expression', () => {
    expectFieldError(
      () => parseJobSpec({ ...minimal, scheduleType: 'CRON', scheduleConf: 'every day at noon' }),
      'scheduleConf',
    );
  });

  it.each(['0', '-5', '1.5', 'ten'])('refuses a FIX_RATE of %s seconds', (conf) => {
    expectFieldError(
      () => parseJobSpec({ ...minimal, scheduleType: 'FIX_RATE', scheduleConf: conf }),
      'scheduleConf',
    );
  });

  it('accepts a FIX_RATE of 1 second', () => {
    expect(parseJobSpec({ ...minimal, scheduleType: 'FIX_RATE', scheduleConf: '1' }).scheduleConf).toBe('1');
  });

  it('refuses a time zone that does not exist', () => {
    expectFieldError(
      () =>
        parseJobSpec({
          ...minimal,
          scheduleType: 'CRON',
          scheduleConf: '0 * * * * ?',
          timeZone: 'Mars/Olympus',
        }),
      'timeZone',
    );
  });

  it('requires executorHandler for a BEAN job', () => {
    expectFieldError(() => parseJobSpec({ ...minimal, executorHandler: '' }), 'executorHandler', /BEAN/);
  });

  it('does not require executorHandler for a GLUE job', () => {
    expect(parseJobSpec({ ...minimal, executorHandler: '', glueType: 'GLUE_PYTHON' }).glueType).toBe(
      'GLUE_PYTHON',
    );
  });

  it.each(['executorTimeout', 'executorFailRetryCount', 'retryBackoffSeconds'])(
    'refuses a negative %s',
    (field) => {
      expectFieldError(() => parseJobSpec({ ...minimal, [field]: -1 }), field, /between 0/);
    },
  );

  it.each([
    ['executorTimeout', 1.5],
    ['executorFailRetryCount', '3'],
    ['retryBackoffSeconds', null],
  ])('refuses a non-integer %s (%j)', (field, value) => {
    expectFieldError(() => parseJobSpec({ ...minimal, [field]: value }), field, /integer/);
  });

  it.each([
    ['name', 7],
    ['author', false],
    ['executorParam', {}],
  ])('refuses a %s that is not a string', (field, value) => {
    expectFieldError(() => parseJobSpec({ ...minimal, [field]: value }), field, /string/);
  });

  it('refuses an executorParam longer than 2048 characters', () => {
    expect(parseJobSpec({ ...minimal, executorParam: 'x'.repeat(2048) }).executorParam).toHaveLength(2048);
    expectFieldError(
      () => parseJobSpec({ ...minimal, executorParam: 'x'.repeat(2049) }),
      'executorParam',
      /2048/,
    );
  });

  it.each([[[1, 'two']], ['1,2'], [[0]], [[1.5]], [{ 0: 1 }]])('refuses childJobIds %j', (value) => {
    expectFieldError(() => parseJobSpec({ ...minimal, childJobIds: value }), 'childJobIds');
  });

  it('refuses a child listed twice', () => {
    expectFieldError(() => parseJobSpec({ ...minimal, childJobIds: [2, 2] }), 'childJobIds', /twice/);
  });

  it("refuses the job's own id among its children", () => {
    expectFieldError(
      () => parseJobSpec({ ...minimal, childJobIds: [5, 7] }, { id: 7 }),
      'childJobIds',
      /own id/,
    );
  });

  it.each(['ops', 'a@b', 'a@example.com;b@example.com', 'a@example.com,,b@example.com'])(
    'refuses alarmEmail %j',
    (alarmEmail) => {
      expectFieldError(() => parseJobSpec({ ...minimal, alarmEmail }), 'alarmEmail', /e-mail/);
    },
  );

  it.each(['ftp://example.com/hook', 'hooks.example.com', 'javascript:alert(1)'])(
    'refuses alarmWebhook %j',
    (alarmWebhook) => {
      expectFieldError(() => parseJobSpec({ ...minimal, alarmWebhook }), 'alarmWebhook', /http\(s\)/);
    },
  );

  it('merges an update over the current job and checks the result as a whole', () => {
    const base: JobSpec = parseJobSpec(minimal);
    expect(parseJobSpec({ name: 'renamed' }, { base, id: 1 })).toEqual({ ...base, name: 'renamed' });
    expectFieldError(() => parseJobSpec({ executorHandler: '' }, { base, id: 1 }), 'executorHandler');
    expectFieldError(() => parseJobSpec({ scheduleType: 'CRON' }, { base, id: 1 }), 'scheduleConf');
  });
});

describe('firstFireForStart', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('refuses to start a NONE schedule', () => {
    expectFieldError(
      () => firstFireForStart({ scheduleType: 'NONE', scheduleConf: '', timeZone: 'UTC' }, now),
      'scheduleType',
      /NONE cannot be started/,
    );
  });

  it('refuses to start a schedule that never fires after now', () => {
    const once = { scheduleType: 'ONCE', scheduleConf: '2020-01-01T00:00:00Z', timeZone: 'UTC' } as const;
    expectFieldError(() => firstFireForStart(once, now), 'scheduleConf', /never fires after now/);
  });

  it('plans the first fire after now + 5 s', () => {
    const first = firstFireForStart(
      { scheduleType: 'CRON', scheduleConf: '* * * * * ?', timeZone: 'UTC' },
      now,
    );
    expect(first).toBeGreaterThan(now + 5_000);
    expect(first).toBeLessThanOrEqual(now + 7_000);
  });
});

describe('scheduleChanged', () => {
  it('sees a change of type, conf or zone', () => {
    const a = { scheduleType: 'CRON', scheduleConf: '0 * * * * ?', timeZone: 'UTC' } as const;
    expect(scheduleChanged(a, { ...a })).toBe(false);
    expect(scheduleChanged(a, { ...a, timeZone: 'Europe/Paris' })).toBe(true);
    expect(scheduleChanged(a, { ...a, scheduleConf: '1 * * * * ?' })).toBe(true);
  });
});

describe('findChildCycle', () => {
  const graph = (edges: Record<number, number[]>) => async (ids: number[]) =>
    new Map(ids.filter((id) => edges[id]).map((id) => [id, edges[id] ?? []]));

  it('finds A → B → A', async () => {
    expect(await findChildCycle(1, [2], graph({ 2: [1] }))).toEqual([1, 2, 1]);
  });

  it('finds a longer cycle and reports its path', async () => {
    expect(await findChildCycle(1, [2, 5], graph({ 2: [3], 3: [4], 4: [1], 5: [] }))).toEqual([
      1, 2, 3, 4, 1,
    ]);
  });

  it('accepts a diamond (shared descendants are not a cycle)', async () => {
    expect(await findChildCycle(1, [2, 3], graph({ 2: [4], 3: [4], 4: [] }))).toBeUndefined();
  });

  it('terminates on a cycle that does not pass through the job', async () => {
    expect(await findChildCycle(1, [2], graph({ 2: [3], 3: [2] }))).toBeUndefined();
  });

  it('treats the job as its own child as a cycle', async () => {
    expect(await findChildCycle(1, [1], graph({}))).toEqual([1, 1]);
  });
});

describe('parseGroupSpec', () => {
  const manual = {
    appName: 'sample-app',
    title: 'Sample',
    addressType: 'MANUAL',
    addressList: ['http://10.0.0.1:9999'],
  };

  it('accepts a MANUAL group and adds the trailing slash executor paths are appended to', () => {
    expect(parseGroupSpec(manual)).toEqual({ ...manual, addressList: ['http://10.0.0.1:9999/'] });
  });

  it("ignores the online addresses an AUTO group's view lists when the group is sent back, but refuses a list on create", () => {
    const auto = parseGroupSpec({ appName: 'auto-app', title: 'Auto', addressType: 'AUTO' });
    expect(parseGroupSpec({ ...auto, addressList: ['http://10.0.0.9:9999/'] }, auto).addressList).toEqual([]);
    expectFieldError(
      () => parseGroupSpec({ ...auto, addressList: ['http://10.0.0.9:9999/'] }),
      'addressList',
      /AUTO/,
    );
  });

  it('answers every problem of a group body at once, none repeated by a later check', () => {
    const err = validationError(() =>
      parseGroupSpec({
        appName: 'a b',
        title: '   ',
        addressType: 'SOMETIMES',
        addressList: 7,
        colour: 'red',
      }),
    );
    expect(problemsOf(err).map((p) => p.field)).toEqual([
      'colour',
      'appName',
      'addressType',
      'addressList',
      'title',
    ]);
    const missing = validationError(() => parseGroupSpec({ addressType: 'MANUAL' }));
    expect(problemsOf(missing).map((p) => p.message)).toEqual([
      'appName is required',
      'title is required',
      'addressList must list at least one http(s) URL for a MANUAL group',
    ]);
  });

  it("takes addressList as XXL-JOB's comma-separated string too", () => {
    expect(parseGroupSpec({ ...manual, addressList: 'http://a:1, http://b:2/' }).addressList).toEqual([
      'http://a:1/',
      'http://b:2/',
    ]);
  });

  it('accepts lambda:<function> addresses in a MANUAL group, as they are, beside http(s) ones', () => {
    const arn = 'lambda:arn:aws:lambda:us-east-1:123456789012:function:report-builder';
    expect(
      parseGroupSpec({ ...manual, addressList: [arn, 'lambda:fn_2', 'http://h:1'] }).addressList,
    ).toEqual([arn, 'lambda:fn_2', 'http://h:1/']);
    expectFieldError(() => parseGroupSpec({ ...manual, addressList: ['lambda:'] }), 'addressList', /lambda/);
    expectFieldError(
      () => parseGroupSpec({ ...manual, addressList: ['lambda:a b'] }),
      'addressList',
      /lambda/,
    );
  });

  it('accepts an AUTO group with no list', () => {
    expect(parseGroupSpec({ appName: 'auto.app_1', title: 'Auto', addressType: 'AUTO' })).toEqual({
      appName: 'auto.app_1',
      title: 'Auto',
      addressType: 'AUTO',
      addressList: [],
    });
  });

  it.each(['abc', 'x'.repeat(65), 'has space', 'ünïcode', 'a/b/c'])('refuses appName %j', (appName) => {
    expectFieldError(() => parseGroupSpec({ ...manual, appName }), 'appName', /4-64/);
  });

  it('accepts appName of 4 and of 64 characters', () => {
    expect(parseGroupSpec({ ...manual, appName: 'abcd' }).appName).toBe('abcd');
    expect(parseGroupSpec({ ...manual, appName: 'a'.repeat(64) }).appName).toHaveLength(64);
  });

  it.each(['appName', 'title', 'addressType'])('requires %s', (field) => {
    const { [field as keyof typeof manual]: _, ...rest } = manual;
    expectFieldError(() => parseGroupSpec(rest), field, /required/);
  });

  it('refuses a title longer than 64 characters', () => {
    expectFieldError(() => parseGroupSpec({ ...manual, title: 't'.repeat(65) }), 'title', /64/);
  });

  it('refuses an unknown addressType', () => {
    expectFieldError(
      () => parseGroupSpec({ ...manual, addressType: 'STATIC' }),
      'addressType',
      /AUTO, MANUAL/,
    );
  });

  it('refuses a MANUAL group without addresses', () => {
    expectFieldError(() => parseGroupSpec({ ...manual, addressList: [] }), 'addressList', /MANUAL/);
  });

  it('refuses an address list on an AUTO group', () => {
    expectFieldError(() => parseGroupSpec({ ...manual, addressType: 'AUTO' }), 'addressList', /AUTO/);
  });

  it.each([['10.0.0.1:9999'], ['ftp://host/'], [7]])('refuses the address %j', (address) => {
    expectFieldError(() => parseGroupSpec({ ...manual, addressList: [address] }), 'addressList', /http\(s\)/);
  });

  it('refuses an address list that is neither an array nor a comma-separated string', () => {
    expectFieldError(() => parseGroupSpec({ ...manual, addressList: 7 }), 'addressList');
    expectFieldError(() => parseGroupSpec({ ...manual, addressList: { a: 'http://a/' } }), 'addressList');
  });

  it('refuses an unknown field', () => {
    expectFieldError(() => parseGroupSpec({ ...manual, name: 'x' }), 'name', /unknown field/);
  });

  it('refuses renaming on update', () => {
    const base = parseGroupSpec(manual);
    expectFieldError(() => parseGroupSpec({ appName: 'other-app' }, base), 'appName', /cannot be changed/);
    expect(parseGroupSpec({ appName: 'sample-app', title: 'New' }, base).title).toBe('New');
  });

  it('clears the list when an update switches a MANUAL group to AUTO', () => {
    const base = parseGroupSpec(manual);
    expect(parseGroupSpec({ addressType: 'AUTO' }, base).addressList).toEqual([]);
  });
});
