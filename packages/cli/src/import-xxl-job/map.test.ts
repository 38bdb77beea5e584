import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTHOR, mapGroupRow, mapJobRow, normalizeExecutorAddress, truncate } from './map.js';
import type { DumpRow } from './parse-dump.js';
import { groupRow, HOSTILE_SOURCE, jobRow, type Row } from './test-support/dumps.js';

const group = (overrides: Row = {}, values = groupRow(overrides)): ReturnType<typeof mapGroupRow> =>
  mapGroupRow({ line: 10, values });
const job = (overrides: Row = {}, timeZone = 'UTC') =>
  mapJobRow({ line: 20, values: jobRow(overrides) }, timeZone);
const without = (row: Row, ...columns: string[]): DumpRow => ({
  line: 20,
  values: Object.fromEntries(Object.entries(row).filter(([c]) => !columns.includes(c))),
});

describe('mapGroupRow', () => {
  it('maps an AUTO group', () => {
    expect(group()).toEqual({
      xxlId: 1,
      line: 10,
      xxlAppName: 'xxl-job-executor-sample',
      title: '示例执行器',
      body: { appName: 'xxl-job-executor-sample', title: '示例执行器', addressType: 'AUTO' },
      changes: [],
      notes: [],
    });
  });

  it("drops an AUTO group's registered addresses, saying they come from registration", () => {
    const g = group({ address_list: 'http://10.0.0.5:9999/,http://10.0.0.6:9999/' });
    expect(g.body).toEqual({ appName: 'xxl-job-executor-sample', title: '示例执行器', addressType: 'AUTO' });
    expect(g.notes).toEqual([
      "addressList: the 2 address(es) registered when the dump was made are not imported (http://10.0.0.5:9999/, http://10.0.0.6:9999/); an AUTO group learns its addresses from its executors' registrations",
    ]);
  });

  it("maps a MANUAL group's comma list: trailing '/', invalid and repeated addresses reported", () => {
    const g = group({
      address_type: 1,
      address_list:
        ' http://10.0.0.7:9999 ,https://b.example/xxl/,10.0.0.9:9999,,ftp://x/,http://10.0.0.7:9999/',
    });
    expect(g.body).toEqual({
      appName: 'xxl-job-executor-sample',
      title: '示例执行器',
      addressType: 'MANUAL',
      addressList: ['http://10.0.0.7:9999/', 'https://b.example/xxl/'],
    });
    expect(g.changes).toEqual([
      'addressList: "10.0.0.9:9999" dropped: not an http(s) URL',
      'addressList: "ftp://x/" dropped: not an http(s) URL',
      'addressList: http://10.0.0.7:9999/ listed twice; kept once',
    ]);
  });

  it('imports a MANUAL group without a usable address as AUTO, and an unknown address_type as MANUAL', () => {
    const empty = group({ address_type: 1, address_list: 'not a url' });
    expect(empty.body?.addressType).toBe('AUTO');
    expect(empty.changes).toEqual([
      'addressList: "not a url" dropped: not an http(s) URL',
      'addressType: MANUAL in XXL-JOB but without a usable address; imported as AUTO (executors that register fill it)',
    ]);
    const two = group({ address_type: 2, address_list: 'http://a:1' });
    expect(two.body).toMatchObject({ addressType: 'MANUAL', addressList: ['http://a:1/'] });
    expect(two.changes[0]).toMatch(
      /^addressType: address_type 2 is neither 0 \(automatic\) nor 1 \(manual\)/,
    );
  });

  it('keeps at most 100 addresses', () => {
    const list = Array.from({ length: 102 }, (_, i) => `http://10.0.${i >> 8}.${i & 255}:9999/`).join(',');
    const g = group({ address_type: 1, address_list: list });
    expect(g.body?.addressList).toHaveLength(100);
    expect(g.changes).toHaveLength(2);
  });

  it('trims the appName and skips one tickring does not accept, since executors register under it', () => {
    expect(group({ app_name: ' my-app ' })).toMatchObject({
      body: { appName: 'my-app' },
      changes: ['appName: spaces around " my-app " removed'],
    });
    for (const appName of ['abc', 'my app', '订单服务', 'a'.repeat(65), 'a/b']) {
      const g = group({ app_name: appName });
      expect(g.body, appName).toBeUndefined();
      expect(g.skipReason).toMatch(/is not one tickring accepts \(4–64 letters, digits, '_', '.', '-'\)/);
    }
  });

  it('uses the appName for an empty title and cuts a long one; reads 3.5 `name` for the title', () => {
    expect(group({ title: ' ' })).toMatchObject({
      body: { title: 'xxl-job-executor-sample' },
      changes: ['title: empty in XXL-JOB; the appName is used'],
    });
    const long = group({ title: `${'标'.repeat(63)}😀` });
    expect(long.body?.title).toBe('标'.repeat(63));
    expect(long.changes).toEqual(['title: cut to 64 characters (was 65)']);
    const v35 = mapGroupRow({
      line: 1,
      values: { id: 5, app_name: 'app-five', name: 'Five', address_type: 0 },
    });
    expect(v35.body).toEqual({ appName: 'app-five', title: 'Five', addressType: 'AUTO' });
  });

  it("keeps a 3.5 group's own access token, never in a message; one tickring cannot take is reported", () => {
    const g = mapGroupRow({
      line: 1,
      values: { id: 5, app_name: 'app-five', name: 'Five', access_token: 'default_token' },
    });
    expect(g.accessToken).toBe('default_token');
    expect(JSON.stringify([g.changes, g.notes])).not.toContain('default_token');
    const short = mapGroupRow({
      line: 1,
      values: { id: 5, app_name: 'app-five', name: 'Five', access_token: 'short' },
    });
    expect(short.accessToken).toBeUndefined();
    expect(short.notes).toEqual([
      expect.stringMatching(/^access_token: its own access token \(XXL-JOB 3.5\) is not imported/),
    ]);
    expect(JSON.stringify(short.notes)).not.toContain('short"');
  });

  it('skips a row without an id', () => {
    expect(group({ id: null }).skipReason).toBe('it has no id, so no job can name it (id: NULL)');
  });
});

describe('mapJobRow', () => {
  it('maps every column of a BEAN job, STOPPED, in the given time zone', () => {
    const m = job(
      {
        id: 7,
        job_group: 3,
        alarm_email: 'ops@example.com, dev@example.com',
        executor_route_strategy: 'SHARDING_BROADCAST',
        executor_param: '{"a":1}',
        executor_block_strategy: 'DISCARD_LATER',
        executor_timeout: 30,
        executor_fail_retry_count: 2,
        misfire_strategy: 'FIRE_ONCE_NOW',
        child_jobid: '8, 9,8',
      },
      'Asia/Shanghai',
    );
    expect(m).toEqual({
      xxlId: 7,
      line: 20,
      xxlGroupId: 3,
      name: '测试任务1',
      childXxlIds: [8, 9],
      wasRunning: false,
      changes: [],
      notes: [],
      fields: {
        name: '测试任务1',
        author: 'XXL',
        alarmEmail: 'ops@example.com,dev@example.com',
        scheduleType: 'CRON',
        scheduleConf: '0 0 0 * * ? *',
        timeZone: 'Asia/Shanghai',
        misfireStrategy: 'FIRE_ONCE_NOW',
        executorRouteStrategy: 'SHARDING_BROADCAST',
        executorHandler: 'demoJobHandler',
        executorParam: '{"a":1}',
        executorBlockStrategy: 'DISCARD_LATER',
        executorTimeout: 30,
        executorFailRetryCount: 2,
        glueType: 'BEAN',
        glueSource: '',
        triggerStatus: 'STOPPED',
      },
    });
  });

  it('imports a RUNNING job STOPPED and says to start it', () => {
    const m = job({ trigger_status: 1 });
    expect(m.wasRunning).toBe(true);
    expect(m.fields?.triggerStatus).toBe('STOPPED');
    expect(m.notes).toEqual([
      'RUNNING in XXL-JOB; imported STOPPED: start it once its executors are registered with tickring',
    ]);
  });

  it('maps FIX_RATE and NONE; drops the schedule text of a NONE job', () => {
    expect(job({ schedule_type: 'FIX_RATE', schedule_conf: '30' }).fields).toMatchObject({
      scheduleType: 'FIX_RATE',
      scheduleConf: '30',
    });
    const none = job({ schedule_type: 'NONE', schedule_conf: '0 0 0 * * ? *' });
    expect(none.fields).toMatchObject({ scheduleType: 'NONE', scheduleConf: '' });
    expect(none.changes).toEqual([
      'scheduleConf: "0 0 0 * * ? *" dropped: a NONE job has no schedule (XXL-JOB ignored it too)',
    ]);
    expect(job({ schedule_type: null, schedule_conf: null }).fields).toMatchObject({
      scheduleType: 'NONE',
      scheduleConf: '',
    });
  });

  it('imports FIX_DELAY (never implemented by XXL-JOB) as FIX_RATE, and reports it', () => {
    const m = job({ schedule_type: 'FIX_DELAY', schedule_conf: '60' });
    expect(m.fields).toMatchObject({ scheduleType: 'FIX_RATE', scheduleConf: '60' });
    expect(m.changes[0]).toMatch(
      /^scheduleType: FIX_DELAY \(named but never implemented by XXL-JOB.*imported as FIX_RATE every 60 s/,
    );
  });

  it('imports a schedule tickring cannot take as NONE, without its text, and reports what it was', () => {
    for (const [type, conf, why] of [
      ['CRON', '0 0 * * *', /the cron "0 0 \* \* \*" does not have the 6 or 7 fields of a Quartz cron/],
      ['FIX_RATE', '0', /FIX_RATE needs a whole number of seconds ≥ 1, not "0"/],
      ['FIX_RATE', '1.5', /FIX_RATE needs a whole number of seconds/],
      ['FIX_DELAY', 'x', /FIX_DELAY "x" \(never implemented by XXL-JOB\)/],
      ['WEEKLY', 'MON', /"WEEKLY" is not a schedule type tickring has/],
    ] as const) {
      const m = job({ schedule_type: type, schedule_conf: conf });
      expect(m.fields, type).toMatchObject({ scheduleType: 'NONE', scheduleConf: '' });
      expect(m.changes[0], type).toMatch(why);
      expect(m.changes[0], type).toMatch(
        /imported as NONE .* without a schedule: set one before starting it$/,
      );
    }
  });

  it('reads a job of XXL-JOB before 2.3 (job_cron, no schedule_type) as CRON', () => {
    const old = without(
      jobRow({ job_cron: '0/5 * * * * ?' }),
      'schedule_type',
      'schedule_conf',
      'misfire_strategy',
    );
    expect(mapJobRow(old, 'UTC').fields).toMatchObject({
      scheduleType: 'CRON',
      scheduleConf: '0/5 * * * * ?',
      misfireStrategy: 'DO_NOTHING',
    });
    expect(mapJobRow(old, 'UTC').changes).toEqual([]);
  });

  it('reads 3.5 `name` for the description', () => {
    const v35 = without(jobRow({ name: 'renamed' }), 'job_desc');
    expect(mapJobRow(v35, 'UTC').fields?.name).toBe('renamed');
  });

  it('falls back to the default of an unknown or empty strategy, and reports it', () => {
    const m = job({
      misfire_strategy: 'FIRE_TWICE',
      executor_route_strategy: null,
      executor_block_strategy: 'CONCURRENT_EXECUTION',
    });
    expect(m.fields).toMatchObject({
      misfireStrategy: 'DO_NOTHING',
      executorRouteStrategy: 'FIRST',
      executorBlockStrategy: 'SERIAL_EXECUTION',
    });
    expect(m.changes).toEqual([
      'misfireStrategy: "FIRE_TWICE" is not one of DO_NOTHING, FIRE_ONCE_NOW; DO_NOTHING',
      'executorRouteStrategy: executor_route_strategy is empty; FIRST',
      'executorBlockStrategy: "CONCURRENT_EXECUTION" is not one of SERIAL_EXECUTION, DISCARD_LATER, COVER_EARLY; SERIAL_EXECUTION',
    ]);
  });

  it('fills an empty name and author, cuts long ones, and keeps lower-case enum names as XXL-JOB matched them', () => {
    const m = job({ job_desc: '', author: null, executor_route_strategy: 'round' });
    expect(m.fields).toMatchObject({
      name: 'XXL-JOB job 1',
      author: DEFAULT_AUTHOR,
      executorRouteStrategy: 'ROUND',
    });
    expect(m.changes).toEqual([
      'name: empty in XXL-JOB; named "XXL-JOB job 1"',
      `author: empty in XXL-JOB; set to "${DEFAULT_AUTHOR}"`,
    ]);
    const long = job({ job_desc: '😀'.repeat(200), author: 'a'.repeat(70) });
    expect(long.fields?.name).toBe('😀'.repeat(127));
    expect(long.fields?.author).toBe('a'.repeat(64));
  });

  it('keeps valid alarm e-mails, comma-separated, and drops the rest', () => {
    const m = job({ alarm_email: 'a@x.io;b@y.io，not-an-email , a@x.io' });
    expect(m.fields?.alarmEmail).toBe('a@x.io,b@y.io');
    expect(m.changes).toEqual(['alarmEmail: "not-an-email" dropped: not an e-mail address']);
    const semi = job({ alarm_email: 'a@x.io; b@y.io' });
    expect(semi.fields?.alarmEmail).toBe('a@x.io,b@y.io');
    expect(semi.changes).toEqual([
      'alarmEmail: "a@x.io; b@y.io" written as "a@x.io,b@y.io" (comma-separated)',
    ]);
  });

  it('takes a negative timeout or retry count as 0, as XXL-JOB does', () => {
    const m = job({ executor_timeout: -1, executor_fail_retry_count: '-3' });
    expect(m.fields).toMatchObject({ executorTimeout: 0, executorFailRetryCount: 0 });
    expect(m.changes).toEqual([
      'executorTimeout: -1 in XXL-JOB (which treats it as 0); 0',
      'executorFailRetryCount: -3 in XXL-JOB (which treats it as 0); 0',
    ]);
  });

  it('keeps a GLUE job with its source as it is, noting the executor needs GLUE enabled', () => {
    const m = job({ glue_type: 'GLUE_SHELL', executor_handler: '', glue_source: HOSTILE_SOURCE });
    expect(m.fields).toMatchObject({
      glueType: 'GLUE_SHELL',
      glueSource: HOSTILE_SOURCE,
      executorHandler: '',
    });
    expect(m.notes).toEqual([
      'GLUE_SHELL: runs only on executors with GLUE enabled (@tickring/executor: enableGlue; XXL-JOB 3.5: xxl.job.executor.glueenabled)',
    ]);
    expect(job({ glue_type: 'GLUE_GROOVY', glue_source: '' }).notes).toEqual([
      expect.stringMatching(/GLUE_GROOVY needs a Java executor$/),
      'GLUE_GROOVY: its GLUE source is empty',
    ]);
  });

  it('skips what tickring cannot hold without changing what runs', () => {
    const cases: [Row, RegExp][] = [
      [{ glue_type: 'BEAN', executor_handler: '  ' }, /BEAN job without executor_handler/],
      [{ glue_type: 'GLUE_RUBY' }, /glue_type "GLUE_RUBY" is not one tickring runs/],
      [
        { executor_param: 'p'.repeat(2049) },
        /executor_param is 2049 characters; tickring keeps at most 2048/,
      ],
      [{ glue_type: 'GLUE_PYTHON', glue_source: 'x'.repeat(100_001) }, /GLUE source is 100001 characters/],
      [
        { schedule_conf: `0 0 0 * * ? ${'x'.repeat(130)}` },
        /schedule_conf is 142 characters; tickring keeps at most 128/,
      ],
      [{ id: 'seven' }, /it has no id \(id: "seven"\)/],
    ];
    for (const [overrides, reason] of cases) {
      const m = job(overrides);
      expect(m.fields, reason.source).toBeUndefined();
      expect(m.skipReason).toMatch(reason);
    }
  });

  it('drops the leftover GLUE source of a BEAN job when it is too long', () => {
    const m = job({ glue_source: 'x'.repeat(100_001) });
    expect(m.fields?.glueSource).toBe('');
    expect(m.changes[0]).toMatch(
      /^glueSource: the 100001 characters left from an earlier GLUE version dropped/,
    );
  });

  it('reads child_jobid, reporting entries that are not ids', () => {
    const m = job({ child_jobid: '3,abc, ,0,4' });
    expect(m.childXxlIds).toEqual([3, 4]);
    expect(m.changes).toEqual([
      'childJobIds: "abc" in child_jobid is not a job id; dropped',
      'childJobIds: "0" in child_jobid is not a job id; dropped',
    ]);
  });

  it('says when a column it reads is an SQL expression it does not evaluate', () => {
    const m = mapJobRow(
      { line: 3, values: { ...jobRow(), executor_param: { expr: "CONCAT('a','b')" } } },
      'UTC',
    );
    expect(m.fields?.executorParam).toBe('');
    expect(m.notes).toEqual([
      "executor_param is the SQL expression CONCAT('a','b'), which the import does not evaluate; taken as empty",
    ]);
  });
});

describe('helpers', () => {
  it('normalizeExecutorAddress: http(s) with a trailing /, lambda:<function>, nothing else', () => {
    expect(normalizeExecutorAddress('http://a:9999')).toBe('http://a:9999/');
    expect(normalizeExecutorAddress('https://a/b/')).toBe('https://a/b/');
    expect(normalizeExecutorAddress('lambda:my-fn')).toBe('lambda:my-fn');
    expect(normalizeExecutorAddress('lambda:bad fn')).toBeUndefined();
    expect(normalizeExecutorAddress('a:9999')).toBeUndefined();
  });

  it('truncate does not split a surrogate pair', () => {
    expect(truncate('ab😀', 3)).toBe('ab');
    expect(truncate('abc', 3)).toBe('abc');
  });
});
