import { describe, expect, it } from 'vitest';
import { parseDump } from './parse-dump.js';
import { type ImportPlan, jobIdentity, type PlannedJob, planImport } from './plan.js';
import { groupRow, jobRow, mysqldump, type Row, SAMPLE_2_4_2, SAMPLE_3_4_2 } from './test-support/dumps.js';
import { type ExistingJob, type ExistingState, ImportOptionsError, type JobBody } from './types.js';

const NOTHING: ExistingState = { groups: [], jobs: [] };

const GENERAL_NOTES = [
  'failed runs are retried after retryBackoffSeconds (10 s, doubling with each retry); XXL-JOB retried about every 10 s',
  'not imported: add_time, update_time, glue_remark, glue_updatetime, trigger_last_time, trigger_next_time (tickring keeps its own), the GLUE history (xxl_job_logglue), users and permissions (xxl_job_user), logs and registrations',
  "executors keep working unchanged once pointed at tickring: xxl.job.admin.addresses = tickring's URL, xxl.job.accessToken = tickring's access token (or the group's own)",
];
const UTC_NOTE =
  "CRON schedules are read in UTC: XXL-JOB read them in its admin's time zone, which a dump does not record (give the time zone to change it)";

/** The body of a sample job: everything but what differs. */
function sampleBody(appName: string, fields: Partial<JobBody>): JobBody {
  return {
    appName,
    name: '',
    author: 'XXL',
    alarmEmail: '',
    scheduleType: 'NONE',
    scheduleConf: '',
    timeZone: 'UTC',
    misfireStrategy: 'DO_NOTHING',
    executorRouteStrategy: 'FIRST',
    executorHandler: '',
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    executorFailRetryCount: 0,
    glueType: 'BEAN',
    glueSource: '',
    triggerStatus: 'STOPPED',
    ...fields,
  };
}

function created(xxlId: number, line: number, body: JobBody): PlannedJob {
  return {
    action: 'create',
    xxlId,
    line,
    name: body.name,
    appName: body.appName,
    body,
    wasRunning: false,
    toStart: false,
    changes: [],
    notes: [],
  };
}

const plan = (text: string, existing: ExistingState = NOTHING, timeZone?: string): ImportPlan =>
  planImport(parseDump(text), existing, timeZone === undefined ? {} : { timeZone });

describe('planImport: the XXL-JOB sample files', () => {
  it('plans 2.4.2: one group and its CRON job, all to create', () => {
    expect(plan(SAMPLE_2_4_2)).toEqual({
      timeZone: 'UTC',
      source: { lines: 123, groupRows: 1, jobRows: 1, notes: [] },
      groups: [
        {
          action: 'create',
          appName: 'xxl-job-executor-sample',
          xxlIds: [1],
          line: 116,
          title: '示例执行器',
          body: { appName: 'xxl-job-executor-sample', title: '示例执行器', addressType: 'AUTO' },
          changes: [],
          notes: [],
        },
      ],
      jobs: [
        created(
          1,
          117,
          sampleBody('xxl-job-executor-sample', {
            name: '测试任务1',
            scheduleType: 'CRON',
            scheduleConf: '0 0 0 * * ? *',
            executorHandler: 'demoJobHandler',
          }),
        ),
      ],
      links: [],
      notes: [UTC_NOTE, 'every job is imported STOPPED', ...GENERAL_NOTES],
    });
  });

  it('plans 3.4.2: two groups, a CRON job and three NONE jobs with JSON parameters', () => {
    const ai = 'xxl-job-executor-sample-ai';
    const dump = parseDump(SAMPLE_3_4_2);
    const param = (id: number) =>
      dump.jobs.rows.find((r) => r.values.id === id)?.values.executor_param as string;
    expect(param(2)).toMatch(/^\{\n {4}"input": "Java实现二叉树层序遍历",/);
    expect(planImport(dump, NOTHING, { timeZone: 'Asia/Shanghai' })).toEqual({
      timeZone: 'Asia/Shanghai',
      source: { lines: 191, groupRows: 2, jobRows: 4, notes: [] },
      groups: [
        {
          action: 'create',
          appName: 'xxl-job-executor-sample',
          xxlIds: [1],
          line: 149,
          title: '通用执行器Sample',
          body: { appName: 'xxl-job-executor-sample', title: '通用执行器Sample', addressType: 'AUTO' },
          changes: [],
          notes: [],
        },
        {
          action: 'create',
          appName: ai,
          xxlIds: [2],
          line: 150,
          title: 'AI执行器Sample',
          body: { appName: ai, title: 'AI执行器Sample', addressType: 'AUTO' },
          changes: [],
          notes: [],
        },
      ],
      jobs: [
        created(
          1,
          157,
          sampleBody('xxl-job-executor-sample', {
            name: '示例任务01',
            scheduleType: 'CRON',
            scheduleConf: '0 0 0 * * ? *',
            timeZone: 'Asia/Shanghai',
            executorHandler: 'demoJobHandler',
          }),
        ),
        created(
          2,
          160,
          sampleBody(ai, {
            name: 'Ollama示例任务',
            timeZone: 'Asia/Shanghai',
            executorHandler: 'ollamaJobHandler',
            executorParam: param(2),
          }),
        ),
        created(
          3,
          167,
          sampleBody(ai, {
            name: 'Dify示例任务',
            timeZone: 'Asia/Shanghai',
            executorHandler: 'difyWorkflowJobHandler',
            executorParam: param(3),
          }),
        ),
        created(
          4,
          177,
          sampleBody(ai, {
            name: 'OpenClaw示例任务',
            timeZone: 'Asia/Shanghai',
            executorHandler: 'openClawJobHandler',
            executorParam: param(4),
          }),
        ),
      ],
      links: [],
      notes: [
        "CRON schedules are read in Asia/Shanghai: XXL-JOB read them in its admin's time zone, which a dump does not record",
        'every job is imported STOPPED',
        ...GENERAL_NOTES,
      ],
    });
  });

  it('refuses a time zone that is not an IANA name', () => {
    expect(() => plan(SAMPLE_2_4_2, NOTHING, 'Mars/Olympus')).toThrow(ImportOptionsError);
    expect(() => plan(SAMPLE_2_4_2, NOTHING, 'Mars/Olympus')).toThrow(
      `timeZone must be an IANA time zone such as 'UTC' or 'Asia/Shanghai'; got "Mars/Olympus"`,
    );
  });
});

describe('planImport: groups', () => {
  it('does not import the jobs of a group the dump lacks, or of a group it skips', () => {
    const p = plan(
      mysqldump({
        groups: [groupRow(), groupRow({ id: 2, app_name: 'bad app' })],
        jobs: [
          jobRow({ id: 1, job_group: 9 }),
          jobRow({ id: 2, job_group: 2, trigger_status: 1 }),
          jobRow({ id: 3 }),
        ],
      }),
    );
    expect(p.jobs.map((j) => [j.xxlId, j.action, j.reason])).toEqual([
      [1, 'skip', 'its group 9 is not in the dump'],
      [
        2,
        'skip',
        expect.stringMatching(
          /^its group 2 is not imported: its appName "bad app" is not one tickring accepts .* \(it was RUNNING in XXL-JOB\)$/,
        ),
      ],
      [3, 'create', undefined],
    ]);
    expect(p.groups.map((g) => [g.appName, g.action])).toEqual([
      ['xxl-job-executor-sample', 'create'],
      ['bad app', 'skip'],
    ]);
  });

  it('imports no job of a dump with only xxl_job_info, and says to dump xxl_job_group too', () => {
    const text = mysqldump({ jobs: [jobRow(), jobRow({ id: 2 })] });
    const p = plan(text);
    expect(p.groups).toEqual([]);
    expect(p.jobs.map((j) => j.reason)).toEqual([
      'its group 1 is not in the dump (the dump has no xxl_job_group rows: dump that table too)',
      'its group 1 is not in the dump (the dump has no xxl_job_group rows: dump that table too)',
    ]);
    expect(p.notes).toContain(
      'the dump has no xxl_job_group table: no job can be imported without its group',
    );
  });

  it('merges groups with the same appName (XXL-JOB before 3.5 allowed them): their jobs join the first', () => {
    const p = plan(
      mysqldump({
        groups: [
          groupRow(),
          groupRow({ id: 5, title: 'Copy', address_type: 1, address_list: 'http://10.0.0.1:9999/' }),
        ],
        jobs: [jobRow({ id: 1, job_group: 5 })],
      }),
    );
    expect(p.groups).toHaveLength(1);
    expect(p.groups[0]).toMatchObject({ action: 'create', xxlIds: [1, 5] });
    expect(p.groups[0]?.notes).toEqual([
      'XXL-JOB group 5 (line 40) has the same appName: its jobs join this group; its title "Copy", its address type MANUAL, its addresses http://10.0.0.1:9999/ not imported',
    ]);
    expect(p.jobs[0]).toMatchObject({ action: 'create', appName: 'xxl-job-executor-sample' });
  });

  it('skips a second row with the same id', () => {
    const text = [
      "INSERT INTO xxl_job_group (id, app_name, title) VALUES (1, 'first-app', 'F'), (1, 'second-app', 'S');",
      "INSERT INTO xxl_job_info (id, job_group, job_desc, author, schedule_type, executor_handler, glue_type) VALUES (1, 1, 'a', 'me', 'NONE', 'h', 'BEAN'), (1, 1, 'b', 'me', 'NONE', 'h', 'BEAN');",
    ].join('\n');
    const p = plan(text);
    expect(p.groups.map((g) => [g.appName, g.action, g.reason])).toEqual([
      ['first-app', 'create', undefined],
      ['second-app', 'skip', 'its id 1 is taken by the row on line 1 (a dump of two databases?)'],
    ]);
    expect(p.jobs.map((j) => [j.name, j.action])).toEqual([
      ['a', 'create'],
      ['b', 'skip'],
    ]);
  });

  it('finds a group tickring has by appName, reports differences, and sets a 3.5 token only where it has none', () => {
    const text = [
      'INSERT INTO xxl_job_group (id, app_name, name, address_type, address_list, access_token) VALUES',
      "(1, 'app-one', 'One', 1, 'http://a:1', 'token-of-one'),",
      "(2, 'app-two', 'Two', 0, NULL, 'token-of-two'),",
      "(3, 'app-three', 'Three', 0, NULL, 'token-of-three');",
    ].join('\n');
    const p = plan(text, {
      groups: [
        {
          appName: 'app-one',
          title: 'Uno',
          addressType: 'MANUAL',
          addressList: ['http://b:1/'],
          accessTokenSetAt: null,
        },
        // An AUTO group lists its executors online now as its addressList: not a difference.
        {
          appName: 'app-two',
          title: 'Two',
          addressType: 'AUTO',
          addressList: ['http://c:1/'],
          accessTokenSetAt: '2030-01-01T00:00:00.000Z',
        },
      ],
      jobs: [],
    });
    expect(p.groups).toEqual([
      expect.objectContaining({
        appName: 'app-one',
        action: 'exists',
        accessToken: 'token-of-one',
        notes: [
          `tickring's group differs from the dump in title ("Uno" there, "One" in the dump); addressList (http://b:1/ there, http://a:1/ in the dump) (left as it is)`,
          "accessToken: the tickring group has no token of its own; the dump's is set",
        ],
      }),
      expect.objectContaining({
        appName: 'app-two',
        action: 'exists',
        notes: [expect.stringMatching(/^accessToken: the tickring group has a token of its own already/)],
      }),
      expect.objectContaining({
        appName: 'app-three',
        action: 'create',
        accessToken: 'token-of-three',
      }),
    ]);
    expect(p.groups[1]).not.toHaveProperty('accessToken');
  });
});

describe('planImport: identity (running it twice creates nothing twice)', () => {
  const dumpOf = (jobs: Row[]) => mysqldump({ groups: [groupRow()], jobs });
  const existingJob = (id: number, body: JobBody, more: Partial<ExistingJob> = {}): ExistingJob => ({
    id,
    ...body,
    childJobIds: [],
    ...more,
  });

  it('finds a job tickring has by appName, name, glueType, handler and schedule; reports other differences', () => {
    const first = plan(dumpOf([jobRow({ trigger_status: 1 })]));
    const body = first.jobs[0]?.body as JobBody;
    const again = plan(dumpOf([jobRow({ trigger_status: 1 })]), {
      groups: [{ appName: 'xxl-job-executor-sample' }],
      jobs: [existingJob(41, { ...body, executorParam: 'edited', timeZone: 'Europe/Berlin' })],
    });
    expect(again.groups[0]?.action).toBe('exists');
    expect(again.jobs[0]).toMatchObject({
      action: 'exists',
      existingId: 41,
      toStart: true,
      notes: [
        'RUNNING in XXL-JOB; imported STOPPED: start it once its executors are registered with tickring',
        "tickring's job differs from the dump in timeZone, executorParam (left as it is)",
      ],
    });
    // Started in tickring meanwhile: nothing to start.
    const started = plan(dumpOf([jobRow({ trigger_status: 1 })]), {
      groups: [],
      jobs: [existingJob(41, body, { triggerStatus: 'RUNNING' })],
    });
    expect(started.jobs[0]).toMatchObject({ action: 'exists', toStart: false, notes: [] });
  });

  it('pairs jobs with the same identity in order: two identical XXL-JOB jobs stay two', () => {
    const rows = [jobRow({ id: 1, executor_param: 'a' }), jobRow({ id: 2, executor_param: 'b' })];
    const body = plan(dumpOf(rows)).jobs[0]?.body as JobBody;
    expect(jobIdentity(body)).toBe(jobIdentity(plan(dumpOf(rows)).jobs[1]?.body as JobBody));
    const oneThere = plan(dumpOf(rows), {
      groups: [],
      jobs: [existingJob(8, { ...body, executorParam: 'a' })],
    });
    expect(oneThere.jobs.map((j) => [j.xxlId, j.action, j.existingId])).toEqual([
      [1, 'exists', 8],
      [2, 'create', undefined],
    ]);
    const bothThere = plan(dumpOf(rows), {
      groups: [],
      jobs: [
        existingJob(9, { ...body, executorParam: 'b' }),
        existingJob(8, { ...body, executorParam: 'a' }),
      ],
    });
    expect(bothThere.jobs.map((j) => [j.xxlId, j.action, j.existingId])).toEqual([
      [1, 'exists', 8],
      [2, 'exists', 9],
    ]);
  });

  it('takes a job whose schedule, handler, name or group differs as another job', () => {
    const body = plan(dumpOf([jobRow()])).jobs[0]?.body as JobBody;
    for (const change of [
      { scheduleConf: '0 0 1 * * ? *' },
      { executorHandler: 'other' },
      { name: 'other' },
      { appName: 'other-app' },
      { glueType: 'GLUE_SHELL' },
    ]) {
      const p = plan(dumpOf([jobRow()]), {
        groups: [],
        jobs: [existingJob(3, { ...body, ...change } as JobBody)],
      });
      expect(p.jobs[0]?.action, JSON.stringify(change)).toBe('create');
    }
  });
});

describe('planImport: child jobs', () => {
  const dumpOf = (jobs: Row[]) => mysqldump({ groups: [groupRow()], jobs });

  it('links children by XXL-JOB id after creating every job, dropping what cannot be linked', () => {
    const p = plan(
      dumpOf([
        jobRow({ id: 1, job_desc: 'parent', child_jobid: '2,3,1,99,4' }),
        jobRow({ id: 2, job_desc: 'child' }),
        jobRow({ id: 3, job_desc: 'grandchild', child_jobid: '2' }),
        jobRow({ id: 4, job_desc: 'skipped', executor_handler: '' }),
      ]),
    );
    expect(p.links).toEqual([
      { parentXxlId: 1, name: 'parent', keepIds: [], childXxlIds: [2, 3] },
      { parentXxlId: 3, name: 'grandchild', keepIds: [], childXxlIds: [2] },
    ]);
    expect(p.jobs[0]?.changes).toEqual([
      'childJobIds: the job names itself as a child; dropped (XXL-JOB skips it too)',
      'childJobIds: child job 99 is not in the dump; dropped',
      'childJobIds: child job 4 is not imported (it is a BEAN job without executor_handler (XXL-JOB refuses to save one, tickring to create one)); dropped',
    ]);
  });

  it('drops the link that would close a cycle (XXL-JOB allowed cycles, tickring refuses them)', () => {
    const p = plan(
      dumpOf([
        jobRow({ id: 1, job_desc: 'a', child_jobid: '2' }),
        jobRow({ id: 2, job_desc: 'b', child_jobid: '3' }),
        jobRow({ id: 3, job_desc: 'c', child_jobid: '1' }),
      ]),
    );
    expect(p.links.map((l) => [l.parentXxlId, l.childXxlIds])).toEqual([
      [1, [2]],
      [2, [3]],
    ]);
    expect(p.jobs[2]?.changes).toEqual([
      'childJobIds: child job 1 dropped: it would close the cycle #3 → #1 → #2 → #3 (tickring refuses child cycles; XXL-JOB allowed them)',
    ]);
  });

  it("keeps an existing parent's children and adds only the missing links (a second run completes a first that failed)", () => {
    const rows = [
      jobRow({ id: 1, job_desc: 'parent', child_jobid: '2,3' }),
      jobRow({ id: 2, job_desc: 'c2' }),
      jobRow({ id: 3, job_desc: 'c3' }),
    ];
    const first = plan(dumpOf(rows));
    const bodies = first.jobs.map((j) => j.body as JobBody);
    const existing: ExistingState = {
      groups: [{ appName: 'xxl-job-executor-sample' }],
      jobs: [
        { id: 10, ...(bodies[0] as JobBody), childJobIds: [11, 500] },
        { id: 11, ...(bodies[1] as JobBody), childJobIds: [] },
        { id: 12, ...(bodies[2] as JobBody), childJobIds: [] },
        { id: 500, ...(bodies[2] as JobBody), name: 'not imported', childJobIds: [] },
      ],
    };
    const again = plan(dumpOf(rows), existing);
    expect(again.jobs.map((j) => [j.action, j.existingId])).toEqual([
      ['exists', 10],
      ['exists', 11],
      ['exists', 12],
    ]);
    expect(again.links).toEqual([
      { parentXxlId: 1, parentId: 10, name: 'parent', keepIds: [11, 500], childXxlIds: [3] },
    ]);
    // All linked: nothing to do.
    const done = plan(dumpOf(rows), {
      ...existing,
      jobs: existing.jobs.map((j) => (j.id === 10 ? { ...j, childJobIds: [11, 12] } : j)),
    });
    expect(done.links).toEqual([]);
  });

  it("sees a cycle through tickring's own links too", () => {
    const rows = [jobRow({ id: 1, job_desc: 'a', child_jobid: '2' }), jobRow({ id: 2, job_desc: 'b' })];
    const bodies = plan(dumpOf(rows)).jobs.map((j) => j.body as JobBody);
    // b exists in tickring and already has a as its child (job 7 → its own child 8 is a).
    const p = plan(dumpOf(rows), {
      groups: [],
      jobs: [
        { id: 7, ...(bodies[1] as JobBody), childJobIds: [8] },
        { id: 8, ...(bodies[0] as JobBody), childJobIds: [] },
      ],
    });
    expect(p.links).toEqual([]);
    expect(p.jobs[0]?.changes[0]).toMatch(/child job 2 dropped: it would close the cycle #1 → #2 → #1/);
  });

  it('keeps at most 100 children', () => {
    const children = Array.from({ length: 101 }, (_, i) => jobRow({ id: i + 2, job_desc: `c${i}` }));
    const ids = children.map((c) => c.id).join(',');
    const p = plan(dumpOf([jobRow({ id: 1, child_jobid: ids }), ...children]));
    expect(p.links[0]?.childXxlIds).toHaveLength(100);
    expect(p.jobs[0]?.changes).toEqual([
      'childJobIds: child job 102 dropped: tickring keeps at most 100 children',
    ]);
  });
});

describe('planImport: a large dump', () => {
  it('parses and plans 10,000 jobs (time printed)', () => {
    const groups = Array.from({ length: 20 }, (_, i) =>
      groupRow({ id: i + 1, app_name: `service-${i + 1}`, title: `S${i + 1}` }),
    );
    const jobs = Array.from({ length: 10_000 }, (_, i) =>
      jobRow({
        id: i + 1,
        job_group: (i % 20) + 1,
        job_desc: `job ${i + 1}; it's "quoted"`,
        schedule_type: i % 3 === 0 ? 'FIX_RATE' : 'CRON',
        schedule_conf: i % 3 === 0 ? String(10 + (i % 50)) : `${i % 60} */5 * * * ?`,
        executor_handler: `handler${i % 100}`,
        executor_param: `{"n":${i},"s":"a\\nb"}`,
        glue_type: i % 10 === 0 ? 'GLUE_SHELL' : 'BEAN',
        glue_source: i % 10 === 0 ? `#!/bin/bash\necho ${i}; exit 0\n` : '',
        child_jobid: i % 7 === 0 && i + 2 <= 10_000 ? `${i + 2}` : '',
        trigger_status: i % 2,
      }),
    );
    const text = mysqldump({ groups, jobs, rowsPerInsert: 500 });
    const started = performance.now();
    const dump = parseDump(text);
    const parsed = performance.now();
    const p = planImport(dump, NOTHING, { timeZone: 'Asia/Shanghai' });
    const planned = performance.now();
    console.log(
      `10,000 jobs (${(text.length / 1e6).toFixed(1)} MB): parsed in ${(parsed - started).toFixed(0)} ms, planned in ${(planned - parsed).toFixed(0)} ms`,
    );
    expect(dump.jobs.rows).toHaveLength(10_000);
    expect(p.jobs.filter((j) => j.action === 'create')).toHaveLength(10_000);
    expect(p.links).toHaveLength(1429);
    expect(p.jobs.filter((j) => j.toStart)).toHaveLength(5000);
  });
});
