import { describe, expect, it } from 'vitest';
import { applyImport, type ImportReport } from './apply.js';
import type { ExportDocument } from './document.js';
import { planImport } from './plan.js';
import { countReport, formatReport, shortfalls } from './report.js';
import { type FakeTarget, fakeTarget, group, job } from './test-support/fake-target.js';
import { jobBody, sourceDocument, sourceInstallation } from './test-support/source.js';

async function importInto(
  target: FakeTarget,
  document: ExportDocument = sourceDocument(),
  options: { dryRun?: boolean; start?: boolean } = {},
): Promise<ImportReport> {
  const plan = planImport(document, target.state());
  return applyImport(plan, target, { dryRun: options.dryRun ?? false, start: options.start ?? false });
}

/** A target that has a group and two jobs of its own already (so the new ids differ from the source's). */
function busyTarget(): FakeTarget {
  return fakeTarget({
    groups: [group({ appName: 'other', title: 'Other', addressType: 'AUTO' })],
    jobs: [job(1, jobBody('other', 'mine')), job(2, jobBody('other', 'mine too'))],
  });
}

describe('import of an export document', () => {
  it('creates groups, jobs, the workflow and the links with every id remapped, everything STOPPED', async () => {
    const target = busyTarget();
    const report = await importInto(target);

    expect(report.ids.jobs).toEqual({ 3: 3, 4: 4, 5: 5, 7: 6, 9: 7 });
    expect(report.ids.workflows).toEqual({ 2: 1 });
    const byName = (name: string) => target.jobs.find((j) => j.name === name);
    // nightly (source #3) → notify (#5) becomes 3 → 5; after etl (#9) → the workflow's schedule job (#8).
    expect(byName('nightly')?.childJobIds).toEqual([byName('notify')?.id]);
    const starter = target.jobs.find((j) => j.workflowId === 1);
    expect(byName('after etl')?.childJobIds).toEqual([starter?.id]);
    expect(target.workflows[0]?.nodes.map((n) => [n.key, n.jobId])).toEqual([
      ['extract', byName('extract')?.id],
      ['load', byName('load')?.id],
    ]);
    expect(target.workflows[0]?.nodes[1]).toMatchObject({
      executorParam: '{{ nodes.extract.result }}',
      upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
    });
    expect(target.jobs.every((j) => j.triggerStatus === 'STOPPED')).toBe(true);
    expect(target.workflows[0]?.triggerStatus).toBe('STOPPED');
    expect(target.workflows[0]?.deadline).toEqual({ time: '06:00', timeZone: 'Europe/Berlin' });
    expect(byName('notify')).toMatchObject({
      alarmWebhook: 'https://hooks.example.com/x',
      retryBackoffSeconds: 5,
    });
    expect(target.groups.find((g) => g.appName === 'reports')?.addressList).toEqual([
      'http://10.0.0.5:9999/',
    ]);

    expect(countReport(report)).toEqual({
      groups: { created: 2 },
      jobs: { created: 5 },
      workflows: { created: 1 },
      links: { linked: 2 },
      starts: { 'to start': 2 },
    });
    expect(report.groups[0]?.notes[0]).toMatch(/own access token, which is not exported/);
    expect(shortfalls(report)).toEqual([]);
    expect(formatReport(report)).toContain('run the import again\nwith --start');
  });

  it('a second import creates nothing and sends nothing; with --start it starts what was RUNNING', async () => {
    const target = busyTarget();
    await importInto(target);
    const writes = target.calls.length;

    const again = await importInto(target);
    expect(target.calls.length).toBe(writes);
    expect(countReport(again)).toEqual({
      groups: { exists: 2 },
      jobs: { exists: 5 },
      workflows: { exists: 1 },
      links: { there: 2 },
      starts: { 'to start': 2 },
    });
    expect(again.jobs.flatMap((j) => j.differences)).toEqual([]);
    expect(again.workflows[0]?.differences).toEqual([]);

    const started = await importInto(target, sourceDocument(), { start: true });
    expect(target.calls.slice(writes)).toEqual(['startJob #3', 'startWorkflow #1']);
    expect(started.starts.map((s) => [s.kind, s.ref, s.id, s.outcome])).toEqual([
      ['job', '#3', 3, 'started'],
      ['workflow', '#2', 1, 'started'],
    ]);
    const afterwards = await importInto(target, sourceDocument(), { start: true });
    expect(afterwards.starts.map((s) => s.outcome)).toEqual(['running', 'running']);
  });

  it('a re-run after a failure half-way creates only what is missing, and completes the links', async () => {
    const target = busyTarget();
    target.refuse = (call) => (call === 'createJob notify' ? 'the store was busy' : undefined);
    const first = await importInto(target);
    expect(first.jobs.find((j) => j.ref === '#5')).toMatchObject({
      outcome: 'failed',
      message: 'the store was busy',
    });
    expect(first.links.find((l) => l.ref === '#3')).toMatchObject({
      outcome: 'skipped',
      message: 'none of its children was imported (#5)',
    });
    expect(shortfalls(first)).toEqual(['1 job(s) failed', '1 child link(s) skipped']);

    target.refuse = () => undefined;
    const second = await importInto(target);
    expect(countReport(second).jobs).toEqual({ exists: 4, created: 1 });
    expect(target.jobs.filter((j) => j.name === 'notify')).toHaveLength(1);
    const notify = target.jobs.find((j) => j.name === 'notify');
    expect(target.jobs.find((j) => j.name === 'nightly')?.childJobIds).toEqual([notify?.id]);
    expect(second.links.map((l) => l.outcome)).toEqual(['linked', 'there']);
    expect(shortfalls(second)).toEqual([]);
  });

  it('a job whose group was refused is skipped, and so is a workflow whose node job was not imported', async () => {
    const target = fakeTarget();
    target.refuse = (call) => (call === 'createGroup reports' ? 'no' : undefined);
    const report = await importInto(target);
    expect(report.jobs.filter((j) => j.outcome === 'skipped').map((j) => [j.ref, j.message])).toEqual([
      ['#4', 'its group reports was not created'],
      ['#7', 'its group reports was not created'],
      ['#9', 'its group reports was not created'],
    ]);
    expect(report.workflows[0]).toMatchObject({
      outcome: 'skipped',
      message: 'the jobs of its nodes were not imported: extract (#4), load (#7)',
    });
    expect(report.starts.map((s) => s.outcome)).toEqual(['to start', 'skipped']);
  });

  it('pairs identical jobs in id order, so two stay two on every run', async () => {
    const document = sourceDocument();
    const twin = { ...document.jobs[2], id: 20 } as ExportDocument['jobs'][number];
    const withTwins = { ...document, jobs: [...document.jobs, twin] };
    const target = fakeTarget();
    await importInto(target, withTwins);
    expect(target.jobs.filter((j) => j.name === 'notify')).toHaveLength(2);
    const again = await importInto(target, withTwins);
    expect(
      again.jobs.filter((j) => j.ref === '#5' || j.ref === '#20').map((j) => [j.ref, j.outcome, j.id]),
    ).toEqual([
      ['#5', 'exists', 3],
      ['#20', 'exists', 6],
    ]);
    expect(target.jobs.filter((j) => j.name === 'notify')).toHaveLength(2);
  });

  it("finds nothing changed on a second import of objects: a failure policy, a deadline, a workflow's calendars", async () => {
    const source = sourceInstallation();
    const nightly = source.jobs.find((j) => j.name === 'nightly');
    const etl = source.workflows[0];
    if (!nightly || !etl) throw new Error('the source changed');
    Object.assign(nightly, {
      failurePolicy: { pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 },
      deadline: { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' },
    });
    Object.assign(etl, { calendars: { only: [], exclude: ['holidays'] } });
    const target = fakeTarget();
    await importInto(target, sourceDocument(source));
    expect(target.workflows[0]?.calendars).toEqual({ only: [], exclude: ['holidays'] });

    const again = await importInto(target, sourceDocument(source));
    expect(again.jobs.flatMap((j) => j.differences)).toEqual([]);
    expect(again.workflows[0]?.differences).toEqual([]);
  });

  it('reports what differs on what it finds, and leaves it as it is', async () => {
    const target = fakeTarget();
    await importInto(target);
    const notify = target.jobs.find((j) => j.name === 'notify');
    if (notify) notify.executorTimeout = 99;
    if (target.groups[0]) target.groups[0].title = 'Billing (new)';
    const etl = target.workflows[0];
    if (etl) etl.deadline = { time: '07:00', timeZone: 'Europe/Berlin', days: 'weekdays' };
    const writes = target.calls.length;
    const again = await importInto(target);
    expect(target.calls.length).toBe(writes);
    expect(again.jobs.find((j) => j.ref === '#5')?.differences).toEqual([
      'executorTimeout: 99 here, 30 in the export',
    ]);
    expect(again.groups[0]?.differences).toEqual(['title: "Billing (new)" here, "Billing" in the export']);
    expect(again.workflows[0]?.differences).toEqual([
      'deadline: {"time":"07:00","timeZone":"Europe/Berlin","days":"weekdays"} here, {"time":"06:00","timeZone":"Europe/Berlin"} in the export',
    ]);
  });

  it('a dry run sends nothing and says what it would do, links and starts included', async () => {
    const target = busyTarget();
    const report = await importInto(target, sourceDocument(), { dryRun: true, start: true });
    expect(target.calls).toEqual([]);
    expect(countReport(report)).toEqual({
      groups: { create: 2 },
      jobs: { create: 5 },
      workflows: { create: 1 },
      links: { link: 2 },
      starts: { start: 2 },
    });
    expect(report.ids).toEqual({ jobs: {}, workflows: {} });
    expect(formatReport(report)).toMatch(/^Dry run: nothing was sent\./);
  });
});
