/**
 * Moving an installation with the command line: `tickring export` from one local stack, `tickring
 * import tickring` into a second one (each on its own SQLite file), as a user would move from one box
 * to another. The commands run through the program in this process (run-program.ts), but for the
 * export to stdout, which the built binary writes as a child process: the whole document through a
 * pipe before it exits.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, STACK_LINE } from './test-support/run-cli.js';
import { runProgram as run } from './test-support/run-program.js';
import { type Stack, startStack } from './test-support/stack.js';

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
type Body = any;

describe('tickring export, then tickring import tickring into another stack', () => {
  let source: Stack;
  let target: Stack;
  let dir: string;
  let file: string;
  let appName: string;
  const manualApp = `manual-${Date.now().toString(36)}`;
  const sourceIds: Record<string, number> = {};
  let sourceWorkflowId: number;

  const envOf = (s: Stack) => ({
    TICKRING_URL: s.stack.urls.api,
    TICKRING_TOKEN: s.stack.tokens.adminToken,
    HOME: dir,
  });
  const list = async (s: Stack, path: string): Promise<Body[]> => {
    const reply = await s.call('GET', `${path}?limit=100`);
    expect(reply.status).toBe(200);
    return reply.body.items;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tickring-export-int-'));
    file = join(dir, 'export.json');
    [source, target] = await Promise.all([startStack('export-src'), startStack('export-dst')]);

    appName = await source.createAutoGroup('moving');
    const manual = await source.call('POST', '/v1/groups', {
      appName: manualApp,
      title: 'Manual one',
      addressType: 'MANUAL',
      addressList: ['http://10.0.0.5:9999/'],
    });
    expect(manual.status).toBe(201);
    // A job of the target's own first, so the target numbers the imported ones differently.
    const targetGroup = await target.createAutoGroup('already-here');
    await target.createJob({ appName: targetGroup, name: 'resident', executorHandler: 'resident' });

    const notify = await source.createJob({ appName, name: 'notify', executorHandler: 'notify' });
    const nightly = await source.createJob({
      appName,
      name: 'nightly',
      executorHandler: 'nightly',
      scheduleType: 'CRON',
      scheduleConf: '0 0 2 * * ?',
      timeZone: 'Europe/Berlin',
      executorFailRetryCount: 3,
      retryBackoffSeconds: 7,
      alarmEmail: 'ops@example.com',
      childJobIds: [notify.id],
      triggerStatus: 'RUNNING',
    });
    const extract = await source.createJob({ appName, name: 'extract', executorHandler: 'extract' });
    const load = await source.createJob({ appName: manualApp, name: 'load', executorHandler: 'load' });
    Object.assign(sourceIds, { notify: notify.id, nightly: nightly.id, extract: extract.id, load: load.id });
    const workflow = await source.call('POST', '/v1/workflows', {
      name: 'etl',
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0 0 3 * * ?',
      overlapPolicy: 'BUFFER_ONE',
      triggerStatus: 'RUNNING',
      nodes: [
        { key: 'extract', jobId: extract.id },
        { key: 'notify', jobId: notify.id, upstream: [{ key: 'extract', condition: 'ALWAYS' }] },
      ],
    });
    expect(workflow.status).toBe(201);
    sourceWorkflowId = workflow.body.id;
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([source?.stop(), target?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('export writes one versioned document of groups, jobs and workflows; progress and summary on stderr', async () => {
    const exported = await run(['export', file], { env: envOf(source) });
    expect(exported.stderr).not.toMatch(STACK_LINE);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toContain('Exported 2 group(s), 4 job(s), 1 workflow(s)');

    const doc = JSON.parse(await readFile(file, 'utf8'));
    expect(doc).toMatchObject({ format: 'tickring-export', version: 1, source: source.stack.urls.api });
    expect(doc.groups.map((g: Body) => g.appName).sort()).toEqual([appName, manualApp].sort());
    // The workflow's schedule job goes with the workflow, not among the jobs.
    expect(doc.jobs.map((j: Body) => j.name)).toEqual(['notify', 'nightly', 'extract', 'load']);
    expect(doc.workflows[0]).toMatchObject({ id: sourceWorkflowId, overlapPolicy: 'BUFFER_ONE' });

    const toStdout = await cli(['export'], { env: envOf(source) });
    expect(toStdout.code).toBe(0);
    expect(JSON.parse(toStdout.stdout).jobs).toEqual(doc.jobs);
  });

  it('a document with problems is refused whole, every problem listed, nothing written', async () => {
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.jobs[1].childJobIds = [999_999];
    doc.jobs[2].scheduleType = 'CRON';
    doc.jobs[2].scheduleConf = 'not a cron';
    const broken = join(dir, 'broken.json');
    await writeFile(broken, JSON.stringify(doc));

    const refused = await run(['import', 'tickring', broken], { env: envOf(target) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be imported (1 problem; nothing was written)');
    expect(refused.stderr).toContain('.childJobIds: job #999999 is not in the document');
    expect((await list(target, '/v1/groups')).map((g) => g.appName)).not.toContain(appName);

    // Only the schedule wrong: the server's preview finds it before any write.
    doc.jobs[1].childJobIds = [sourceIds.notify];
    await writeFile(broken, JSON.stringify(doc));
    const badCron = await run(['import', 'tickring', broken], { env: envOf(target) });
    expect(badCron.code).toBe(1);
    expect(badCron.stderr).toMatch(/job #\d+: CRON "not a cron" in UTC: /);
    expect((await list(target, '/v1/groups')).map((g) => g.appName)).not.toContain(appName);
  });

  it('import recreates the configuration STOPPED with ids remapped; a second import creates nothing', async () => {
    const dry = await run(['import', 'tickring', file, '--dry-run'], { env: envOf(target) });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: nothing was sent\./);
    expect((await list(target, '/v1/jobs')).map((j) => j.name)).toEqual(['resident']);

    const imported = await run(['import', 'tickring', file, '--json'], { env: envOf(target) });
    expect(imported.stderr).not.toMatch(STACK_LINE);
    expect(imported.code).toBe(0);
    const report = JSON.parse(imported.stdout);
    expect(report.starts.map((s: Body) => [s.kind, s.outcome])).toEqual([
      ['job', 'to start'],
      ['workflow', 'to start'],
    ]);

    const jobs = await list(target, '/v1/jobs');
    const named = (name: string) => jobs.find((j) => j.name === name && j.workflowId === null);
    const [notify, nightly, extract, load] = ['notify', 'nightly', 'extract', 'load'].map(named);
    expect(report.ids.jobs).toEqual({
      [sourceIds.notify as number]: notify.id,
      [sourceIds.nightly as number]: nightly.id,
      [sourceIds.extract as number]: extract.id,
      [sourceIds.load as number]: load.id,
    });
    expect(notify.id).not.toBe(sourceIds.notify);
    expect(nightly).toMatchObject({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0 0 2 * * ?',
      timeZone: 'Europe/Berlin',
      executorFailRetryCount: 3,
      retryBackoffSeconds: 7,
      alarmEmail: 'ops@example.com',
      childJobIds: [notify.id],
      triggerStatus: 'STOPPED',
    });
    expect(load.appName).toBe(manualApp);
    expect(jobs.every((j) => j.triggerStatus === 'STOPPED')).toBe(true);

    const groups = await list(target, '/v1/groups');
    expect(groups.find((g) => g.appName === manualApp)).toMatchObject({
      addressType: 'MANUAL',
      addressList: ['http://10.0.0.5:9999/'],
    });

    const [workflow] = (await list(target, '/v1/workflows')).filter((w) => w.name === 'etl');
    expect(workflow).toMatchObject({
      appName,
      scheduleConf: '0 0 3 * * ?',
      overlapPolicy: 'BUFFER_ONE',
      triggerStatus: 'STOPPED',
    });
    expect(workflow.nodes.map((n: Body) => [n.key, n.jobId, n.upstream])).toEqual([
      ['extract', extract.id, []],
      ['notify', notify.id, [{ key: 'extract', condition: 'ALWAYS' }]],
    ]);

    const again = await run(['import', 'tickring', file, '--json'], { env: envOf(target) });
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(
      [...second.groups, ...second.jobs, ...second.workflows].every((i: Body) => i.outcome === 'exists'),
    ).toBe(true);
    expect(second.links.map((l: Body) => l.outcome)).toEqual(['there']);
    expect(await list(target, '/v1/jobs')).toHaveLength(jobs.length);
    expect(await list(target, '/v1/workflows')).toHaveLength(1);
  });
});
