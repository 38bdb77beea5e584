import { describe, expect, it } from 'vitest';
import { applyImport } from './apply.js';
import { parseDump } from './parse-dump.js';
import { planImport } from './plan.js';
import { formatReport, planReport } from './report.js';
import { groupRow, jobRow, mysqldump } from './test-support/dumps.js';
import { memoryTarget } from './test-support/memory-target.js';

const text = [
  mysqldump({
    groups: [
      groupRow(),
      groupRow({
        id: 2,
        app_name: 'billing',
        title: 'Billing',
        address_type: 1,
        address_list: 'http://10.0.0.7:9999,bad',
      }),
      groupRow({ id: 3, app_name: 'no', title: 'Too short' }),
    ],
    jobs: [
      jobRow({ id: 1, child_jobid: '2,9', trigger_status: 1 }),
      jobRow({
        id: 2,
        job_group: 2,
        job_desc: 'invoice',
        schedule_type: 'FIX_RATE',
        schedule_conf: '60',
        author: '',
      }),
      jobRow({ id: 3, job_group: 3, job_desc: 'lost' }),
      jobRow({
        id: 4,
        job_desc: 'script',
        glue_type: 'GLUE_SHELL',
        executor_handler: '',
        glue_source: 'echo 1',
      }),
    ],
  }),
  "INSERT INTO xxl_job_group (id, app_name, name, address_type, access_token) VALUES (4, 'tokened', 'T', 0, 'secret-token-value');",
].join('\n');

describe('formatReport', () => {
  it('renders a dry run: counts, then one line per item with what changed, then what to start and the notes', () => {
    const out = formatReport(planReport(planImport(parseDump(text), { groups: [], jobs: [] })));
    expect(out).toContain('XXL-JOB import: dry run, nothing was sent to tickring\n');
    expect(out).toContain('Groups: 3 to create, 1 skipped\n');
    expect(out).toContain('Jobs: 3 to create, 1 skipped\n');
    expect(out).toContain('Child links: 1 to link\n');
    expect(out).toContain(
      '  + billing "Billing" MANUAL http://10.0.0.7:9999/ (XXL-JOB group 2): to create\n',
    );
    expect(out).toContain('      changed: addressList: "bad" dropped: not an http(s) URL\n');
    expect(out).toMatch(
      / {2}- no "Too short" \(XXL-JOB group 3\): skipped: its appName "no" is not one tickring accepts/,
    );
    expect(out).toContain('  + tokened "T" AUTO (XXL-JOB group 4): to create\n      access token: to set\n');
    expect(out).toContain(
      '  + #1 "测试任务1" → xxl-job-executor-sample, CRON 0 0 0 * * ? *, BEAN demoJobHandler: to create\n',
    );
    expect(out).toContain('      changed: childJobIds: child job 9 is not in the dump; dropped\n');
    expect(out).toContain('  + #2 "invoice" → billing, FIX_RATE 60, BEAN demoJobHandler: to create\n');
    expect(out).toContain(
      '  + #4 "script" → xxl-job-executor-sample, CRON 0 0 0 * * ? *, GLUE_SHELL: to create\n',
    );
    expect(out).toMatch(/ {2}- #3 "lost": skipped: its group 3 is not imported/);
    expect(out).toContain('  > #1 children #2: to link\n');
    expect(out).toContain(
      'RUNNING in XXL-JOB, STOPPED in tickring: start them once their executors are registered\n  #1 "测试任务1"\n',
    );
    expect(out).toContain('Notes\n  - CRON schedules are read in UTC');
    expect(out).not.toContain('secret-token-value');
  });

  it('renders an applied run with ids, failures and the start commands', async () => {
    const target = memoryTarget();
    target.refuse = (call) =>
      call.method === 'createJob' && call.name === 'script' ? 'glueSource: too long' : undefined;
    const report = await applyImport(planImport(parseDump(text), target.state()), target);
    const out = formatReport(report);
    expect(out).toContain('XXL-JOB import: done\n');
    expect(out).toContain('Jobs: 2 created, 1 skipped, 1 FAILED\n');
    expect(out).toContain(
      '  + #1 "测试任务1" → xxl-job-executor-sample, CRON 0 0 0 * * ? *, BEAN demoJobHandler: created as job 1\n',
    );
    expect(out).toContain(
      '  ! #4 "script" → xxl-job-executor-sample, CRON 0 0 0 * * ? *, GLUE_SHELL: FAILED: glueSource: too long\n',
    );
    expect(out).toContain('  > #1 (job 1) children #2 → childJobIds [2]: linked\n');
    expect(out).toContain('  + tokened "T" AUTO (XXL-JOB group 4): created\n      access token: set\n');
    expect(out).toContain('  #1 "测试任务1": POST /v1/jobs/1/start\n');
    expect(out).not.toContain('secret-token-value');
  });

  it('is JSON as it is (for --json), without the tokens', async () => {
    const report = await applyImport(planImport(parseDump(text), { groups: [], jobs: [] }), memoryTarget());
    const json = JSON.stringify(report);
    expect(JSON.parse(json)).toEqual(report);
    expect(json).not.toContain('secret-token-value');
    const dry = planReport(planImport(parseDump(text), { groups: [], jobs: [] }));
    expect(JSON.parse(JSON.stringify(dry))).toEqual(dry);
    expect(JSON.stringify(dry)).not.toContain('secret-token-value');
  });
});
