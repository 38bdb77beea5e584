/**
 * What an import will do, decided before anything is sent: the groups and jobs to create, those
 * tickring has already (so running the import again creates nothing twice), those skipped and why,
 * and the child links to set once every job has its tickring id.
 *
 * Identity. tickring stores no foreign id and jobs have no free-form tag, so an imported job is
 * recognised by what it is: a group by its appName (unique in tickring), a job by its appName, name,
 * glueType, executorHandler, scheduleType and scheduleConf as the import writes them (see
 * {@link jobIdentity}). Jobs of the dump with the same identity are paired with tickring's in order,
 * dump by XXL-JOB id and tickring by id, which is the order an earlier import created them in: two
 * identical XXL-JOB jobs stay two, and a third run still finds both. A job edited in tickring since
 * (its schedule, handler or name) is no longer recognised and would be created again; its other fields
 * (parameters, timeouts, time zone, ...) may change freely and are reported as differences.
 */
import { type MappedGroup, mapGroupRow, mapJobRow } from './map.js';
import type { DumpTable, ParsedDump } from './parse-dump.js';
import { GROUP_TABLE, JOB_TABLE } from './schema.js';
import {
  type ExistingGroup,
  type ExistingJob,
  type ExistingState,
  type GroupBody,
  ImportOptionsError,
  type JobBody,
  LIMITS,
} from './types.js';

export interface PlanOptions {
  /**
   * The IANA time zone CRON schedules are read in: XXL-JOB used its admin's JVM time zone, which the
   * dump does not record. Default 'UTC'.
   */
  readonly timeZone?: string;
}

export type PlanAction = 'create' | 'exists' | 'skip';

export interface PlannedGroup {
  readonly action: PlanAction;
  readonly appName: string;
  /** The XXL-JOB group ids that become this group (more than one when XXL-JOB had the appName twice). */
  readonly xxlIds: readonly number[];
  readonly line: number;
  readonly title: string;
  /** create: the body; exists: what the dump says (compared, not sent). */
  readonly body?: GroupBody;
  /** The group's own access token to set (XXL-JOB 3.5). Secret: no report shows it. */
  readonly accessToken?: string;
  /** skip: why. */
  readonly reason?: string;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
}

export interface PlannedJob {
  readonly action: PlanAction;
  /** null only for a skipped row without an id. */
  readonly xxlId: number | null;
  readonly line: number;
  readonly name: string;
  readonly appName?: string;
  /** create: the body; exists: what the dump says (compared, not sent). */
  readonly body?: JobBody;
  /** exists: the tickring job it is. */
  readonly existingId?: number;
  /** RUNNING in XXL-JOB. */
  readonly wasRunning: boolean;
  /** RUNNING in XXL-JOB and not running in tickring: the user should start it. */
  readonly toStart: boolean;
  readonly reason?: string;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
}

/** A job's children, set with `PUT /v1/jobs/{id}` once all jobs exist. */
export interface PlannedLink {
  readonly parentXxlId: number;
  /** The parent's tickring id when it exists already (else the id it is created with). */
  readonly parentId?: number;
  readonly name: string;
  /** tickring ids the parent has as children already: kept. */
  readonly keepIds: readonly number[];
  /** The children to add, by XXL-JOB id (their tickring ids are known once they exist). */
  readonly childXxlIds: readonly number[];
}

export interface SourceSummary {
  readonly lines: number;
  readonly groupRows: number;
  readonly jobRows: number;
  /** What the dump reader assumed or ignored. */
  readonly notes: readonly string[];
}

export interface ImportPlan {
  readonly timeZone: string;
  readonly source: SourceSummary;
  /** In XXL-JOB id order. */
  readonly groups: readonly PlannedGroup[];
  /** In XXL-JOB id order, which is also the order jobs are created in. */
  readonly jobs: readonly PlannedJob[];
  readonly links: readonly PlannedLink[];
  readonly notes: readonly string[];
}

/**
 * The identity of a job for the import's idempotence: what the import writes and a user seldom
 * edits. `executorHandler` is trimmed as the API stores it.
 */
export function jobIdentity(job: {
  readonly appName: string;
  readonly name: string;
  readonly glueType: string;
  readonly executorHandler: string;
  readonly scheduleType: string;
  readonly scheduleConf: string;
}): string {
  return JSON.stringify([
    job.appName,
    job.name,
    job.glueType,
    job.executorHandler.trim(),
    job.scheduleType,
    job.scheduleConf,
  ]);
}

export function planImport(dump: ParsedDump, existing: ExistingState, options: PlanOptions = {}): ImportPlan {
  const timeZone = checkTimeZone(options.timeZone ?? 'UTC');
  const groupPlan = planGroups(dump.groups, existing.groups);
  const jobs = planJobs(dump, groupPlan.resolve, existing.jobs, timeZone);
  const links = planLinks(jobs.planned, jobs.children, existing.jobs);
  const plannedJobs = jobs.planned.map((job) => {
    const more = job.xxlId === null ? undefined : links.changes.get(job.xxlId);
    return more ? { ...job, changes: [...job.changes, ...more] } : job;
  });
  const running = plannedJobs.filter((j) => j.wasRunning).length;
  const notes = [
    `CRON schedules are read in ${timeZone}: XXL-JOB read them in its admin's time zone, which a dump does not record${options.timeZone === undefined ? ' (give the time zone to change it)' : ''}`,
    `every job is imported STOPPED${running > 0 ? `; ${running} were RUNNING in XXL-JOB: start them (POST /v1/jobs/{id}/start) once their executors are registered with tickring` : ''}`,
    'failed runs are retried after retryBackoffSeconds (10 s, doubling with each retry); XXL-JOB retried about every 10 s',
    'not imported: add_time, update_time, glue_remark, glue_updatetime, trigger_last_time, trigger_next_time (tickring keeps its own), the GLUE history (xxl_job_logglue), users and permissions (xxl_job_user), logs and registrations',
    "executors keep working unchanged once pointed at tickring: xxl.job.admin.addresses = tickring's URL, xxl.job.accessToken = tickring's access token (or the group's own)",
  ];
  if (!dump.groups.present) {
    notes.push(`the dump has no ${GROUP_TABLE} table: no job can be imported without its group`);
  }
  if (!dump.jobs.present) notes.push(`the dump has no ${JOB_TABLE} table: there are no jobs to import`);
  return {
    timeZone,
    source: {
      lines: dump.lines,
      groupRows: dump.groups.rows.length,
      jobRows: dump.jobs.rows.length,
      notes: dump.notes,
    },
    groups: groupPlan.planned,
    jobs: plannedJobs,
    links: links.links,
    notes,
  };
}

function checkTimeZone(timeZone: string): string {
  const tz = timeZone.trim();
  let valid = tz !== '' && tz.length <= 64;
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw new ImportOptionsError(
      `timeZone must be an IANA time zone such as 'UTC' or 'Asia/Shanghai'; got ${JSON.stringify(timeZone)}`,
      'timeZone',
    );
  }
  return tz;
}

// ---------------------------------------------------------------------------------------------
// Groups

type GroupRef = { readonly appName: string } | { readonly skip: string };

interface GroupDraft {
  action: PlanAction;
  appName: string;
  xxlIds: number[];
  line: number;
  title: string;
  body?: GroupBody;
  accessToken?: string;
  reason?: string;
  changes: string[];
  notes: string[];
}

function planGroups(
  table: DumpTable,
  existingGroups: readonly ExistingGroup[],
): { planned: PlannedGroup[]; resolve: (xxlGroupId: number) => GroupRef | undefined } {
  const existingByApp = new Map(existingGroups.map((g) => [g.appName, g]));
  const mapped = sortById(table.rows.map(mapGroupRow));
  const byId = new Map<number, GroupRef>();
  const firstLine = new Map<number, number>();
  const byApp = new Map<string, GroupDraft>();
  const drafts: GroupDraft[] = [];

  for (const g of mapped) {
    const skip = (reason: string) =>
      drafts.push({
        action: 'skip',
        appName: g.xxlAppName,
        xxlIds: g.xxlId === null ? [] : [g.xxlId],
        line: g.line,
        title: g.title,
        reason,
        changes: [...g.changes],
        notes: [...g.notes],
      });
    if (g.xxlId !== null && byId.has(g.xxlId)) {
      skip(
        `its id ${g.xxlId} is taken by the row on line ${firstLine.get(g.xxlId)} (a dump of two databases?)`,
      );
      continue;
    }
    if (g.xxlId !== null) firstLine.set(g.xxlId, g.line);
    if (!g.body) {
      const reason = g.skipReason ?? 'it cannot be imported';
      if (g.xxlId !== null) byId.set(g.xxlId, { skip: reason });
      skip(reason);
      continue;
    }
    const appName = g.body.appName;
    if (g.xxlId !== null) byId.set(g.xxlId, { appName });
    const same = byApp.get(appName);
    if (same) {
      same.xxlIds.push(...(g.xxlId === null ? [] : [g.xxlId]));
      same.notes.push(mergeNote(g, same));
      continue;
    }
    const draft: GroupDraft = {
      action: 'create',
      appName,
      xxlIds: g.xxlId === null ? [] : [g.xxlId],
      line: g.line,
      title: g.body.title,
      body: g.body,
      changes: [...g.changes],
      notes: [...g.notes],
    };
    const there = existingByApp.get(appName);
    if (there) {
      draft.action = 'exists';
      const differences = groupDifferences(g.body, there);
      if (differences.length > 0) {
        draft.notes.push(
          `tickring's group differs from the dump in ${differences.join('; ')} (left as it is)`,
        );
      }
      if (g.accessToken !== undefined) {
        if (there.accessTokenSetAt === null) {
          draft.accessToken = g.accessToken;
          draft.notes.push("accessToken: the tickring group has no token of its own; the dump's is set");
        } else {
          draft.notes.push(
            'accessToken: the tickring group has a token of its own already (or it was not said whether it has one); left as it is, make sure its executors use it',
          );
        }
      }
    } else if (g.accessToken !== undefined) {
      draft.accessToken = g.accessToken;
      draft.notes.push(
        "accessToken: the group's own token (XXL-JOB 3.5) is set, so its executors keep theirs",
      );
    }
    byApp.set(appName, draft);
    drafts.push(draft);
  }
  const planned = drafts.map((d): PlannedGroup => freezeDraft(d));
  return { planned, resolve: (id) => byId.get(id) };
}

function mergeNote(g: MappedGroup, into: GroupDraft): string {
  const lost: string[] = [];
  if (g.body && g.body.title !== into.title) lost.push(`its title ${JSON.stringify(g.body.title)}`);
  if (g.body && g.body.addressType !== into.body?.addressType)
    lost.push(`its address type ${g.body.addressType}`);
  if (g.body?.addressList?.length) lost.push(`its addresses ${g.body.addressList.join(', ')}`);
  return `XXL-JOB group ${g.xxlId} (line ${g.line}) has the same appName: its jobs join this group${lost.length > 0 ? `; ${lost.join(', ')} not imported` : ''}`;
}

function groupDifferences(body: GroupBody, there: ExistingGroup): string[] {
  const out: string[] = [];
  if (there.title !== undefined && there.title !== body.title) {
    out.push(`title (${JSON.stringify(there.title)} there, ${JSON.stringify(body.title)} in the dump)`);
  }
  if (there.addressType !== undefined && there.addressType !== body.addressType) {
    out.push(`addressType (${there.addressType} there, ${body.addressType} in the dump)`);
  }
  // An AUTO group's addressList is shown as its executors online now: nothing to compare.
  const dumpList = [...(body.addressList ?? [])].sort();
  if (there.addressList !== undefined && there.addressType === 'MANUAL' && body.addressType === 'MANUAL') {
    const thereList = [...there.addressList].sort();
    if (thereList.join(',') !== dumpList.join(',')) {
      out.push(
        `addressList (${thereList.join(', ') || 'none'} there, ${dumpList.join(', ') || 'none'} in the dump)`,
      );
    }
  }
  return out;
}

function freezeDraft(d: GroupDraft): PlannedGroup {
  return {
    action: d.action,
    appName: d.appName,
    xxlIds: d.xxlIds,
    line: d.line,
    title: d.title,
    ...(d.body === undefined ? {} : { body: d.body }),
    ...(d.accessToken === undefined ? {} : { accessToken: d.accessToken }),
    ...(d.reason === undefined ? {} : { reason: d.reason }),
    changes: d.changes,
    notes: d.notes,
  };
}

// ---------------------------------------------------------------------------------------------
// Jobs

function planJobs(
  dump: ParsedDump,
  resolveGroup: (xxlGroupId: number) => GroupRef | undefined,
  existingJobs: readonly ExistingJob[],
  timeZone: string,
): { planned: PlannedJob[]; children: Map<number, readonly number[]> } {
  const existingByIdentity = new Map<string, ExistingJob[]>();
  for (const job of [...existingJobs].sort((a, b) => a.id - b.id)) {
    const key = jobIdentity(job);
    const list = existingByIdentity.get(key);
    if (list) list.push(job);
    else existingByIdentity.set(key, [job]);
  }
  const mappedRows = sortById(dump.jobs.rows.map((row) => mapJobRow(row, timeZone)));
  const planned: PlannedJob[] = [];
  const children = new Map<number, readonly number[]>();
  const firstLine = new Map<number, number>();
  for (const m of mappedRows) {
    const skip = (reason: string): PlannedJob => ({
      action: 'skip',
      xxlId: m.xxlId,
      line: m.line,
      name: m.name,
      wasRunning: m.wasRunning,
      toStart: false,
      reason: m.wasRunning ? `${reason} (it was RUNNING in XXL-JOB)` : reason,
      changes: m.changes,
      notes: m.notes.filter((n) => !n.startsWith('RUNNING in XXL-JOB')),
    });
    let job: PlannedJob;
    if (m.xxlId !== null && firstLine.has(m.xxlId)) {
      planned.push(
        skip(
          `its id ${m.xxlId} is taken by the row on line ${firstLine.get(m.xxlId)} (a dump of two databases?)`,
        ),
      );
      continue;
    }
    if (m.xxlId !== null) {
      firstLine.set(m.xxlId, m.line);
      children.set(m.xxlId, m.childXxlIds);
    }
    const group = m.xxlGroupId === null ? undefined : resolveGroup(m.xxlGroupId);
    if (!m.fields) {
      job = skip(m.skipReason ?? 'it cannot be imported');
    } else if (m.xxlGroupId === null) {
      job = skip('it has no job_group');
    } else if (group === undefined) {
      job = skip(
        dump.groups.rows.length === 0
          ? `its group ${m.xxlGroupId} is not in the dump (the dump has no ${GROUP_TABLE} rows: dump that table too)`
          : `its group ${m.xxlGroupId} is not in the dump`,
      );
    } else if ('skip' in group) {
      job = skip(`its group ${m.xxlGroupId} is not imported: ${group.skip}`);
    } else {
      const body: JobBody = { appName: group.appName, ...m.fields };
      const key = jobIdentity(body);
      const matches = existingByIdentity.get(key);
      const there = matches?.shift();
      if (there) {
        const differences = jobDifferences(body, there);
        const notes = [...m.notes];
        if (differences.length > 0) {
          notes.push(`tickring's job differs from the dump in ${differences.join(', ')} (left as it is)`);
        }
        job = {
          action: 'exists',
          xxlId: m.xxlId,
          line: m.line,
          name: body.name,
          appName: body.appName,
          body,
          existingId: there.id,
          wasRunning: m.wasRunning,
          toStart: m.wasRunning && there.triggerStatus !== 'RUNNING',
          changes: m.changes,
          notes:
            there.triggerStatus === 'RUNNING'
              ? notes.filter((n) => !n.startsWith('RUNNING in XXL-JOB'))
              : notes,
        };
      } else {
        job = {
          action: 'create',
          xxlId: m.xxlId,
          line: m.line,
          name: body.name,
          appName: body.appName,
          body,
          wasRunning: m.wasRunning,
          toStart: m.wasRunning,
          changes: m.changes,
          notes: m.notes,
        };
      }
    }
    planned.push(job);
  }
  return { planned, children };
}

const COMPARED_FIELDS = [
  'author',
  'alarmEmail',
  'timeZone',
  'misfireStrategy',
  'executorRouteStrategy',
  'executorParam',
  'executorBlockStrategy',
  'executorTimeout',
  'executorFailRetryCount',
  'glueSource',
] as const;

function jobDifferences(body: JobBody, there: ExistingJob): string[] {
  return COMPARED_FIELDS.filter((f) => there[f] !== undefined && there[f] !== body[f]);
}

// ---------------------------------------------------------------------------------------------
// Child links

/**
 * The links to set, and per job (by XXL-JOB id) the children that cannot be linked: not in the
 * dump, not imported, the job itself, past the limit, or closing a cycle.
 */
function planLinks(
  planned: readonly PlannedJob[],
  childrenByXxlId: ReadonlyMap<number, readonly number[]>,
  existingJobs: readonly ExistingJob[],
): { links: PlannedLink[]; changes: Map<number, string[]> } {
  const byXxlId = new Map<number, PlannedJob>();
  const skippedReason = new Map<number, string>();
  for (const job of planned) {
    if (job.xxlId === null) continue;
    if (job.action !== 'skip') byXxlId.set(job.xxlId, job);
    else if (!skippedReason.has(job.xxlId)) skippedReason.set(job.xxlId, job.reason ?? '');
  }
  // The child graph as it will be, over tickring's jobs (t<id>) and the jobs to create (x<xxlId>),
  // so a link XXL-JOB allowed but tickring refuses (a cycle) is dropped here, not refused later.
  const edges = new Map<string, string[]>();
  const label = new Map<string, string>();
  const existingChildren = new Map<number, readonly number[]>();
  for (const job of existingJobs) {
    existingChildren.set(job.id, job.childJobIds ?? []);
    edges.set(
      `t${job.id}`,
      (job.childJobIds ?? []).map((c) => `t${c}`),
    );
    label.set(`t${job.id}`, `tickring job ${job.id}`);
  }
  const nodeOf = (job: PlannedJob): string =>
    job.existingId !== undefined ? `t${job.existingId}` : `x${job.xxlId}`;
  for (const job of planned) {
    if (job.action !== 'skip' && job.xxlId !== null) label.set(nodeOf(job), `#${job.xxlId}`);
  }

  const links: PlannedLink[] = [];
  const changesByXxlId = new Map<number, string[]>();
  for (const parent of planned) {
    if (parent.action === 'skip' || parent.xxlId === null || byXxlId.get(parent.xxlId) !== parent) continue;
    const wanted = childrenByXxlId.get(parent.xxlId) ?? [];
    if (wanted.length === 0) continue;
    const changes: string[] = [];
    changesByXxlId.set(parent.xxlId, changes);
    const keepIds =
      parent.existingId === undefined ? [] : [...(existingChildren.get(parent.existingId) ?? [])];
    const parentNode = nodeOf(parent);
    const add: number[] = [];
    for (const childXxlId of wanted) {
      const child = byXxlId.get(childXxlId);
      if (childXxlId === parent.xxlId) {
        changes.push(`childJobIds: the job names itself as a child; dropped (XXL-JOB skips it too)`);
        continue;
      }
      if (!child) {
        const skipped = skippedReason.get(childXxlId);
        changes.push(
          skipped !== undefined
            ? `childJobIds: child job ${childXxlId} is not imported (${skipped}); dropped`
            : `childJobIds: child job ${childXxlId} is not in the dump; dropped`,
        );
        continue;
      }
      if (child.existingId !== undefined && keepIds.includes(child.existingId)) continue; // linked already
      const childNode = nodeOf(child);
      const cycle = pathBetween(edges, childNode, parentNode);
      if (cycle) {
        changes.push(
          `childJobIds: child job ${childXxlId} dropped: it would close the cycle ${[parentNode, ...cycle].map((n) => label.get(n) ?? n).join(' → ')} (tickring refuses child cycles; XXL-JOB allowed them)`,
        );
        continue;
      }
      if (keepIds.length + add.length >= LIMITS.childJobIds) {
        changes.push(
          `childJobIds: child job ${childXxlId} dropped: tickring keeps at most ${LIMITS.childJobIds} children`,
        );
        continue;
      }
      add.push(childXxlId);
      const list = edges.get(parentNode);
      if (list) list.push(childNode);
      else edges.set(parentNode, [childNode]);
    }
    if (add.length === 0) continue;
    links.push({
      parentXxlId: parent.xxlId,
      ...(parent.existingId === undefined ? {} : { parentId: parent.existingId }),
      name: parent.name,
      keepIds,
      childXxlIds: add,
    });
  }
  return { links, changes: changesByXxlId };
}

/** The path from `from` to `to` along `edges` (both ends included), or undefined. */
function pathBetween(
  edges: ReadonlyMap<string, readonly string[]>,
  from: string,
  to: string,
): string[] | undefined {
  const previous = new Map<string, string>([[from, '']]);
  let frontier = [from];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      if (node === to) {
        const path = [node];
        for (let at = previous.get(node) ?? ''; at !== ''; at = previous.get(at) ?? '') path.unshift(at);
        return path;
      }
      for (const child of edges.get(node) ?? []) {
        if (!previous.has(child)) {
          previous.set(child, node);
          next.push(child);
        }
      }
    }
    frontier = next;
  }
  return undefined;
}

function sortById<T extends { readonly xxlId: number | null }>(rows: T[]): T[] {
  // Stable: rows without an id, and rows with the same id, keep the dump's order.
  return rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        (a.row.xxlId ?? Number.MAX_SAFE_INTEGER) - (b.row.xxlId ?? Number.MAX_SAFE_INTEGER) ||
        a.index - b.index,
    )
    .map((e) => e.row);
}
