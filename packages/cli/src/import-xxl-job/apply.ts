/**
 * Carries a plan out against tickring, in the order the API needs: groups (and their own tokens),
 * then jobs, then the child links (a child must exist before a job names it). One call at a time, so
 * tickring numbers the jobs in XXL-JOB id order (the order the identity rule pairs them in). A refused
 * item is reported with the API's message and the rest goes on; what depends on it (a link to a job
 * that was not created) is reported as skipped.
 */
import type { ImportPlan } from './plan.js';
import {
  buildReport,
  type GroupReport,
  groupReport,
  type ImportReport,
  type JobReport,
  jobReport,
  type LinkReport,
  linkReport,
} from './report.js';
import type { ChildLinkPatch, GroupBody, JobBody } from './types.js';

/**
 * What the import needs from tickring; the CLI implements it with the admin API's client. A method
 * throws to refuse: the error's `message` (the API's `message`) goes into the report.
 */
export interface ImportTarget {
  /** `POST /v1/groups`. */
  createGroup(body: GroupBody): Promise<unknown>;
  /** `PUT /v1/groups/{appName}/access-token` with `{accessToken}`. */
  setGroupAccessToken(appName: string, accessToken: string): Promise<unknown>;
  /** `POST /v1/jobs`: the created job's id. */
  createJob(body: JobBody): Promise<{ readonly id: number }>;
  /** `PUT /v1/jobs/{id}` with only `childJobIds`. */
  updateJob(id: number, patch: ChildLinkPatch): Promise<unknown>;
}

export interface ApplyProgress {
  readonly phase: 'groups' | 'jobs' | 'links';
  readonly done: number;
  readonly total: number;
}

export interface ApplyOptions {
  /** Called after each item (e.g. for a progress line). */
  readonly onProgress?: (progress: ApplyProgress) => void;
}

export async function applyImport(
  plan: ImportPlan,
  target: ImportTarget,
  options: ApplyOptions = {},
): Promise<ImportReport> {
  const progress = options.onProgress ?? (() => {});

  const groups: GroupReport[] = [];
  for (const [i, planned] of plan.groups.entries()) {
    const report = groupReport(planned);
    groups.push(report);
    if (planned.action === 'create' && planned.body) {
      try {
        await target.createGroup(planned.body);
        report.outcome = 'created';
      } catch (err) {
        report.outcome = 'failed';
        report.message = messageOf(err);
      }
    }
    if (planned.accessToken !== undefined && report.outcome !== 'failed') {
      try {
        await target.setGroupAccessToken(planned.appName, planned.accessToken);
        report.accessToken = 'set';
      } catch (err) {
        report.accessToken = 'failed';
        report.notes.push(
          `accessToken: not set: ${messageOf(err)}; set it with PUT /v1/groups/${planned.appName}/access-token`,
        );
      }
    }
    progress({ phase: 'groups', done: i + 1, total: plan.groups.length });
  }

  const jobs: JobReport[] = [];
  const idOf = new Map<number, number>();
  for (const [i, planned] of plan.jobs.entries()) {
    const report = jobReport(planned);
    jobs.push(report);
    if (planned.action === 'exists' && planned.existingId !== undefined && planned.xxlId !== null) {
      idOf.set(planned.xxlId, planned.existingId);
    } else if (planned.action === 'create' && planned.body) {
      try {
        const created = await target.createJob(planned.body);
        const id = created?.id;
        if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
          throw new Error(`the API answered without a job id (${JSON.stringify(created)})`);
        }
        report.outcome = 'created';
        report.id = id;
        if (planned.xxlId !== null) idOf.set(planned.xxlId, id);
      } catch (err) {
        report.outcome = 'failed';
        report.message = messageOf(err);
      }
    }
    progress({ phase: 'jobs', done: i + 1, total: plan.jobs.length });
  }

  const links: LinkReport[] = [];
  for (const [i, planned] of plan.links.entries()) {
    const report = linkReport(planned);
    links.push(report);
    const parentId = planned.parentId ?? idOf.get(planned.parentXxlId);
    const missing = planned.childXxlIds.filter((c) => !idOf.has(c));
    const childIds = planned.childXxlIds.flatMap((c) => idOf.get(c) ?? []);
    if (parentId === undefined) {
      report.outcome = 'skipped';
      report.message = `job #${planned.parentXxlId} was not created`;
    } else {
      report.id = parentId;
      if (childIds.length === 0) {
        report.outcome = 'skipped';
        report.message = `none of its children was created (${missing.map((c) => `#${c}`).join(', ')})`;
      } else {
        const childJobIds = [...new Set([...planned.keepIds, ...childIds])];
        report.childJobIds = childJobIds;
        try {
          await target.updateJob(parentId, { childJobIds });
          report.outcome = 'linked';
          if (missing.length > 0) {
            report.message = `children not created, so not linked: ${missing.map((c) => `#${c}`).join(', ')}`;
          }
        } catch (err) {
          report.outcome = 'failed';
          report.message = messageOf(err);
        }
      }
    }
    progress({ phase: 'links', done: i + 1, total: plan.links.length });
  }

  return buildReport(plan, false, { groups, jobs, links });
}

/** The message of what a target threw: an Error's (the API's `message`), or the value as text. */
function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}
