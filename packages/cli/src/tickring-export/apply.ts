/**
 * Carries an import plan out (or, in a dry run, says what it would do: the same steps, nothing sent),
 * in the order the API needs: groups, jobs (without children), workflows (their nodes' jobs remapped
 * to the target's ids), then the child links (remapped; a child may be a workflow's schedule job,
 * which exists only once its workflow does), then, with `start`, what was RUNNING on the source.
 *
 * Everything is created STOPPED: during a move the source still schedules its jobs, and two
 * schedulers on one set of jobs would fire each of them twice. One call at a time, in source id
 * order, so the target numbers what it creates in that order (the order the identity rule pairs in).
 * A refused item is reported with the API's message and the rest goes on; what depends on it is
 * reported as skipped.
 */

import type { ExportedJob, ExportedWorkflow } from './document.js';
import { calendarsKey, difference, type ImportPlan, type PlannedJob } from './plan.js';

/** What the import needs from the target; the CLI implements it with the admin API's client. */
export interface ImportTarget {
  createGroup(body: {
    appName: string;
    title: string;
    addressType: 'AUTO' | 'MANUAL';
    addressList?: string[];
  }): Promise<unknown>;
  createJob(body: JobCreateBody): Promise<{ readonly id: number }>;
  /** `PUT /v1/jobs/{id}` with only `childJobIds`. */
  setChildJobs(id: number, childJobIds: readonly number[]): Promise<unknown>;
  createWorkflow(
    body: WorkflowCreateBody,
  ): Promise<{ readonly id: number; readonly starterJobId: number | null }>;
  startJob(id: number): Promise<unknown>;
  startWorkflow(id: number): Promise<unknown>;
}

export type JobCreateBody = Omit<ExportedJob, 'id' | 'childJobIds' | 'triggerStatus'> & {
  readonly childJobIds: readonly number[];
  readonly triggerStatus: 'STOPPED';
};

export type WorkflowCreateBody = Omit<ExportedWorkflow, 'id' | 'starterJobId' | 'triggerStatus'> & {
  readonly triggerStatus: 'STOPPED';
};

export type ItemOutcome = 'create' | 'created' | 'exists' | 'failed' | 'skipped';
export type LinkOutcome = 'link' | 'linked' | 'there' | 'failed' | 'skipped';
export type StartOutcome = 'to start' | 'start' | 'started' | 'running' | 'failed' | 'skipped';

export interface ItemReport {
  /** The group's appName, or `#<source id>`. */
  readonly ref: string;
  readonly name: string;
  outcome: ItemOutcome;
  /** The target's id (jobs and workflows created or found). */
  id?: number;
  /** Why it was skipped, or the API's message when it failed. */
  message?: string;
  differences: string[];
  readonly notes: string[];
}

export interface LinkReport {
  /** The parent, `#<source id>`. */
  readonly ref: string;
  readonly name: string;
  /** The parent's id on the target. */
  id?: number;
  /** The children, by source id. */
  readonly children: readonly number[];
  /** The parent's childJobIds as sent (kept and added). */
  childJobIds?: number[];
  outcome: LinkOutcome;
  message?: string;
}

export interface StartReport {
  readonly kind: 'job' | 'workflow';
  readonly ref: string;
  readonly name: string;
  /** The target's id; null in a dry run for what is still to be created. */
  id?: number | null;
  outcome: StartOutcome;
  message?: string;
}

export interface ImportReport {
  readonly dryRun: boolean;
  readonly start: boolean;
  readonly source: { readonly url: string; readonly exportedAt: string };
  readonly groups: readonly ItemReport[];
  readonly jobs: readonly ItemReport[];
  readonly workflows: readonly ItemReport[];
  readonly links: readonly LinkReport[];
  /** What was RUNNING on the source. */
  readonly starts: readonly StartReport[];
  /** Source id → target id of the jobs and workflows created or found. */
  readonly ids: {
    readonly jobs: Readonly<Record<string, number>>;
    readonly workflows: Readonly<Record<string, number>>;
  };
}

export interface ApplyProgress {
  readonly phase: 'groups' | 'jobs' | 'workflows' | 'links' | 'starts';
  readonly done: number;
  readonly total: number;
}

export interface ApplyOptions {
  /** Send nothing: report what would be done. */
  readonly dryRun: boolean;
  /** Start what was RUNNING on the source (once everything is created and linked). */
  readonly start: boolean;
  readonly onProgress?: (progress: ApplyProgress) => void;
}

/** A source id's target id; null in a dry run when it is still to be created; absent: not imported. */
type IdMap = Map<number, number | null>;

export async function applyImport(
  plan: ImportPlan,
  target: ImportTarget,
  options: ApplyOptions,
): Promise<ImportReport> {
  const { dryRun } = options;
  const progress = options.onProgress ?? (() => {});

  const groups: ItemReport[] = [];
  const groupFailed = new Set<string>();
  for (const [i, planned] of plan.groups.entries()) {
    const { source } = planned;
    const report = item(source.appName, source.title, planned.action, planned.differences);
    if (source.hasOwnAccessToken) {
      report.notes.push(
        `had its own access token, which is not exported: set it with PUT /v1/groups/${source.appName}/access-token (the value its executors have)`,
      );
    }
    if (planned.action === 'create' && !dryRun) {
      await attempt(report, async () => {
        await target.createGroup({
          appName: source.appName,
          title: source.title,
          addressType: source.addressType,
          ...(source.addressList ? { addressList: [...source.addressList] } : {}),
        });
        report.outcome = 'created';
      });
      if (report.outcome === 'failed') groupFailed.add(source.appName);
    }
    groups.push(report);
    progress({ phase: 'groups', done: i + 1, total: plan.groups.length });
  }

  const jobs: ItemReport[] = [];
  const jobIds: IdMap = new Map();
  for (const [i, planned] of plan.jobs.entries()) {
    const { source } = planned;
    const report = item(`#${source.id}`, source.name, planned.action, planned.differences);
    if (planned.existing) {
      report.id = planned.existing.id;
      jobIds.set(source.id, planned.existing.id);
    } else if (groupFailed.has(source.appName)) {
      skip(report, `its group ${source.appName} was not created`);
    } else if (dryRun) {
      jobIds.set(source.id, null);
    } else {
      await attempt(report, async () => {
        const { id, childJobIds: _, triggerStatus: __, ...fields } = source;
        const created = await target.createJob({ ...fields, childJobIds: [], triggerStatus: 'STOPPED' });
        report.id = checkedId(created?.id, 'job');
        report.outcome = 'created';
        jobIds.set(id, report.id);
      });
    }
    jobs.push(report);
    progress({ phase: 'jobs', done: i + 1, total: plan.jobs.length });
  }

  const workflows: ItemReport[] = [];
  const workflowIds: IdMap = new Map();
  // A workflow's schedule job (source id) → the target's: a job's child may name it.
  const starterIds: IdMap = new Map();
  for (const [i, planned] of plan.workflows.entries()) {
    const { source, existing } = planned;
    const report = item(`#${source.id}`, source.name, planned.action, []);
    const nodes = remapNodes(source, jobIds);
    if (existing) {
      report.id = existing.id;
      workflowIds.set(source.id, existing.id);
      if (source.starterJobId !== null && existing.starterJobId !== null) {
        starterIds.set(source.starterJobId, existing.starterJobId);
      }
      report.differences = workflowDifferences(source, nodes, existing);
    } else if (typeof nodes === 'string') {
      skip(report, nodes);
    } else if (dryRun) {
      workflowIds.set(source.id, null);
      if (source.starterJobId !== null) starterIds.set(source.starterJobId, null);
    } else {
      await attempt(report, async () => {
        const { id, starterJobId, triggerStatus: _, ...fields } = source;
        const created = await target.createWorkflow({
          ...fields,
          nodes: nodes as ExportedWorkflow['nodes'],
          triggerStatus: 'STOPPED',
        });
        report.id = checkedId(created?.id, 'workflow');
        report.outcome = 'created';
        workflowIds.set(id, report.id);
        if (starterJobId !== null && created.starterJobId !== null) {
          starterIds.set(starterJobId, created.starterJobId);
        }
      });
    }
    workflows.push(report);
    progress({ phase: 'workflows', done: i + 1, total: plan.workflows.length });
  }

  const withChildren = plan.jobs.filter((p) => p.source.childJobIds.length > 0);
  const links: LinkReport[] = [];
  for (const [i, planned] of withChildren.entries()) {
    const report = await link(planned, jobIds, starterIds, target, dryRun);
    links.push(report);
    progress({ phase: 'links', done: i + 1, total: withChildren.length });
  }

  const running = [
    ...plan.jobs
      .filter((p) => p.source.triggerStatus === 'RUNNING')
      .map((p) => ({
        kind: 'job' as const,
        source: p.source,
        running: p.existing?.triggerStatus === 'RUNNING',
        id: jobIds.get(p.source.id),
      })),
    ...plan.workflows
      .filter((p) => p.source.triggerStatus === 'RUNNING')
      .map((p) => ({
        kind: 'workflow' as const,
        source: p.source,
        running: p.existing?.triggerStatus === 'RUNNING',
        id: workflowIds.get(p.source.id),
      })),
  ];
  const starts: StartReport[] = [];
  for (const [i, { kind, source, running: isRunning, id }] of running.entries()) {
    const report: StartReport = { kind, ref: `#${source.id}`, name: source.name, outcome: 'to start' };
    if (id !== undefined) report.id = id;
    if (id === undefined) {
      report.outcome = 'skipped';
      report.message = `the ${kind} was not imported`;
    } else if (isRunning) {
      report.outcome = 'running';
    } else if (options.start && dryRun) {
      report.outcome = 'start';
    } else if (options.start && id !== null) {
      try {
        await (kind === 'job' ? target.startJob(id) : target.startWorkflow(id));
        report.outcome = 'started';
      } catch (err) {
        report.outcome = 'failed';
        report.message = messageOf(err);
      }
    }
    starts.push(report);
    progress({ phase: 'starts', done: i + 1, total: running.length });
  }

  return {
    dryRun,
    start: options.start,
    source: { url: plan.document.source, exportedAt: plan.document.exportedAt },
    groups,
    jobs,
    workflows,
    links,
    starts,
    ids: { jobs: known(jobIds), workflows: known(workflowIds) },
  };
}

/**
 * The job's children on the target: the remapped ones added to those it has (a found job keeps its
 * own), so a re-run completes the links a failed run left out and sends nothing when all are there.
 */
async function link(
  planned: PlannedJob,
  jobIds: IdMap,
  starterIds: IdMap,
  target: ImportTarget,
  dryRun: boolean,
): Promise<LinkReport> {
  const { source, existing } = planned;
  const report: LinkReport = {
    ref: `#${source.id}`,
    name: source.name,
    children: source.childJobIds,
    outcome: 'link',
  };
  const parent = jobIds.get(source.id);
  if (parent === undefined) {
    report.outcome = 'skipped';
    report.message = `job #${source.id} was not imported`;
    return report;
  }
  if (parent !== null) report.id = parent;
  const mapped = source.childJobIds.map((c) => ({
    source: c,
    id: jobIds.has(c) ? jobIds.get(c) : starterIds.get(c),
  }));
  const missing = mapped.filter((c) => c.id === undefined).map((c) => `#${c.source}`);
  if (missing.length === mapped.length) {
    report.outcome = 'skipped';
    report.message = `none of its children was imported (${missing.join(', ')})`;
    return report;
  }
  if (missing.length > 0) report.message = `children not imported, so not linked: ${missing.join(', ')}`;
  const have = existing?.childJobIds ?? [];
  const wanted = mapped.flatMap((c) => (c.id === undefined ? [] : [c.id]));
  if (parent !== null && wanted.every((id) => id !== null && have.includes(id))) {
    report.outcome = 'there';
    return report;
  }
  if (dryRun || parent === null) return report;
  const childJobIds = [...new Set([...have, ...(wanted as number[])])];
  report.childJobIds = childJobIds;
  try {
    await target.setChildJobs(parent, childJobIds);
    report.outcome = 'linked';
  } catch (err) {
    report.outcome = 'failed';
    report.message = messageOf(err);
  }
  return report;
}

/** The nodes with their jobs' target ids (null in a dry run), or why the workflow cannot be made. */
function remapNodes(
  source: ExportedWorkflow,
  jobIds: IdMap,
): ExportedWorkflow['nodes'] | { readonly unknown: true } | string {
  const missing = source.nodes.filter((n) => !jobIds.has(n.jobId));
  if (missing.length > 0) {
    return `the jobs of its nodes were not imported: ${missing.map((n) => `${n.key} (#${n.jobId})`).join(', ')}`;
  }
  if (source.nodes.some((n) => jobIds.get(n.jobId) === null)) return { unknown: true };
  return source.nodes.map((n) => ({ ...n, jobId: jobIds.get(n.jobId) as number }));
}

function workflowDifferences(
  source: ExportedWorkflow,
  nodes: ReturnType<typeof remapNodes>,
  found: ExportedWorkflowLike,
): string[] {
  const fields = ['scheduleType', 'scheduleConf', 'timeZone', 'misfireStrategy', 'overlapPolicy'] as const;
  // An export made before workflows had bounds has none: no bound, no jitter.
  const bounds = ['startAt', 'endAt', 'maxRuns', 'jitterSeconds'] as const;
  const none = (f: (typeof bounds)[number]) => (f === 'jitterSeconds' ? 0 : null);
  const differences = [
    ...fields.filter((f) => found[f] !== source[f]).map((f) => difference(f, found[f], source[f])),
    ...bounds
      .filter((f) => (found[f] ?? none(f)) !== (source[f] ?? none(f)))
      .map((f) => difference(f, found[f] ?? none(f), source[f] ?? none(f))),
    // An export made before workflows had deadlines has none; daily is the same as no days.
    ...(deadlineKey(found.deadline) === deadlineKey(source.deadline)
      ? []
      : [difference('deadline', found.deadline ?? null, source.deadline ?? null)]),
    ...(calendarsKey(found.calendars) === calendarsKey(source.calendars)
      ? []
      : [difference('calendars', found.calendars ?? null, source.calendars ?? null)]),
  ];
  if (Array.isArray(nodes)) {
    const normal = (list: readonly NodeLike[]) =>
      JSON.stringify(
        list.map((n) => ({
          key: n.key,
          jobId: n.jobId,
          executorParam: n.executorParam ?? null,
          upstream: (n.upstream ?? []).map((e) => [e.key, e.condition ?? 'ON_SUCCESS']),
        })),
      );
    if (normal(found.nodes) !== normal(nodes)) {
      differences.push('nodes: not the exported ones (with the jobs found or created here)');
    }
  }
  return differences;
}

function deadlineKey(deadline: ExportedWorkflow['deadline'] | undefined): string {
  return JSON.stringify(deadline ? [deadline.time, deadline.timeZone, deadline.days ?? 'daily'] : null);
}

interface NodeLike {
  readonly key: string;
  readonly jobId: number;
  readonly executorParam?: string;
  readonly upstream?: readonly { readonly key: string; readonly condition?: string }[];
}

type ExportedWorkflowLike = Pick<
  ExportedWorkflow,
  'scheduleType' | 'scheduleConf' | 'timeZone' | 'misfireStrategy' | 'overlapPolicy'
> &
  Partial<
    Pick<ExportedWorkflow, 'startAt' | 'endAt' | 'maxRuns' | 'jitterSeconds' | 'deadline' | 'calendars'>
  > & {
    readonly nodes: readonly NodeLike[];
  };

function item(
  ref: string,
  name: string,
  action: 'create' | 'exists',
  differences: readonly string[],
): ItemReport {
  return { ref, name, outcome: action, differences: [...differences], notes: [] };
}

function skip(report: ItemReport, message: string): void {
  report.outcome = 'skipped';
  report.message = message;
}

async function attempt(report: ItemReport, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    report.outcome = 'failed';
    report.message = messageOf(err);
  }
}

function checkedId(id: unknown, what: string): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
    throw new Error(`the API answered without a ${what} id`);
  }
  return id;
}

function known(ids: IdMap): Record<string, number> {
  return Object.fromEntries([...ids].filter((e): e is [number, number] => e[1] !== null));
}

/** The message of what a target threw: an Error's (the API's, which names every problem), or the value as text. */
function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
