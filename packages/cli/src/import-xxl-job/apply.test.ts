import { describe, expect, it } from 'vitest';
import { type ApplyProgress, applyImport } from './apply.js';
import { parseDump } from './parse-dump.js';
import { planImport } from './plan.js';
import { planReport } from './report.js';
import { groupRow, jobRow, mysqldump, type Row, SAMPLE_3_4_2 } from './test-support/dumps.js';
import { memoryTarget } from './test-support/memory-target.js';

const dumpOf = (jobs: Row[], groups: Row[] = [groupRow()]) => parseDump(mysqldump({ groups, jobs }));

describe('applyImport', () => {
  it('creates the groups, then the jobs, STOPPED, in XXL-JOB id order (the 3.4.2 sample)', async () => {
    const target = memoryTarget();
    const dump = parseDump(SAMPLE_3_4_2);
    const plan = planImport(dump, target.state());
    const report = await applyImport(plan, target);
    expect(target.calls.map((c) => c.method)).toEqual([
      'createGroup',
      'createGroup',
      'createJob',
      'createJob',
      'createJob',
      'createJob',
    ]);
    expect(report.counts).toEqual({
      groups: { create: 0, created: 2, exists: 0, skipped: 0, failed: 0 },
      jobs: { create: 0, created: 4, exists: 0, skipped: 0, failed: 0 },
      links: { link: 0, linked: 0, skipped: 0, failed: 0 },
    });
    expect(report.jobs.map((j) => [j.xxlId, j.id, j.outcome])).toEqual([
      [1, 1, 'created'],
      [2, 2, 'created'],
      [3, 3, 'created'],
      [4, 4, 'created'],
    ]);
    expect([...target.jobs.values()].map((j) => [j.appName, j.name, j.triggerStatus])).toEqual([
      ['xxl-job-executor-sample', '示例任务01', 'STOPPED'],
      ['xxl-job-executor-sample-ai', 'Ollama示例任务', 'STOPPED'],
      ['xxl-job-executor-sample-ai', 'Dify示例任务', 'STOPPED'],
      ['xxl-job-executor-sample-ai', 'OpenClaw示例任务', 'STOPPED'],
    ]);
    expect(target.jobs.get(3)?.executorParam).toBe(dump.jobs.rows[2]?.values.executor_param);
  });

  it('is idempotent: planned against what a first run made, it creates nothing and sends nothing', async () => {
    const text = mysqldump({
      groups: [
        groupRow(),
        groupRow({ id: 2, app_name: 'billing', address_type: 1, address_list: 'http://10.0.0.7:9999' }),
      ],
      jobs: [
        jobRow({ id: 1, child_jobid: '2,3', trigger_status: 1 }),
        jobRow({ id: 2, job_group: 2, job_desc: 'same' }),
        jobRow({ id: 3, job_group: 2, job_desc: 'same' }),
        jobRow({
          id: 4,
          job_group: 2,
          job_desc: 'glue',
          glue_type: 'GLUE_SHELL',
          glue_source: 'echo hi\n',
          child_jobid: '1',
        }),
      ],
    });
    const target = memoryTarget();
    const first = await applyImport(planImport(parseDump(text), target.state()), target);
    expect(first.counts.jobs.created).toBe(4);
    expect(first.counts.links.linked).toBe(2);
    const stored = structuredClone([...target.jobs.values()]);
    const callsBefore = target.calls.length;

    const again = planImport(parseDump(text), target.state());
    expect(again.groups.map((g) => g.action)).toEqual(['exists', 'exists']);
    expect(again.jobs.map((j) => [j.xxlId, j.action, j.existingId])).toEqual([
      [1, 'exists', 1],
      [2, 'exists', 2],
      [3, 'exists', 3],
      [4, 'exists', 4],
    ]);
    expect(again.links).toEqual([]);
    const second = await applyImport(again, target);
    expect(target.calls.length).toBe(callsBefore);
    expect([...target.jobs.values()]).toEqual(stored);
    expect(second.counts.jobs).toEqual({ create: 0, created: 0, exists: 4, skipped: 0, failed: 0 });
    expect(second.toStart).toEqual([{ xxlId: 1, name: '测试任务1', id: 1 }]);
  });

  it("sets children to tickring's ids, which differ from XXL-JOB's", async () => {
    const target = memoryTarget();
    // tickring has jobs already, so the new ones are numbered from 3.
    await applyImport(
      planImport(
        dumpOf([jobRow({ id: 1, job_desc: 'x' }), jobRow({ id: 2, job_desc: 'y' })]),
        target.state(),
      ),
      target,
    );
    const plan = planImport(
      dumpOf([
        jobRow({ id: 10, job_desc: 'parent', child_jobid: '11,12' }),
        jobRow({ id: 11, job_desc: 'c1', child_jobid: '12' }),
        jobRow({ id: 12, job_desc: 'c2' }),
      ]),
      target.state(),
    );
    const report = await applyImport(plan, target);
    expect(report.jobs.map((j) => [j.xxlId, j.id])).toEqual([
      [10, 3],
      [11, 4],
      [12, 5],
    ]);
    expect(report.links.map((l) => [l.xxlId, l.id, l.childJobIds, l.outcome])).toEqual([
      [10, 3, [4, 5], 'linked'],
      [11, 4, [5], 'linked'],
    ]);
    expect(target.jobs.get(3)?.childJobIds).toEqual([4, 5]);
    expect(target.jobs.get(4)?.childJobIds).toEqual([5]);
  });

  it('goes on past a refused item, reporting the API message, and skips what depended on it', async () => {
    const target = memoryTarget();
    target.refuse = (call) =>
      call.method === 'createJob' && (call.name === 'c1' || call.name === 'orphan parent')
        ? 'scheduleConf: Invalid cron expression'
        : undefined;
    const plan = planImport(
      dumpOf([
        jobRow({ id: 1, job_desc: 'parent', child_jobid: '2,3' }),
        jobRow({ id: 2, job_desc: 'c1' }),
        jobRow({ id: 3, job_desc: 'c2' }),
        jobRow({ id: 4, job_desc: 'orphan parent', child_jobid: '3' }),
        jobRow({ id: 5, job_desc: 'lonely', child_jobid: '2' }),
      ]),
      target.state(),
    );
    const report = await applyImport(plan, target);
    expect(report.jobs.map((j) => [j.xxlId, j.outcome, j.id ?? null, j.message ?? null])).toEqual([
      [1, 'created', 1, null],
      [2, 'failed', null, 'scheduleConf: Invalid cron expression'],
      [3, 'created', 2, null],
      [4, 'failed', null, 'scheduleConf: Invalid cron expression'],
      [5, 'created', 3, null],
    ]);
    expect(report.links).toEqual([
      {
        xxlId: 1,
        name: 'parent',
        id: 1,
        childXxlIds: [2, 3],
        childJobIds: [2],
        outcome: 'linked',
        message: 'children not created, so not linked: #2',
      },
      {
        xxlId: 4,
        name: 'orphan parent',
        childXxlIds: [3],
        outcome: 'skipped',
        message: 'job #4 was not created',
      },
      {
        xxlId: 5,
        name: 'lonely',
        id: 3,
        childXxlIds: [2],
        outcome: 'skipped',
        message: 'none of its children was created (#2)',
      },
    ]);
    expect(report.counts.jobs).toMatchObject({ created: 3, failed: 2 });
  });

  it('reports a refused group, and the refusals of its jobs as the API words them', async () => {
    const target = memoryTarget();
    target.refuse = (call) =>
      call.method === 'createGroup' ? 'title must be at most 64 characters' : undefined;
    const report = await applyImport(planImport(dumpOf([jobRow()]), target.state()), target);
    expect(report.groups[0]).toMatchObject({
      outcome: 'failed',
      message: 'title must be at most 64 characters',
    });
    expect(report.jobs[0]).toMatchObject({
      outcome: 'failed',
      message: 'appName "xxl-job-executor-sample" is not an executor group; create the group first',
    });
  });

  it('finishes the links a first run could not set when run again', async () => {
    const rows = [jobRow({ id: 1, job_desc: 'p', child_jobid: '2' }), jobRow({ id: 2, job_desc: 'c' })];
    const target = memoryTarget();
    target.refuse = (call) => (call.method === 'updateJob' ? 'service unavailable' : undefined);
    const first = await applyImport(planImport(dumpOf(rows), target.state()), target);
    expect(first.links[0]).toMatchObject({ outcome: 'failed', message: 'service unavailable' });
    delete target.refuse;
    const again = planImport(dumpOf(rows), target.state());
    expect(again.links).toEqual([{ parentXxlId: 1, parentId: 1, name: 'p', keepIds: [], childXxlIds: [2] }]);
    const second = await applyImport(again, target);
    expect(second.counts.jobs.exists).toBe(2);
    expect(second.links[0]).toMatchObject({ outcome: 'linked', childJobIds: [2] });
    expect(target.jobs.get(1)?.childJobIds).toEqual([2]);
  });

  it('links a cycle of XXL-JOB children as far as tickring allows, with no refusal', async () => {
    const target = memoryTarget();
    const plan = planImport(
      dumpOf([
        jobRow({ id: 1, job_desc: 'a', child_jobid: '2' }),
        jobRow({ id: 2, job_desc: 'b', child_jobid: '1' }),
      ]),
      target.state(),
    );
    const report = await applyImport(plan, target);
    expect(report.links.map((l) => l.outcome)).toEqual(['linked']);
    expect(report.jobs[1]?.changes).toEqual([
      'childJobIds: child job 1 dropped: it would close the cycle #2 → #1 → #2 (tickring refuses child cycles; XXL-JOB allowed them)',
    ]);
  });

  it("sets a 3.5 group's own token after creating it; a refusal is a note, the group stays created", async () => {
    const text = [
      'INSERT INTO xxl_job_group (id, app_name, name, address_type, access_token) VALUES',
      "(1, 'app-one', 'One', 0, 'token-of-app-one'), (2, 'app-two', 'Two', 0, 'token-of-app-two');",
    ].join('\n');
    const target = memoryTarget();
    target.refuse = (call) =>
      call.method === 'setGroupAccessToken' && call.appName === 'app-two'
        ? 'sealing key unavailable'
        : undefined;
    const report = await applyImport(planImport(parseDump(text), target.state()), target);
    expect(target.tokens.get('app-one')).toBe('token-of-app-one');
    expect(report.groups.map((g) => [g.appName, g.outcome, g.accessToken])).toEqual([
      ['app-one', 'created', 'set'],
      ['app-two', 'created', 'failed'],
    ]);
    expect(report.groups[1]?.notes).toContain(
      'accessToken: not set: sealing key unavailable; set it with PUT /v1/groups/app-two/access-token',
    );
    expect(JSON.stringify(report)).not.toContain('token-of-app');
    // Run again: the group that has its token is left alone, the other gets it.
    delete target.refuse;
    const again = planImport(parseDump(text), target.state());
    expect(again.groups.map((g) => [g.action, g.accessToken])).toEqual([
      ['exists', undefined],
      ['exists', 'token-of-app-two'],
    ]);
    await applyImport(again, target);
    expect(target.tokens.get('app-two')).toBe('token-of-app-two');
  });

  it('reports progress per item and phase', async () => {
    const seen: ApplyProgress[] = [];
    const target = memoryTarget();
    const plan = planImport(
      dumpOf([jobRow({ id: 1, child_jobid: '2' }), jobRow({ id: 2, job_desc: 'b' })]),
      target.state(),
    );
    await applyImport(plan, target, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { phase: 'groups', done: 1, total: 1 },
      { phase: 'jobs', done: 1, total: 2 },
      { phase: 'jobs', done: 2, total: 2 },
      { phase: 'links', done: 1, total: 1 },
    ]);
  });

  it('reports a target that answers without an id as a failure', async () => {
    const target = memoryTarget();
    const plan = planImport(dumpOf([jobRow()]), target.state());
    const report = await applyImport(plan, { ...target, createJob: async () => ({}) as { id: number } });
    expect(report.jobs[0]).toMatchObject({
      outcome: 'failed',
      message: 'the API answered without a job id ({})',
    });
  });

  it('a dry run is the plan reported: nothing sent', () => {
    const target = memoryTarget();
    const report = planReport(
      planImport(dumpOf([jobRow({ child_jobid: '2' }), jobRow({ id: 2, job_desc: 'b' })]), target.state()),
    );
    expect(target.calls).toEqual([]);
    expect(report.dryRun).toBe(true);
    expect(report.counts.jobs.create).toBe(2);
    expect(report.counts.links.link).toBe(1);
  });
});
