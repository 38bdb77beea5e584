/**
 * The import's report: plain JSON (for `--json`) with one entry per group, job and child link, what
 * happened to it and why, and {@link formatReport} for people. A dry run reports the plan (`create`,
 * `link`); a real run what the API did (`created`, `linked`, `failed` with its message).
 */
import type { ImportPlan, PlannedGroup, PlannedJob, PlannedLink, SourceSummary } from './plan.js';

/** `create` and `link`: what a dry run would do. */
export type ItemOutcome = 'create' | 'created' | 'exists' | 'skipped' | 'failed';
export type LinkOutcome = 'link' | 'linked' | 'skipped' | 'failed';

export interface GroupReport {
  readonly appName: string;
  readonly xxlIds: readonly number[];
  readonly line: number;
  readonly title: string;
  readonly addressType?: string;
  readonly addressList?: readonly string[];
  outcome: ItemOutcome;
  /** Its own access token (the token itself is never reported): to set (dry run), set, or failed. */
  accessToken?: 'set' | 'to set' | 'failed';
  /** Why it was skipped, or the API's message when it failed. */
  message?: string;
  readonly changes: readonly string[];
  readonly notes: string[];
}

export interface JobReport {
  readonly xxlId: number | null;
  readonly line: number;
  readonly name: string;
  readonly appName?: string;
  /** e.g. "CRON 0 0 0 * * ? *" */
  readonly schedule?: string;
  /** e.g. "BEAN demoJobHandler", "GLUE_SHELL" */
  readonly handler?: string;
  outcome: ItemOutcome;
  /** The tickring job id (created or existing). */
  id?: number;
  readonly wasRunning: boolean;
  message?: string;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
}

export interface LinkReport {
  /** The parent, by XXL-JOB id. */
  readonly xxlId: number;
  readonly name: string;
  /** The parent's tickring id. */
  id?: number;
  /** The children to add, by XXL-JOB id. */
  readonly childXxlIds: readonly number[];
  /** The parent's childJobIds as sent (kept ones and the new ones). */
  childJobIds?: number[];
  outcome: LinkOutcome;
  message?: string;
}

export interface StartReport {
  readonly xxlId: number;
  readonly name: string;
  /** The tickring id; null in a dry run when the job is still to be created. */
  readonly id: number | null;
}

export interface ImportReport {
  readonly dryRun: boolean;
  readonly timeZone: string;
  readonly source: SourceSummary;
  readonly counts: {
    readonly groups: Record<ItemOutcome, number>;
    readonly jobs: Record<ItemOutcome, number>;
    readonly links: Record<LinkOutcome, number>;
  };
  readonly groups: readonly GroupReport[];
  readonly jobs: readonly JobReport[];
  readonly links: readonly LinkReport[];
  /** Jobs that were RUNNING in XXL-JOB and are not running in tickring: start them. */
  readonly toStart: readonly StartReport[];
  readonly notes: readonly string[];
}

const PLANNED: Record<PlannedGroup['action'], ItemOutcome> = {
  create: 'create',
  exists: 'exists',
  skip: 'skipped',
};

/** The report of a dry run: the plan, nothing sent. */
export function planReport(plan: ImportPlan): ImportReport {
  return buildReport(plan, true, {
    groups: plan.groups.map(groupReport),
    jobs: plan.jobs.map(jobReport),
    links: plan.links.map(linkReport),
  });
}

export function groupReport(g: PlannedGroup): GroupReport {
  return {
    appName: g.appName,
    xxlIds: g.xxlIds,
    line: g.line,
    title: g.title,
    ...(g.body ? { addressType: g.body.addressType } : {}),
    ...(g.body?.addressList ? { addressList: g.body.addressList } : {}),
    outcome: PLANNED[g.action],
    ...(g.accessToken === undefined ? {} : { accessToken: 'to set' as const }),
    ...(g.reason === undefined ? {} : { message: g.reason }),
    changes: g.changes,
    notes: [...g.notes],
  };
}

export function jobReport(j: PlannedJob): JobReport {
  const b = j.body;
  return {
    xxlId: j.xxlId,
    line: j.line,
    name: j.name,
    ...(j.appName === undefined ? {} : { appName: j.appName }),
    ...(b ? { schedule: b.scheduleType === 'NONE' ? 'NONE' : `${b.scheduleType} ${b.scheduleConf}` } : {}),
    ...(b ? { handler: b.glueType === 'BEAN' ? `BEAN ${b.executorHandler}` : b.glueType } : {}),
    outcome: PLANNED[j.action],
    ...(j.existingId === undefined ? {} : { id: j.existingId }),
    wasRunning: j.wasRunning,
    ...(j.reason === undefined ? {} : { message: j.reason }),
    changes: j.changes,
    notes: j.notes,
  };
}

export function linkReport(l: PlannedLink): LinkReport {
  return {
    xxlId: l.parentXxlId,
    name: l.name,
    ...(l.parentId === undefined ? {} : { id: l.parentId }),
    childXxlIds: l.childXxlIds,
    outcome: 'link',
  };
}

/** Puts the items together with the counts and the jobs to start. */
export function buildReport(
  plan: ImportPlan,
  dryRun: boolean,
  items: { groups: GroupReport[]; jobs: JobReport[]; links: LinkReport[] },
): ImportReport {
  const toStart: StartReport[] = [];
  plan.jobs.forEach((planned, i) => {
    const job = items.jobs[i];
    if (!job || !planned.toStart || planned.xxlId === null) return;
    if (job.outcome !== 'created' && job.outcome !== 'exists' && job.outcome !== 'create') return;
    toStart.push({ xxlId: planned.xxlId, name: job.name, id: job.id ?? null });
  });
  return {
    dryRun,
    timeZone: plan.timeZone,
    source: plan.source,
    counts: {
      groups: countOutcomes(items.groups),
      jobs: countOutcomes(items.jobs),
      links: countLinks(items.links),
    },
    groups: items.groups,
    jobs: items.jobs,
    links: items.links,
    toStart,
    notes: plan.notes,
  };
}

function countOutcomes(items: readonly { outcome: ItemOutcome }[]): Record<ItemOutcome, number> {
  const counts: Record<ItemOutcome, number> = { create: 0, created: 0, exists: 0, skipped: 0, failed: 0 };
  for (const item of items) counts[item.outcome]++;
  return counts;
}

function countLinks(items: readonly { outcome: LinkOutcome }[]): Record<LinkOutcome, number> {
  const counts: Record<LinkOutcome, number> = { link: 0, linked: 0, skipped: 0, failed: 0 };
  for (const item of items) counts[item.outcome]++;
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Text

const WORDS: Record<ItemOutcome | LinkOutcome, string> = {
  create: 'to create',
  created: 'created',
  exists: 'already in tickring',
  skipped: 'skipped',
  failed: 'FAILED',
  link: 'to link',
  linked: 'linked',
};
const MARKS: Record<ItemOutcome | LinkOutcome, string> = {
  create: '+',
  created: '+',
  exists: '=',
  skipped: '-',
  failed: '!',
  link: '>',
  linked: '>',
};

/**
 * The report for people: what happened in counts, then every group, job and link on a line of its
 * own with what changed and what to know, the jobs to start, and the general notes.
 */
export function formatReport(report: ImportReport): string {
  const out: string[] = [];
  const { counts, source } = report;
  out.push(
    report.dryRun ? 'XXL-JOB import: dry run, nothing was sent to tickring' : 'XXL-JOB import: done',
    `Dump: ${source.lines} lines; ${source.groupRows} xxl_job_group row(s), ${source.jobRows} xxl_job_info row(s)`,
    `Time zone of CRON schedules: ${report.timeZone}`,
    `Groups: ${summary(counts.groups)}`,
    `Jobs: ${summary(counts.jobs)}`,
    `Child links: ${summary(counts.links)}`,
  );
  for (const note of source.notes) out.push(`  dump: ${note}`);

  if (report.groups.length > 0) {
    out.push('', 'Groups');
    for (const g of report.groups) {
      const ids = g.xxlIds.length > 0 ? ` (XXL-JOB group ${g.xxlIds.join(', ')})` : ` (line ${g.line})`;
      const shape =
        g.addressType === undefined
          ? ''
          : ` ${g.addressType}${g.addressList && g.addressList.length > 0 ? ` ${g.addressList.join(', ')}` : ''}`;
      out.push(
        `  ${MARKS[g.outcome]} ${g.appName || '(no appName)'} ${JSON.stringify(g.title)}${shape}${ids}: ${WORDS[g.outcome]}${g.message ? `: ${g.message}` : ''}`,
      );
      if (g.accessToken) out.push(`      access token: ${g.accessToken}`);
      details(out, g.changes, g.notes);
    }
  }
  if (report.jobs.length > 0) {
    out.push('', 'Jobs');
    for (const j of report.jobs) {
      const xxl = j.xxlId === null ? `line ${j.line}` : `#${j.xxlId}`;
      const where = j.appName ? ` → ${j.appName}` : '';
      const what = j.schedule ? `, ${j.schedule}, ${j.handler}` : '';
      const id = j.id === undefined ? '' : ` as job ${j.id}`;
      out.push(
        `  ${MARKS[j.outcome]} ${xxl} ${JSON.stringify(j.name)}${where}${what}: ${WORDS[j.outcome]}${id}${j.message ? `: ${j.message}` : ''}`,
      );
      details(out, j.changes, j.notes);
    }
  }
  if (report.links.length > 0) {
    out.push('', 'Child links');
    for (const l of report.links) {
      const id = l.id === undefined ? '' : ` (job ${l.id})`;
      const sent = l.childJobIds ? ` → childJobIds [${l.childJobIds.join(', ')}]` : '';
      out.push(
        `  ${MARKS[l.outcome]} #${l.xxlId}${id} children ${l.childXxlIds.map((c) => `#${c}`).join(', ')}${sent}: ${WORDS[l.outcome]}${l.message ? `: ${l.message}` : ''}`,
      );
    }
  }
  if (report.toStart.length > 0) {
    out.push('', 'RUNNING in XXL-JOB, STOPPED in tickring: start them once their executors are registered');
    for (const s of report.toStart) {
      out.push(
        `  #${s.xxlId} ${JSON.stringify(s.name)}${s.id === null ? '' : `: POST /v1/jobs/${s.id}/start`}`,
      );
    }
  }
  if (report.notes.length > 0) {
    out.push('', 'Notes');
    for (const note of report.notes) out.push(`  - ${note}`);
  }
  return `${out.join('\n')}\n`;
}

function summary(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([outcome, n]) => `${n} ${WORDS[outcome as ItemOutcome | LinkOutcome]}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

function details(out: string[], changes: readonly string[], notes: readonly string[]): void {
  for (const change of changes) out.push(`      changed: ${change}`);
  for (const note of notes) out.push(`      note: ${note}`);
}
