/**
 * `tickring import xxl-job` through the real admin API of a local stack, with XXL-JOB's own sample
 * dumps of 2.4.2 and 3.4.2: a dry run creates nothing, an import creates the groups and jobs, and
 * running it again creates nothing twice. The commands run through the program in this process
 * (run-program.ts); cli.int.test.ts runs the built binary.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_LINE } from './test-support/run-cli.js';
import { runProgram as run } from './test-support/run-program.js';
import { type Stack, startStack } from './test-support/stack.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`./import-xxl-job/test-support/fixtures/${name}`, import.meta.url));
const DUMP_2_4 = fixture('tables_xxl_job-2.4.2.sql');
const DUMP_3_4 = fixture('tables_xxl_job-3.4.2.sql');

interface JobView {
  readonly id: number;
  readonly appName: string;
  readonly name: string;
  readonly executorHandler: string;
  readonly scheduleType: string;
  readonly scheduleConf: string;
  readonly timeZone: string;
  readonly triggerStatus: string;
}

describe('tickring import xxl-job against a local stack', () => {
  let e: Stack;
  let env: Record<string, string>;

  const state = async () => {
    const groups = (await e.call('GET', '/v1/groups')).body.items as { appName: string; title: string }[];
    const jobs = (await e.call('GET', '/v1/jobs?limit=100')).body.items as JobView[];
    return { groups, jobs };
  };

  beforeAll(async () => {
    e = await startStack('cli-import');
    env = { TICKRING_URL: e.stack.urls.api, TICKRING_TOKEN: e.stack.tokens.adminToken, HOME: '/nonexistent' };
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('2.4.2: --dry-run reports the plan and creates nothing', async () => {
    const res = await run(['import', 'xxl-job', DUMP_2_4, '--dry-run', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({
      dryRun: true,
      counts: { groups: { create: 1 }, jobs: { create: 1 } },
      groups: [{ appName: 'xxl-job-executor-sample', outcome: 'create' }],
      jobs: [{ xxlId: 1, name: '测试任务1', outcome: 'create' }],
    });
    expect(await state()).toEqual({ groups: [], jobs: [] });
  });

  it('2.4.2: imports the group and its job, then finds them the second time', async () => {
    const first = await run(['import', 'xxl-job', DUMP_2_4, '--time-zone', 'Asia/Shanghai'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('XXL-JOB import: done');
    expect(first.stdout).toContain('Groups: 1 created');
    expect(first.stdout).toContain('Jobs: 1 created');
    expect(first.stdout).toMatch(
      /\+ #1 "测试任务1" → xxl-job-executor-sample, CRON 0 0 0 \* \* \? \*, BEAN demoJobHandler: created as job \d+/,
    );

    const after = await state();
    expect(after.groups.map((g) => g.appName)).toEqual(['xxl-job-executor-sample']);
    expect(after.jobs).toEqual([
      expect.objectContaining({
        appName: 'xxl-job-executor-sample',
        name: '测试任务1',
        executorHandler: 'demoJobHandler',
        scheduleType: 'CRON',
        scheduleConf: '0 0 0 * * ? *',
        timeZone: 'Asia/Shanghai',
        triggerStatus: 'STOPPED',
      }),
    ]);

    const second = await run(['import', 'xxl-job', DUMP_2_4, '--time-zone', 'Asia/Shanghai', '--json'], {
      env,
    });
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout);
    expect(report.counts.groups).toMatchObject({ created: 0, exists: 1 });
    expect(report.counts.jobs).toMatchObject({ created: 0, exists: 1 });
    expect(report.jobs[0]).toMatchObject({ outcome: 'exists', id: after.jobs[0]?.id });
    expect(await state()).toEqual(after);
  });

  it('3.4.2: creates what 2.4.2 did not bring (a second group, four jobs), and nothing on a second run', async () => {
    const before = await state();
    const dry = await run(['import', 'xxl-job', DUMP_3_4, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry run, nothing was sent');
    expect(await state()).toEqual(before);

    const first = await run(['import', 'xxl-job', DUMP_3_4, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.counts.groups).toMatchObject({ created: 1, exists: 1, failed: 0 });
    expect(report.counts.jobs).toMatchObject({ created: 4, failed: 0, skipped: 0 });

    const after = await state();
    expect(after.groups.map((g) => g.appName).sort()).toEqual([
      'xxl-job-executor-sample',
      'xxl-job-executor-sample-ai',
    ]);
    expect(after.jobs).toHaveLength(5);
    expect(
      after.jobs.filter((j) => j.appName === 'xxl-job-executor-sample-ai').map((j) => j.executorHandler),
    ).toEqual(['ollamaJobHandler', 'difyWorkflowJobHandler', 'openClawJobHandler']);

    const second = await run(['import', 'xxl-job', DUMP_3_4], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Groups: 2 already in tickring');
    expect(second.stdout).toContain('Jobs: 4 already in tickring');
    expect(await state()).toEqual(after);
  });

  it('says what could not be imported and exits 1; a bad dump or option is no stack trace', async () => {
    // A job whose group is not in the dump cannot be imported.
    const dir = await mkdtemp(join(tmpdir(), 'tickring-cli-import-'));
    try {
      const orphan = join(dir, 'orphan.sql');
      await writeFile(
        orphan,
        "INSERT INTO `xxl_job_info`(`id`, `job_group`, `job_desc`, `author`, `schedule_type`, `schedule_conf`, `executor_handler`, `glue_type`) VALUES (7, 42, 'orphan', 'ops', 'CRON', '0 0 * * * ?', 'h', 'BEAN');\n",
      );
      const res = await run(['import', 'xxl-job', orphan], { env });
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/- #7 "orphan".*: skipped/);
      expect(res.stderr).toContain('Not imported: 1 job(s) skipped');

      const broken = join(dir, 'broken.sql');
      await writeFile(broken, "INSERT INTO `xxl_job_group` VALUES (1, 'unterminated\n");
      const parse = await run(['import', 'xxl-job', broken], { env });
      expect(parse.code).toBe(1);
      expect(parse.stderr).toMatch(/^error: .*broken\.sql: line \d+: /);
      expect(parse.stderr).not.toMatch(STACK_LINE);

      const zone = await run(['import', 'xxl-job', DUMP_2_4, '--time-zone', 'Mars/Olympus'], { env });
      expect(zone.code).toBe(2);
      expect(zone.stderr).toMatch(/^error: --time-zone: /);

      const none = await run(['import', 'xxl-job', join(dir, 'none.sql')], { env });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/^error: cannot read .*none\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
