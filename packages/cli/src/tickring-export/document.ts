/**
 * The export document: one versioned JSON file with a tickring installation's configuration (groups,
 * jobs, workflows), written by `tickring export` and read by `tickring import tickring`. This file is
 * the one definition of its shape: the types, what an export writes ({@link exportedJob} ...), and
 * {@link validateDocument}, which reports every problem of a document at once.
 *
 * Not in it: run history (runs, logs, workflow runs), users, grants, API tokens, and secrets of any
 * kind (a group's own access token is marked `hasOwnAccessToken`, never carried).
 */
import type { Group, Job, Workflow } from '@tickring/client';
import {
  ADDRESS_TYPES,
  APP_NAME_PATTERN,
  BLOCK_STRATEGIES,
  GLUE_TYPES,
  LIMITS,
  MISFIRE_STRATEGIES,
  ROUTE_STRATEGIES,
  SCHEDULE_TYPES,
} from '../import-xxl-job/types.js';

export const EXPORT_FORMAT = 'tickring-export';
export const EXPORT_VERSION = 1;

/** The API's names (checked against the scheduler's by document.test.ts). */
export const TRIGGER_STATUSES = ['RUNNING', 'STOPPED'] as const;
export const OVERLAP_POLICIES = ['SKIP', 'BUFFER_ONE', 'ALLOW', 'CANCEL_PREVIOUS'] as const;
export const EDGE_CONDITIONS = ['ON_SUCCESS', 'ON_FAILURE', 'ALWAYS'] as const;

/** Every field of a job an admin sets (the API's editable fields), as the export carries them. */
export const EXPORTED_JOB_FIELDS = [
  'appName',
  'name',
  'author',
  'alarmEmail',
  'alarmWebhook',
  'scheduleType',
  'scheduleConf',
  'timeZone',
  'misfireStrategy',
  'startAt',
  'endAt',
  'maxRuns',
  'jitterSeconds',
  'failurePolicy',
  'deadline',
  'calendars',
  'logRetentionDays',
  'keepSuccessfulRuns',
  'executorRouteStrategy',
  'executorHandler',
  'executorParam',
  'executorBlockStrategy',
  'executorTimeout',
  'executorFailRetryCount',
  'retryBackoffSeconds',
  'glueType',
  'glueSource',
  'childJobIds',
  'triggerStatus',
] as const satisfies readonly (keyof Job)[];

/**
 * A job's fields the export leaves out: its alert channels (a group's too, see `exportedGroup`).
 * Channels are the installation's own: their ids are random per installation and their secrets are
 * sealed under its token key, so they cannot move with the document; the target's ids would not
 * match, and the target refuses an id it does not have. An imported job alerts through its job's
 * alarmEmail / alarmWebhook until channels are set on the target.
 */
export const UNEXPORTED_JOB_FIELDS = ['alertChannels'] as const satisfies readonly (keyof Job)[];

/** A workflow's definition fields, as the export carries them. */
export const EXPORTED_WORKFLOW_FIELDS = [
  'name',
  'appName',
  'scheduleType',
  'scheduleConf',
  'timeZone',
  'misfireStrategy',
  'startAt',
  'endAt',
  'maxRuns',
  'jitterSeconds',
  'overlapPolicy',
  'deadline',
  'calendars',
  'triggerStatus',
  'nodes',
] as const satisfies readonly (keyof Workflow)[];

export interface ExportedGroup {
  readonly appName: string;
  readonly title: string;
  readonly addressType: Group['addressType'];
  /** MANUAL groups only: AUTO groups learn their addresses from executors registering. */
  readonly addressList?: readonly string[];
  /** The group had an access token of its own on the source; the token is a secret and not carried. */
  readonly hasOwnAccessToken: boolean;
}

/** A job: its id on the source (childJobIds and workflow nodes name jobs by it) and the fields an admin sets. */
/** Fields an export made before them lacks: a document that has none of them is read as none set. */
type AddedJobFields = 'failurePolicy' | 'deadline' | 'logRetentionDays' | 'keepSuccessfulRuns';
type AddedWorkflowFields = 'startAt' | 'endAt' | 'maxRuns' | 'jitterSeconds' | 'deadline' | 'calendars';

export type ExportedJob = { readonly id: number } & Readonly<
  Pick<Job, Exclude<(typeof EXPORTED_JOB_FIELDS)[number], AddedJobFields>>
> &
  Readonly<Partial<Pick<Job, AddedJobFields>>>;

export interface ExportedEdge {
  readonly key: string;
  readonly condition: (typeof EDGE_CONDITIONS)[number];
}

export interface ExportedNode {
  readonly key: string;
  /** A job of the document, by its source id. */
  readonly jobId: number;
  /** The node's template; absent: the job's own executorParam. */
  readonly executorParam?: string;
  readonly upstream: readonly ExportedEdge[];
}

export type ExportedWorkflow = {
  /** Its id on the source. */
  readonly id: number;
  /**
   * The source's id of its schedule job (managed by the workflow, so not among the jobs, and made
   * anew by the target); kept because a job's childJobIds may name it. null for a NONE schedule.
   */
  readonly starterJobId: number | null;
  readonly nodes: readonly ExportedNode[];
} & Readonly<
  Pick<Workflow, Exclude<(typeof EXPORTED_WORKFLOW_FIELDS)[number], 'nodes' | AddedWorkflowFields>>
> &
  Readonly<Partial<Pick<Workflow, AddedWorkflowFields>>>;

export interface ExportDocument {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: typeof EXPORT_VERSION;
  /** ISO-8601 UTC. */
  readonly exportedAt: string;
  /** The API URL it was read from. */
  readonly source: string;
  readonly groups: readonly ExportedGroup[];
  /** In source id order; a workflow's schedule job is not among them (the workflow makes its own). */
  readonly jobs: readonly ExportedJob[];
  readonly workflows: readonly ExportedWorkflow[];
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The document of what the API listed: every group, job and workflow the caller reads. */
export function buildExportDocument(read: {
  readonly source: string;
  readonly exportedAt: string;
  readonly groups: readonly Group[];
  readonly jobs: readonly Job[];
  readonly workflows: readonly Workflow[];
}): ExportDocument {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: read.exportedAt,
    source: read.source,
    groups: read.groups.map(exportedGroup),
    jobs: read.jobs
      .filter((j) => !isWorkflowScheduleJob(j))
      .sort((a, b) => a.id - b.id)
      .map(exportedJob),
    workflows: [...read.workflows].sort((a, b) => a.id - b.id).map(exportedWorkflow),
  };
}

/** A group as exported: its alert channels stay behind, as a job's do (see UNEXPORTED_JOB_FIELDS). */
export function exportedGroup(group: Group): ExportedGroup {
  return {
    appName: group.appName,
    title: group.title,
    addressType: group.addressType,
    ...(group.addressType === 'MANUAL' ? { addressList: [...group.addressList] } : {}),
    hasOwnAccessToken: group.accessTokenSetAt !== null,
  };
}

export function exportedJob(job: Job): ExportedJob {
  const fields = Object.fromEntries(EXPORTED_JOB_FIELDS.map((f) => [f, job[f]]));
  return { id: job.id, ...fields } as ExportedJob;
}

export function exportedWorkflow(workflow: Workflow): ExportedWorkflow {
  return {
    id: workflow.id,
    starterJobId: workflow.starterJobId,
    name: workflow.name,
    appName: workflow.appName,
    scheduleType: workflow.scheduleType,
    scheduleConf: workflow.scheduleConf,
    timeZone: workflow.timeZone,
    misfireStrategy: workflow.misfireStrategy,
    startAt: workflow.startAt,
    endAt: workflow.endAt,
    maxRuns: workflow.maxRuns,
    jitterSeconds: workflow.jitterSeconds,
    overlapPolicy: workflow.overlapPolicy,
    deadline: workflow.deadline,
    ...(workflow.calendars === undefined ? {} : { calendars: workflow.calendars }),
    triggerStatus: workflow.triggerStatus,
    nodes: workflow.nodes.map((n) => ({
      key: n.key,
      jobId: n.jobId,
      ...(n.executorParam === undefined ? {} : { executorParam: n.executorParam }),
      upstream: (n.upstream ?? []).map((e) => ({ key: e.key, condition: e.condition ?? 'ON_SUCCESS' })),
    })),
  };
}

/** A workflow's schedule job is the workflow's: it is exported with the workflow, not as a job. */
export function isWorkflowScheduleJob(job: Pick<Job, 'workflowId'>): boolean {
  return job.workflowId !== null;
}

// ---------------------------------------------------------------------------------------------
// Reading

export type Validation =
  | { readonly ok: true; readonly document: ExportDocument }
  | { readonly ok: false; readonly problems: readonly string[] };

type Rule =
  | {
      readonly type: 'string';
      readonly max?: number;
      readonly notBlank?: true;
      readonly pattern?: RegExp;
      readonly nullable?: true;
    }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'int'; readonly min: number; readonly nullable?: true }
  | { readonly type: 'boolean' }
  /** A share in (0, 1], or null. */
  | { readonly type: 'share' }
  | { readonly type: 'strings'; readonly max: number }
  | { readonly type: 'ids'; readonly max: number }
  | { readonly type: 'array' }
  /** A JSON object (or null): its fields are the server's to check on import. */
  | { readonly type: 'object'; readonly nullable: true }
  | { readonly type: 'calendars' };

interface Shape {
  readonly required: Readonly<Record<string, Rule>>;
  readonly optional?: Readonly<Record<string, Rule>>;
}

const str = (max: number, extra: { notBlank?: true; pattern?: RegExp } = {}): Rule => ({
  type: 'string',
  max,
  ...extra,
});
const oneOf = (values: readonly string[]): Rule => ({ type: 'enum', values });
const count = (min = 0): Rule => ({ type: 'int', min });
const APP_NAME: Rule = { type: 'string', max: LIMITS.appName, pattern: APP_NAME_PATTERN };

const DOCUMENT_SHAPE: Shape = {
  required: {
    format: oneOf([EXPORT_FORMAT]),
    version: count(1),
    exportedAt: str(64),
    source: str(2048),
    groups: { type: 'array' },
    jobs: { type: 'array' },
    workflows: { type: 'array' },
  },
};

const GROUP_SHAPE: Shape = {
  required: {
    appName: APP_NAME,
    title: str(LIMITS.groupTitle, { notBlank: true }),
    addressType: oneOf(ADDRESS_TYPES),
    hasOwnAccessToken: { type: 'boolean' },
  },
  optional: { addressList: { type: 'strings', max: LIMITS.addressList } },
};

const JOB_SHAPE: Shape = {
  required: {
    id: count(1),
    appName: APP_NAME,
    name: str(LIMITS.name, { notBlank: true }),
    author: str(LIMITS.author, { notBlank: true }),
    alarmEmail: str(LIMITS.alarmEmail),
    alarmWebhook: str(LIMITS.address),
    scheduleType: oneOf(SCHEDULE_TYPES),
    scheduleConf: str(LIMITS.scheduleConf),
    timeZone: str(64, { notBlank: true }),
    misfireStrategy: oneOf(MISFIRE_STRATEGIES),
    executorRouteStrategy: oneOf(ROUTE_STRATEGIES),
    executorHandler: str(LIMITS.executorHandler),
    executorParam: str(LIMITS.executorParam),
    executorBlockStrategy: oneOf(BLOCK_STRATEGIES),
    executorTimeout: count(),
    executorFailRetryCount: count(),
    retryBackoffSeconds: count(),
    glueType: oneOf(GLUE_TYPES),
    glueSource: str(LIMITS.glueSource),
    childJobIds: { type: 'ids', max: LIMITS.childJobIds },
    triggerStatus: oneOf(TRIGGER_STATUSES),
  },
  // The schedule's bounds and jitter: exports made before them lack them (no bound, no jitter).
  optional: {
    startAt: { type: 'string', nullable: true },
    endAt: { type: 'string', nullable: true },
    maxRuns: { type: 'int', min: 1, nullable: true },
    jitterSeconds: { type: 'int', min: 0 },
    // The failure policy and the deadline: exports made before them lack them (none).
    failurePolicy: { type: 'object', nullable: true },
    deadline: { type: 'object', nullable: true },
    // The calendars the schedule names (by id: the target must hold calendars of those ids).
    calendars: { type: 'calendars' },
    // The log retention: exports made before it lack it (the deployment's, every success kept).
    logRetentionDays: { type: 'int', min: 1, nullable: true },
    keepSuccessfulRuns: { type: 'share' },
  },
};

const WORKFLOW_SHAPE: Shape = {
  required: {
    id: count(1),
    starterJobId: { type: 'int', min: 1, nullable: true },
    name: str(LIMITS.name, { notBlank: true }),
    appName: APP_NAME,
    scheduleType: oneOf(SCHEDULE_TYPES),
    scheduleConf: str(LIMITS.scheduleConf),
    timeZone: str(64, { notBlank: true }),
    misfireStrategy: oneOf(MISFIRE_STRATEGIES),
    overlapPolicy: oneOf(OVERLAP_POLICIES),
    triggerStatus: oneOf(TRIGGER_STATUSES),
    nodes: { type: 'array' },
  },
  // The schedule's bounds and jitter: exports made before workflows had them lack them.
  optional: {
    startAt: { type: 'string', nullable: true },
    endAt: { type: 'string', nullable: true },
    maxRuns: { type: 'int', min: 1, nullable: true },
    jitterSeconds: { type: 'int', min: 0 },
    // The deadline: exports made before workflows had one lack it (none).
    deadline: { type: 'object', nullable: true },
    // The calendars its schedule names (by id, as a job's); exports made before them lack them.
    calendars: { type: 'calendars' },
  },
};

const NODE_SHAPE: Shape = {
  required: { key: str(64, { notBlank: true }), jobId: count(1), upstream: { type: 'array' } },
  // A template: its limit is in UTF-8 bytes, which the server checks.
  optional: { executorParam: { type: 'string' } },
};

const EDGE_SHAPE: Shape = {
  required: { key: str(64, { notBlank: true }), condition: oneOf(EDGE_CONDITIONS) },
};

/**
 * Checks a parsed document whole: its shape (every field, every unknown one), then what refers to
 * what (ids unique, each child job and workflow node a job of the document, each job's and workflow's
 * group in it, node keys and edges, no child-job cycle). Every problem is reported, each with where
 * it is (`jobs[3] (#12).childJobIds`); nothing is checked against a server here.
 */
export function validateDocument(value: unknown): Validation {
  const problems: string[] = [];
  if (!isObject(value)) return { ok: false, problems: ['the document must be one JSON object'] };
  if (value.format !== EXPORT_FORMAT) {
    return {
      ok: false,
      problems: [
        `format: expected "${EXPORT_FORMAT}" (a file written by \`tickring export\`), got ${show(value.format)}`,
      ],
    };
  }
  if (typeof value.version === 'number' && value.version > EXPORT_VERSION) {
    return {
      ok: false,
      problems: [
        `version: ${value.version} was written by a newer tickring; this command line reads version ${EXPORT_VERSION}: update it`,
      ],
    };
  }
  checkShape(value, '', DOCUMENT_SHAPE, problems);
  if (value.version !== undefined && value.version !== EXPORT_VERSION && typeof value.version === 'number') {
    problems.push(`version: expected ${EXPORT_VERSION}, got ${value.version}`);
  }

  const groups = itemsOf(value.groups, 'groups', GROUP_SHAPE, problems, (g, at) => {
    if (g.addressType === 'MANUAL' && (!Array.isArray(g.addressList) || g.addressList.length === 0)) {
      problems.push(`${at}.addressList: a MANUAL group needs its addresses`);
    }
    if (g.addressType === 'AUTO' && g.addressList !== undefined) {
      problems.push(`${at}.addressList: an AUTO group has none (its executors register)`);
    }
  });
  const jobs = itemsOf(value.jobs, 'jobs', JOB_SHAPE, problems);
  const workflows = itemsOf(value.workflows, 'workflows', WORKFLOW_SHAPE, problems, (w, at) => {
    if (!Array.isArray(w.nodes)) return;
    if (w.nodes.length === 0) problems.push(`${at}.nodes: a workflow has at least one node`);
    w.nodes.forEach((node, i) => {
      const nodeAt = `${at}.nodes[${i}]`;
      if (!isObject(node)) {
        problems.push(`${nodeAt}: expected an object, got ${show(node)}`);
        return;
      }
      checkShape(node, nodeAt, NODE_SHAPE, problems);
      if (Array.isArray(node.upstream)) {
        node.upstream.forEach((edge, j) => {
          if (!isObject(edge))
            problems.push(`${nodeAt}.upstream[${j}]: expected an object, got ${show(edge)}`);
          else checkShape(edge, `${nodeAt}.upstream[${j}]`, EDGE_SHAPE, problems);
        });
      }
    });
  });

  checkReferences(groups, jobs, workflows, problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, document: value as unknown as ExportDocument };
}

/** The cross-references, read from items whose own shape may be broken (such fields are skipped). */
function checkReferences(
  groups: readonly Item[],
  jobs: readonly Item[],
  workflows: readonly Item[],
  problems: string[],
): void {
  const appNames = new Set<string>();
  for (const { value: g, at } of groups) {
    if (typeof g.appName !== 'string') continue;
    if (appNames.has(g.appName)) problems.push(`${at}.appName: "${g.appName}" is listed twice`);
    appNames.add(g.appName);
  }
  const groupMissing = (at: string, appName: unknown) => {
    if (typeof appName === 'string' && !appNames.has(appName)) {
      problems.push(`${at}.appName: group "${appName}" is not in the document`);
    }
  };

  const jobById = new Map<number, Item>();
  for (const job of jobs) {
    const { value: j, at } = job;
    groupMissing(at, j.appName);
    if (!isId(j.id)) continue;
    if (jobById.has(j.id)) problems.push(`${at}.id: job #${j.id} is listed twice`);
    else jobById.set(j.id, job);
  }
  const starterIds = new Set<number>();
  const workflowIds = new Set<number>();
  for (const { value: w, at } of workflows) {
    groupMissing(at, w.appName);
    if (isId(w.id)) {
      if (workflowIds.has(w.id)) problems.push(`${at}.id: workflow #${w.id} is listed twice`);
      workflowIds.add(w.id);
    }
    if (isId(w.starterJobId)) {
      if (jobById.has(w.starterJobId) || starterIds.has(w.starterJobId)) {
        problems.push(`${at}.starterJobId: job #${w.starterJobId} is listed as another job too`);
      }
      starterIds.add(w.starterJobId);
    }
  }

  for (const { value: j, at } of jobs) {
    if (!Array.isArray(j.childJobIds)) continue;
    const seen = new Set<number>();
    for (const child of j.childJobIds) {
      if (!isId(child)) continue;
      if (child === j.id) problems.push(`${at}.childJobIds: the job names itself`);
      else if (!jobById.has(child) && !starterIds.has(child)) {
        problems.push(`${at}.childJobIds: job #${child} is not in the document`);
      }
      if (seen.has(child)) problems.push(`${at}.childJobIds: job #${child} is named twice`);
      seen.add(child);
    }
  }
  for (const cycle of childCycles(jobs)) {
    problems.push(`jobs: child jobs make a cycle: ${cycle.map((id) => `#${id}`).join(' → ')}`);
  }

  for (const { value: w, at } of workflows) {
    if (!Array.isArray(w.nodes)) continue;
    const keys = new Set<string>();
    for (const node of w.nodes) {
      if (isObject(node) && typeof node.key === 'string') {
        if (keys.has(node.key)) problems.push(`${at}.nodes: key "${node.key}" is used twice`);
        keys.add(node.key);
      }
    }
    w.nodes.forEach((node, i) => {
      if (!isObject(node)) return;
      const nodeAt = `${at}.nodes[${i}]`;
      if (isId(node.jobId)) {
        const job = jobById.get(node.jobId);
        if (!job) problems.push(`${nodeAt}.jobId: job #${node.jobId} is not in the document`);
        else if (typeof w.appName === 'string' && job.value.appName !== w.appName) {
          problems.push(
            `${nodeAt}.jobId: job #${node.jobId} is of group "${String(job.value.appName)}", not the workflow's "${w.appName}"`,
          );
        }
      }
      if (!Array.isArray(node.upstream)) return;
      for (const edge of node.upstream) {
        if (!isObject(edge) || typeof edge.key !== 'string') continue;
        if (edge.key === node.key) problems.push(`${nodeAt}.upstream: the node names itself`);
        else if (!keys.has(edge.key)) problems.push(`${nodeAt}.upstream: no node has the key "${edge.key}"`);
      }
    });
  }
}

/** Each child-job cycle once (a depth-first walk over the jobs whose ids and children read well). */
function childCycles(jobs: readonly Item[]): number[][] {
  const children = new Map<number, number[]>();
  for (const { value: j } of jobs) {
    // A job naming itself is reported on its own.
    const id = j.id;
    if (isId(id) && Array.isArray(j.childJobIds))
      children.set(
        id,
        j.childJobIds.filter((c) => isId(c) && c !== id),
      );
  }
  const cycles: number[][] = [];
  const state = new Map<number, 'open' | 'done'>();
  const path: number[] = [];
  const visit = (id: number): void => {
    state.set(id, 'open');
    path.push(id);
    for (const child of children.get(id) ?? []) {
      if (state.get(child) === 'open') cycles.push([...path.slice(path.indexOf(child)), child]);
      else if (!state.has(child) && children.has(child)) visit(child);
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of children.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

interface Item {
  readonly value: Record<string, unknown>;
  /** Where it is, for problems: `jobs[3] (#12)`. */
  readonly at: string;
}

function itemsOf(
  list: unknown,
  name: string,
  shape: Shape,
  problems: string[],
  more?: (item: Record<string, unknown>, at: string) => void,
): Item[] {
  if (!Array.isArray(list)) return [];
  const items: Item[] = [];
  list.forEach((value, i) => {
    if (!isObject(value)) {
      problems.push(`${name}[${i}]: expected an object, got ${show(value)}`);
      return;
    }
    const label = isId(value.id)
      ? ` (#${value.id})`
      : typeof value.appName === 'string' && name === 'groups'
        ? ` (${value.appName})`
        : '';
    const at = `${name}[${i}]${label}`;
    checkShape(value, at, shape, problems);
    more?.(value, at);
    items.push({ value, at });
  });
  return items;
}

function checkShape(value: Record<string, unknown>, at: string, shape: Shape, problems: string[]): void {
  const prefix = at === '' ? '' : `${at}.`;
  for (const [field, rule] of Object.entries(shape.required)) {
    if (!(field in value)) problems.push(`${prefix}${field}: missing`);
    else checkRule(value[field], `${prefix}${field}`, rule, problems);
  }
  for (const [field, rule] of Object.entries(shape.optional ?? {})) {
    if (value[field] !== undefined) checkRule(value[field], `${prefix}${field}`, rule, problems);
  }
  for (const field of Object.keys(value)) {
    if (!(field in shape.required) && !(field in (shape.optional ?? {}))) {
      problems.push(`${prefix}${field}: unknown field`);
    }
  }
}

function checkRule(value: unknown, at: string, rule: Rule, problems: string[]): void {
  const fail = (expected: string) => problems.push(`${at}: expected ${expected}, got ${show(value)}`);
  switch (rule.type) {
    case 'string':
      if (value === null && rule.nullable) return;
      if (typeof value !== 'string') return void fail(`a string${rule.nullable ? ' or null' : ''}`);
      if (rule.max !== undefined && value.length > rule.max) {
        problems.push(`${at}: longer than ${rule.max} characters (${value.length})`);
      }
      if (rule.notBlank && value.trim() === '') problems.push(`${at}: blank`);
      if (rule.pattern && !rule.pattern.test(value))
        problems.push(`${at}: ${show(value)} has characters not allowed`);
      return;
    case 'enum':
      if (typeof value !== 'string' || !rule.values.includes(value)) fail(`one of ${rule.values.join(', ')}`);
      return;
    case 'int':
      if (value === null && rule.nullable) return;
      if (!Number.isSafeInteger(value) || (value as number) < rule.min) {
        fail(`a whole number >= ${rule.min}${rule.nullable ? ' or null' : ''}`);
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail('true or false');
      return;
    case 'share':
      if (value === null) return;
      if (typeof value !== 'number' || !(value > 0 && value <= 1))
        fail('a number above 0 and at most 1, or null');
      return;
    case 'array':
      if (!Array.isArray(value)) fail('an array');
      return;
    case 'object':
      if (value === null) return;
      if (typeof value !== 'object' || Array.isArray(value)) fail('a JSON object or null');
      return;
    case 'calendars': {
      if (!isObject(value)) return void fail('{only: [calendar ids], exclude: [calendar ids]}');
      for (const [list, ids] of Object.entries(value)) {
        if (list !== 'only' && list !== 'exclude') problems.push(`${at}.${list}: unknown field`);
        else checkRule(ids, `${at}.${list}`, { type: 'strings', max: 10 }, problems);
      }
      return;
    }
    case 'strings':
    case 'ids': {
      const what = rule.type === 'ids' ? 'job ids' : 'strings';
      if (!Array.isArray(value)) return void fail(`an array of ${what}`);
      if (value.length > rule.max) problems.push(`${at}: more than ${rule.max} entries (${value.length})`);
      value.forEach((entry, i) => {
        const good = rule.type === 'ids' ? isId(entry) : typeof entry === 'string';
        if (!good)
          problems.push(
            `${at}[${i}]: expected ${rule.type === 'ids' ? 'a job id' : 'a string'}, got ${show(entry)}`,
          );
      });
      return;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
