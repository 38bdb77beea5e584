import { isDeepStrictEqual } from 'node:util';
/**
 * What an import of an export document will do, decided before anything is sent: which groups, jobs
 * and workflows the target has already and which are to be created.
 *
 * Identity (running the import again creates nothing twice). The target keeps no foreign id, so an
 * item is recognised by what it is:
 * - a group by its appName (unique);
 * - a job by its appName, name, glueType, executorHandler, executorParam, scheduleType and
 *   scheduleConf ({@link jobIdentity}); a workflow's schedule job is never a candidate;
 * - a workflow by its appName and name.
 * Items of the document with the same identity are paired with the target's in order (document by
 * source id, target by id), the order an earlier import created them in (one at a time, in source id
 * order): two identical jobs stay two, and a re-run after a partial failure finds those made. A found
 * item is left as it is; its other fields are compared and the differences reported. An item edited
 * on the target since (its name, handler, parameter or schedule) is not recognised and is created again.
 */
import type { Group, Job, Workflow } from '@tickring/client';
import {
  EXPORTED_JOB_FIELDS,
  type ExportDocument,
  type ExportedGroup,
  type ExportedJob,
  type ExportedWorkflow,
  isWorkflowScheduleJob,
} from './document.js';

export interface ExistingState {
  readonly groups: readonly Group[];
  readonly jobs: readonly Job[];
  readonly workflows: readonly Workflow[];
}

export type PlanAction = 'create' | 'exists';

export interface PlannedGroup {
  readonly source: ExportedGroup;
  readonly action: PlanAction;
  readonly differences: readonly string[];
}

export interface PlannedJob {
  readonly source: ExportedJob;
  readonly action: PlanAction;
  readonly existing?: Job;
  /** Fields other than the children and the trigger status (linked and started in their own steps). */
  readonly differences: readonly string[];
}

export interface PlannedWorkflow {
  readonly source: ExportedWorkflow;
  readonly action: PlanAction;
  readonly existing?: Workflow;
}

export interface ImportPlan {
  readonly document: ExportDocument;
  readonly groups: readonly PlannedGroup[];
  readonly jobs: readonly PlannedJob[];
  readonly workflows: readonly PlannedWorkflow[];
}

const JOB_IDENTITY_FIELDS = [
  'appName',
  'name',
  'glueType',
  'executorHandler',
  'executorParam',
  'scheduleType',
  'scheduleConf',
] as const satisfies readonly (keyof ExportedJob & keyof Job)[];

export function jobIdentity(job: Pick<Job, (typeof JOB_IDENTITY_FIELDS)[number]>): string {
  return JSON.stringify(JOB_IDENTITY_FIELDS.map((f) => job[f]));
}

export function workflowIdentity(workflow: Pick<Workflow, 'appName' | 'name'>): string {
  return JSON.stringify([workflow.appName, workflow.name]);
}

export function planImport(document: ExportDocument, existing: ExistingState): ImportPlan {
  const groupsByName = new Map(existing.groups.map((g) => [g.appName, g]));
  const groups = document.groups.map((source): PlannedGroup => {
    const found = groupsByName.get(source.appName);
    return found
      ? { source, action: 'exists', differences: groupDifferences(source, found) }
      : { source, action: 'create', differences: [] };
  });

  const pairJob = pairer(
    existing.jobs.filter((j) => !isWorkflowScheduleJob(j)),
    jobIdentity,
  );
  const jobs = [...document.jobs]
    .sort((a, b) => a.id - b.id)
    .map((source): PlannedJob => {
      const found = pairJob(source);
      return found
        ? { source, action: 'exists', existing: found, differences: jobDifferences(source, found) }
        : { source, action: 'create', differences: [] };
    });

  const pairWorkflow = pairer(existing.workflows, workflowIdentity);
  const workflows = [...document.workflows]
    .sort((a, b) => a.id - b.id)
    .map((source): PlannedWorkflow => {
      const found = pairWorkflow(source);
      return found ? { source, action: 'exists', existing: found } : { source, action: 'create' };
    });

  return { document, groups, jobs, workflows };
}

/** Hands out the target's items of each identity in id order, each once. */
function pairer<T extends { readonly id: number }, S>(
  targets: readonly T[],
  identity: (item: T | S) => string,
): (source: S) => T | undefined {
  const queues = new Map<string, T[]>();
  for (const t of [...targets].sort((a, b) => a.id - b.id)) {
    const key = identity(t);
    queues.set(key, [...(queues.get(key) ?? []), t]);
  }
  return (source) => queues.get(identity(source))?.shift();
}

function groupDifferences(source: ExportedGroup, found: Group): string[] {
  const differences: string[] = [];
  if (found.title !== source.title) differences.push(difference('title', found.title, source.title));
  if (found.addressType !== source.addressType) {
    differences.push(difference('addressType', found.addressType, source.addressType));
  } else if (
    source.addressType === 'MANUAL' &&
    JSON.stringify(found.addressList) !== JSON.stringify(source.addressList ?? [])
  ) {
    differences.push(difference('addressList', found.addressList, source.addressList));
  }
  return differences;
}

function jobDifferences(source: ExportedJob, found: Job): string[] {
  return EXPORTED_JOB_FIELDS.filter((f) => f !== 'childJobIds' && f !== 'triggerStatus')
    .filter((f) =>
      f === 'calendars'
        ? calendarsKey(found.calendars) !== calendarsKey(source.calendars)
        : // Objects (failure policy, deadline) by value; an export made before a field has none of it.
          !isDeepStrictEqual(found[f] ?? null, source[f] ?? null),
    )
    .map((f) => difference(f, found[f], source[f]));
}

/** Calendars compared by their lists (an export made before them has none). */
export function calendarsKey(calendars: Partial<Job['calendars']> | undefined): string {
  return JSON.stringify([calendars?.only ?? [], calendars?.exclude ?? []]);
}

/** "title: "Billing" here, "Billing (prod)" in the export". */
export function difference(field: string, here: unknown, exported: unknown): string {
  return `${field}: ${JSON.stringify(here)} here, ${JSON.stringify(exported)} in the export`;
}
