/**
 * A workflow: a DAG of jobs of one executor group, started by its schedule (or by hand), each node
 * one run of a job with a parameter rendered from the run's input and its upstream nodes' results.
 *
 * `validateWorkflow` reads what an admin sends and reports every problem at once, each naming its
 * field (`nodes[3].upstream[0].key`). Whether the group and the jobs exist, and whether each job
 * belongs to the group, is for the use-case to check (it needs the tables).
 */

import type { ScheduleCalendars } from '../../calendars/calendar-schedule.js';
import { RequestValidationError, ValidationError } from '../../common/errors.js';
import type { Problem } from '../../identity/identity.js';
import { type Deadline, deadlineProblems } from '../../jobs/deadline.js';
import {
  APP_NAME,
  BOUND_FIELDS,
  boundsProblems,
  checkSchedule,
  GROUP_LIMITS,
  JOB_LIMITS,
  readBoundField,
  readScheduleCalendars,
  withoutUndefined,
} from '../../jobs/job-validation.js';
import { MAX_JOB_ID } from '../../runs/run.js';
import {
  DEFAULT_TIME_ZONE,
  MISFIRE_STRATEGIES,
  type MisfireStrategy,
  SCHEDULE_TYPES,
  type Schedule,
  type ScheduleType,
} from '../../schedule/index.js';
import {
  ancestorSets,
  findCycles,
  type GraphEdge,
  graphOf,
  neverRunnable,
  topologicalOrder,
  type WorkflowGraph,
} from './graph.js';
import { EDGE_CONDITIONS, type EdgeCondition } from './status.js';
import { type ParsedTemplate, parseTemplate, TEMPLATE_LIMITS } from './template.js';

export type { Problem };

/**
 * What a new run does while earlier runs of its workflow are still running:
 * - `SKIP` (the default): it is not started (recorded as skipped);
 * - `BUFFER_ONE`: it waits, and starts when the running one ends; one waits at most, later ones are skipped;
 * - `ALLOW`: it starts beside them;
 * - `CANCEL_PREVIOUS`: the running ones are cancelled and it starts.
 */
export const OVERLAP_POLICIES = ['SKIP', 'BUFFER_ONE', 'ALLOW', 'CANCEL_PREVIOUS'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

export interface UpstreamEdge {
  readonly key: string;
  readonly condition: EdgeCondition;
}

export interface WorkflowNode {
  /** Unique in the workflow: a letter, then letters, digits, '_' and '-' (1–64). */
  readonly key: string;
  /** The job the node runs (of the workflow's group). */
  readonly jobId: number;
  /** A template (template.ts) for the run's executorParam; absent: the job's own executorParam. */
  readonly executorParam?: string;
  /** The nodes it runs after; empty for a root. */
  readonly upstream: readonly UpstreamEdge[];
}

/** A checked definition, deeply frozen: one version of a workflow, as its runs keep it. */
export interface WorkflowDefinition {
  readonly name: string;
  readonly appName: string;
  readonly scheduleType: ScheduleType;
  readonly scheduleConf: string;
  readonly timeZone: string;
  /** What a scheduled fire missed by more than 5 s does (the jobs' rule): skipped, or one catch-up run. */
  readonly misfireStrategy: MisfireStrategy;
  /** The schedule's bounds and jitter, as a job's (epoch ms; absent: none), given to its starter job. */
  readonly startAt?: number;
  readonly endAt?: number;
  readonly maxRuns?: number;
  readonly jitterSeconds?: number;
  /** The calendars the schedule follows, as a job's (its starter job carries them); absent: none. */
  readonly calendars?: ScheduleCalendars;
  readonly overlapPolicy: OverlapPolicy;
  /** Must have succeeded by (a run that ended SUCCEEDED), as a job's deadline; absent: none. */
  readonly deadline?: Deadline;
  readonly nodes: readonly WorkflowNode[];
}

export const WORKFLOW_FIELDS = [
  'name',
  'appName',
  'scheduleType',
  'scheduleConf',
  'timeZone',
  'misfireStrategy',
  ...BOUND_FIELDS,
  'calendars',
  'overlapPolicy',
  'deadline',
  'nodes',
] as const satisfies readonly (keyof WorkflowDefinition)[];
const NODE_FIELDS = ['key', 'jobId', 'executorParam', 'upstream'] as const;
const EDGE_FIELDS = ['key', 'condition'] as const;

export const WORKFLOW_LIMITS = {
  /** Nodes of one workflow. */
  nodes: 200,
  keyLength: 64,
  name: JOB_LIMITS.name,
  appNameMin: GROUP_LIMITS.appNameMin,
  appName: GROUP_LIMITS.appName,
  scheduleConf: JOB_LIMITS.scheduleConf,
  timeZone: JOB_LIMITS.timeZone,
  /** One node's executorParam template, UTF-8 bytes. */
  templateBytes: TEMPLATE_LIMITS.templateBytes,
} as const;

export const WORKFLOW_DEFAULTS = {
  scheduleType: 'NONE',
  scheduleConf: '',
  timeZone: DEFAULT_TIME_ZONE,
  misfireStrategy: 'DO_NOTHING',
  overlapPolicy: 'SKIP',
} as const satisfies Partial<WorkflowDefinition>;

const NODE_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export type WorkflowValidation =
  | { readonly ok: WorkflowDefinition }
  | { readonly problems: readonly Problem[] };

/** A node as read, before the graph checks; fields that were wrong are undefined. */
interface NodeDraft {
  readonly key: string | undefined;
  readonly jobId: number | undefined;
  readonly executorParam: string | undefined;
  readonly template: ParsedTemplate | undefined;
  readonly upstream: readonly EdgeDraft[];
  /** Whether the node has no upstream, or its upstream could not be read (so it may be a root). */
  readonly maybeRoot: boolean;
}

interface EdgeDraft {
  readonly key: string | undefined;
  readonly condition: EdgeCondition | undefined;
}

/**
 * Reads and checks a workflow definition. Optional fields take WORKFLOW_DEFAULTS; a node's
 * `upstream` defaults to none and an edge's `condition` to ON_SUCCESS. The rules:
 * - name (1–255, not blank), appName (the group's rule), schedule (the jobs' rules; NONE takes no
 *   scheduleConf), its bounds and jitter (the jobs' rules, `nowMs` where a cron's intervals are
 *   looked at from), overlapPolicy, the deadline (a job's rules; null or absent: none), no unknown
 *   fields anywhere;
 * - 1–200 nodes; keys unique, 1–64 characters `[A-Za-z0-9_-]` starting with a letter; jobId a
 *   positive integer; each upstream key a node other than itself, listed once;
 * - acyclic: each strongly connected component is reported with one of its cycles, named;
 * - at least one root (a node without upstream);
 * - each executorParam parses and refers only to `input…` or `nodes.<key>.result…` of an ancestor;
 * - no node that can never run whatever the outcomes (graph.ts `neverRunnable`): e.g. one that
 *   needs a to succeed on one path and to fail on another.
 * More than 200 nodes is reported alone for the nodes (they are not read further).
 */
export function validateWorkflow(input: unknown, nowMs: number = Date.now()): WorkflowValidation {
  if (!isRecord(input)) return { problems: [{ field: 'body', message: 'a workflow must be a JSON object' }] };
  const problems: Problem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  unknownFields(input, WORKFLOW_FIELDS, '', 'workflow', problem);

  const name = readString(input, 'name', '', WORKFLOW_LIMITS.name, problem, { required: true });
  if (name !== undefined && name.trim() === '') problem('name', 'name must not be blank');
  const appName = readString(input, 'appName', '', Number.MAX_SAFE_INTEGER, problem, {
    required: true,
  })?.trim();
  if (appName !== undefined) {
    const { appNameMin: min, appName: max } = WORKFLOW_LIMITS;
    if (appName.length < min || appName.length > max || !APP_NAME.test(appName)) {
      problem(
        'appName',
        `appName must be the executor group's AppName: ${min}-${max} characters of letters, digits, '_', '.' and '-'; got ${show(appName)}`,
      );
    }
  }
  const schedule = readSchedule(input, problem);
  const bounds = readBounds(input, schedule, nowMs, problem);
  const misfireStrategy =
    readEnum(input, 'misfireStrategy', '', MISFIRE_STRATEGIES, problem) ?? WORKFLOW_DEFAULTS.misfireStrategy;
  const calendars = readCalendars(input, problem);
  const overlapPolicy =
    readEnum(input, 'overlapPolicy', '', OVERLAP_POLICIES, problem) ?? WORKFLOW_DEFAULTS.overlapPolicy;
  const deadline = readDeadline(input, problem);
  const drafts = readNodes(input, problem);
  if (drafts !== undefined) checkGraph(drafts, problem);

  if (problems.length > 0 || name === undefined || appName === undefined || !schedule || !drafts) {
    return { problems };
  }
  const nodes = drafts.map(
    (draft): WorkflowNode =>
      Object.freeze({
        key: draft.key!,
        jobId: draft.jobId!,
        ...(draft.executorParam === undefined ? {} : { executorParam: draft.executorParam }),
        upstream: Object.freeze(
          draft.upstream.map((edge) => Object.freeze({ key: edge.key!, condition: edge.condition! })),
        ),
      }),
  );
  return {
    ok: Object.freeze({
      name,
      appName,
      ...schedule,
      misfireStrategy,
      ...bounds,
      ...(calendars === undefined ? {} : { calendars }),
      overlapPolicy,
      ...(deadline === undefined ? {} : { deadline: Object.freeze(deadline) }),
      nodes: Object.freeze(nodes),
    }),
  };
}

/** `validateWorkflow`, throwing a ValidationError (the first problem's field; every message) instead. */
export function parseWorkflow(input: unknown, nowMs?: number): WorkflowDefinition {
  const result = validateWorkflow(input, nowMs);
  if ('ok' in result) return result.ok;
  const [first] = result.problems;
  throw new ValidationError(result.problems.map((p) => `${p.field}: ${p.message}`).join('; '), first?.field);
}

type Report = (field: string, message: string) => void;

/** The deadline, checked by a job's rules (every problem of it); null or absent: none. */
function readDeadline(input: Record<string, unknown>, problem: Report): Deadline | undefined {
  const value = own(input, 'deadline');
  if (value === undefined || value === null) return undefined;
  const problems = deadlineProblems(value);
  for (const p of problems) problem(p.field ?? 'deadline', p.message);
  if (problems.length > 0) return undefined;
  const { time, timeZone, days } = value as Deadline;
  return { time, timeZone, ...(days === undefined ? {} : { days }) };
}

/** The schedule's calendars, as a job's (`readScheduleCalendars`), their problems reported. */
function readCalendars(input: Record<string, unknown>, problem: Report): ScheduleCalendars | undefined {
  if (input.calendars === undefined) return undefined;
  try {
    return readScheduleCalendars(input.calendars);
  } catch (err) {
    if (err instanceof RequestValidationError)
      for (const p of err.problems) problem(p.field ?? 'calendars', p.message);
    else if (err instanceof ValidationError) problem('calendars', err.message);
    else throw err;
    return undefined;
  }
}

function readSchedule(
  input: Record<string, unknown>,
  problem: Report,
): Pick<WorkflowDefinition, 'scheduleType' | 'scheduleConf' | 'timeZone'> | undefined {
  const type = readEnum(input, 'scheduleType', '', SCHEDULE_TYPES, problem);
  const conf = readString(input, 'scheduleConf', '', WORKFLOW_LIMITS.scheduleConf, problem);
  const zone = readString(input, 'timeZone', '', WORKFLOW_LIMITS.timeZone, problem)?.trim();
  const given = (name: string) => own(input, name) !== undefined;
  if (
    (type === undefined && given('scheduleType')) ||
    (conf === undefined && given('scheduleConf')) ||
    (zone === undefined && given('timeZone'))
  ) {
    return undefined;
  }
  const schedule = {
    scheduleType: type ?? WORKFLOW_DEFAULTS.scheduleType,
    scheduleConf: conf ?? WORKFLOW_DEFAULTS.scheduleConf,
    timeZone: zone ?? WORKFLOW_DEFAULTS.timeZone,
  };
  // The jobs' schedule rules, each field on its own so that a bad zone does not hide a bad conf.
  const zoneProblem = scheduleProblem({ type: 'NONE', conf: '', timeZone: schedule.timeZone });
  if (zoneProblem) problem(zoneProblem.field, zoneProblem.message);
  const confProblem = scheduleProblem({
    type: schedule.scheduleType,
    conf: schedule.scheduleConf,
    timeZone: zoneProblem ? DEFAULT_TIME_ZONE : schedule.timeZone,
  });
  if (confProblem) problem(confProblem.field, confProblem.message);
  if (schedule.scheduleType === 'NONE' && schedule.scheduleConf.trim() !== '') {
    problem(
      'scheduleConf',
      'scheduleConf must be empty when scheduleType is NONE (a workflow that only runs when triggered); ' +
        'use CRON for a Quartz cron expression, FIX_RATE for a number of seconds, ONCE for an instant',
    );
    return undefined;
  }
  return zoneProblem || confProblem ? undefined : schedule;
}

type Bounds = Pick<WorkflowDefinition, (typeof BOUND_FIELDS)[number]>;

/**
 * The schedule's bounds and jitter, read as a job's (null or absent: none; jitterSeconds 0: none),
 * each problem named, then checked together with the schedule (endAt after startAt, the jitter below
 * the smallest interval) when it could be read.
 */
function readBounds(
  input: Record<string, unknown>,
  schedule: Pick<WorkflowDefinition, 'scheduleType' | 'scheduleConf' | 'timeZone'> | undefined,
  nowMs: number,
  problem: Report,
): Bounds {
  const read: Record<string, unknown> = {};
  let readable = true;
  for (const field of BOUND_FIELDS) {
    const value = own(input, field);
    if (value === undefined) continue;
    try {
      read[field] = readBoundField(field, value);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problem(field, err.message);
      readable = false;
    }
  }
  const bounds = withoutUndefined(read as Bounds);
  const { jitterSeconds, ...rest } = bounds;
  const given: Bounds = jitterSeconds === 0 ? rest : bounds;
  if (readable && schedule) {
    for (const p of boundsProblems({ ...schedule, ...given }, nowMs))
      problem(p.field ?? 'scheduleConf', p.message);
  }
  return given;
}

function scheduleProblem(schedule: Schedule): Problem | undefined {
  try {
    checkSchedule(schedule);
    return undefined;
  } catch (err) {
    if (err instanceof ValidationError) return { field: err.field ?? 'scheduleConf', message: err.message };
    throw err;
  }
}

function readNodes(input: Record<string, unknown>, problem: Report): NodeDraft[] | undefined {
  const value = own(input, 'nodes');
  const max = WORKFLOW_LIMITS.nodes;
  if (value === undefined) {
    problem('nodes', `nodes is required: a list of 1-${max} nodes`);
    return undefined;
  }
  if (!Array.isArray(value)) {
    problem('nodes', `nodes must be a list of 1-${max} nodes; got ${show(value)}`);
    return undefined;
  }
  if (value.length === 0) {
    problem('nodes', `nodes must hold at least one node (at most ${max})`);
    return undefined;
  }
  if (value.length > max) {
    problem(
      'nodes',
      `a workflow has at most ${max} nodes; got ${value.length} (the nodes were not checked further)`,
    );
    return undefined;
  }
  return value.map((node, i) => readNode(node, `nodes[${i}]`, problem));
}

function readNode(value: unknown, field: string, problem: Report): NodeDraft {
  if (!isRecord(value)) {
    problem(
      field,
      `a node must be an object with key, jobId, executorParam (optional) and upstream; got ${show(value)}`,
    );
    return {
      key: undefined,
      jobId: undefined,
      executorParam: undefined,
      template: undefined,
      upstream: [],
      maybeRoot: true,
    };
  }
  unknownFields(value, NODE_FIELDS, `${field}.`, 'node', problem);
  const key = readString(value, 'key', `${field}.`, Number.MAX_SAFE_INTEGER, problem, { required: true });
  if (key !== undefined && !NODE_KEY.test(key)) {
    problem(
      `${field}.key`,
      `a node key is 1-${WORKFLOW_LIMITS.keyLength} characters of letters, digits, '_' and '-', starting with a letter; got ${show(key)}`,
    );
  }
  let jobId: number | undefined;
  const givenJobId = own(value, 'jobId');
  if (givenJobId === undefined) problem(`${field}.jobId`, `${field}.jobId is required`);
  else if (
    typeof givenJobId !== 'number' ||
    !Number.isSafeInteger(givenJobId) ||
    givenJobId < 1 ||
    givenJobId > MAX_JOB_ID
  ) {
    problem(
      `${field}.jobId`,
      `jobId must be a job id (an integer from 1 to ${MAX_JOB_ID}); got ${show(givenJobId)}`,
    );
  } else jobId = givenJobId;

  let executorParam: string | undefined;
  let template: ParsedTemplate | undefined;
  const givenParam = own(value, 'executorParam');
  if (givenParam !== undefined) {
    if (typeof givenParam !== 'string') {
      problem(
        `${field}.executorParam`,
        `executorParam must be a string (a template); got ${show(givenParam)}`,
      );
    } else {
      executorParam = givenParam;
      const parsed = parseTemplate(executorParam);
      if ('error' in parsed) problem(`${field}.executorParam`, `executorParam: ${parsed.error}`);
      else template = parsed.ok;
    }
  }

  const upstream: EdgeDraft[] = [];
  const list = own(value, 'upstream');
  if (list !== undefined && !Array.isArray(list)) {
    problem(`${field}.upstream`, `upstream must be a list of {key, condition}; got ${show(list)}`);
  } else if (list !== undefined && list.length > WORKFLOW_LIMITS.nodes) {
    problem(
      `${field}.upstream`,
      `upstream may list at most ${WORKFLOW_LIMITS.nodes} nodes; got ${list.length}`,
    );
  } else {
    for (const [j, edge] of (list ?? []).entries())
      upstream.push(readEdge(edge, `${field}.upstream[${j}]`, problem));
  }
  return {
    key,
    jobId,
    executorParam,
    template,
    upstream,
    maybeRoot: !Array.isArray(list) || list.length === 0,
  };
}

function readEdge(value: unknown, field: string, problem: Report): EdgeDraft {
  if (!isRecord(value)) {
    problem(field, `an upstream entry must be an object {key, condition}; got ${show(value)}`);
    return { key: undefined, condition: undefined };
  }
  unknownFields(value, EDGE_FIELDS, `${field}.`, 'upstream entry', problem);
  const key = readString(value, 'key', `${field}.`, Number.MAX_SAFE_INTEGER, problem, { required: true });
  const condition =
    own(value, 'condition') === undefined
      ? 'ON_SUCCESS'
      : readEnum(value, 'condition', `${field}.`, EDGE_CONDITIONS, problem);
  return { key, condition };
}

/** The checks across nodes: keys unique, upstream keys, cycles, roots, template references, runnable. */
function checkGraph(drafts: readonly NodeDraft[], problem: Report): void {
  // The first node of each key stands for it; a later one with the same key is reported.
  const first = new Map<string, number>();
  for (const [i, draft] of drafts.entries()) {
    if (draft.key === undefined) continue;
    const earlier = first.get(draft.key);
    if (earlier === undefined) first.set(draft.key, i);
    else
      problem(
        `nodes[${i}].key`,
        `key ${show(draft.key)} is used by nodes[${earlier}] too; keys must be unique`,
      );
  }
  const members = [...first.values()].sort((a, b) => a - b);
  const vertex = new Map(members.map((node, v) => [node, v]));
  const edges: (GraphEdge & { readonly field: string })[] = [];
  for (const [i, draft] of drafts.entries()) {
    const seen = new Map<string, number>();
    for (const [j, edge] of draft.upstream.entries()) {
      if (edge.key === undefined) continue;
      const field = `nodes[${i}].upstream[${j}].key`;
      const listedAt = seen.get(edge.key);
      if (listedAt !== undefined) {
        problem(
          field,
          `upstream lists ${edge.key} twice (also upstream[${listedAt}]); give each upstream node once`,
        );
        continue;
      }
      seen.set(edge.key, j);
      const up = first.get(edge.key);
      if (up === undefined) {
        problem(field, `upstream ${show(edge.key)} is not a node of this workflow`);
      } else if (edge.key === draft.key) {
        problem(field, `node ${edge.key} cannot be its own upstream (cycle: ${edge.key} → ${edge.key})`);
      } else if (vertex.has(i) && edge.condition !== undefined) {
        edges.push({
          from: vertex.get(up)!,
          to: vertex.get(i)!,
          condition: edge.condition,
          position: j,
          field,
        });
      }
    }
  }
  const graph = graphOf(
    members.map((i) => drafts[i]!.key!),
    edges,
  );
  const nodeIndex = (v: number) => members[v]!;

  const cycles = findCycles(graph);
  for (const cycle of cycles) {
    // The edge that closes the cycle: its first node lists its last as upstream.
    const closing = edges.find((e) => e.to === cycle[0] && e.from === cycle[cycle.length - 1]);
    const names = [...cycle, cycle[0]!].map((v) => graph.keys[v]);
    problem(closing?.field ?? `nodes[${nodeIndex(cycle[0]!)}].upstream`, `cycle: ${names.join(' → ')}`);
  }
  if (!drafts.some((draft) => draft.maybeRoot)) {
    problem('nodes', 'no node is a root (a node without upstream), so the workflow could never start');
  }
  checkTemplates(drafts, graph, vertex, problem);
  if (cycles.length === 0) {
    const order = topologicalOrder(graph);
    if (order) {
      for (const [v, why] of neverRunnable(graph, order)) {
        problem(`nodes[${nodeIndex(v)}]`, `node ${graph.keys[v]} can never run: ${why}`);
      }
    }
  }
}

function checkTemplates(
  drafts: readonly NodeDraft[],
  graph: WorkflowGraph,
  vertex: ReadonlyMap<number, number>,
  problem: Report,
): void {
  const ancestors = ancestorSets(graph);
  for (const [i, draft] of drafts.entries()) {
    if (!draft.template) continue;
    const field = `nodes[${i}].executorParam`;
    const self = draft.key ?? `nodes[${i}]`;
    const reported = new Set<string>();
    for (const path of draft.template.paths) {
      const message = referenceProblem(path.segments, self, vertex.get(i), graph, ancestors);
      if (message === undefined || reported.has(message)) continue;
      reported.add(message);
      problem(field, message);
    }
  }
}

function referenceProblem(
  segments: ParsedTemplate['paths'][number]['segments'],
  self: string,
  v: number | undefined,
  graph: WorkflowGraph,
  ancestors: readonly Set<number>[],
): string | undefined {
  const [root, key, result] = segments;
  const refers = `node ${self}'s parameter refers to`;
  if (root?.kind === 'key' && root.key === 'input') return undefined;
  if (root?.kind !== 'key' || root.key !== 'nodes') {
    const name = root?.kind === 'key' ? root.key : '?';
    return `${refers} ${name}; a parameter can refer only to input… and nodes.<key>.result…`;
  }
  if (key?.kind !== 'key') return `${refers} nodes without naming a node; write nodes.<key>.result`;
  if (result?.kind !== 'key' || result.key !== 'result') {
    return `${refers} nodes.${key.key}${result ? ' without .result' : ''}; a node offers only its result: nodes.${key.key}.result`;
  }
  const target = graph.indexOf.get(key.key);
  if (target === undefined) return `${refers} nodes.${key.key}, which is not a node of this workflow`;
  if (key.key === self) return `${refers} nodes.${self}, its own result, which it cannot have yet`;
  if (v === undefined || !ancestors[v]!.has(target)) {
    return `${refers} nodes.${key.key}, which is not upstream of ${self}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Field readers: each reports its problem and returns undefined when the value is unusable.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field's own value (never one inherited from Object.prototype, such as `constructor`). */
function own(value: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(value, name) ? value[name] : undefined;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function unknownFields(
  value: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  noun: string,
  problem: Report,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      problem(`${prefix}${key}`, `unknown field ${show(key)}; the ${noun} fields are ${known.join(', ')}`);
    }
  }
}

function readString(
  value: Record<string, unknown>,
  name: string,
  prefix: string,
  maxLength: number,
  problem: Report,
  options: { required?: boolean } = {},
): string | undefined {
  const field = `${prefix}${name}`;
  const given = own(value, name);
  if (given === undefined) {
    if (options.required) problem(field, `${field} is required`);
    return undefined;
  }
  if (typeof given !== 'string') {
    problem(field, `${name} must be a string; got ${show(given)}`);
    return undefined;
  }
  if (given.length > maxLength) {
    problem(field, `${name} must be at most ${maxLength} characters; got ${given.length}`);
    return undefined;
  }
  return given;
}

function readEnum<T extends string>(
  value: Record<string, unknown>,
  name: string,
  prefix: string,
  allowed: readonly T[],
  problem: Report,
): T | undefined {
  const given = own(value, name);
  if (given === undefined) return undefined;
  if (typeof given === 'string' && (allowed as readonly string[]).includes(given)) return given as T;
  problem(`${prefix}${name}`, `${name} must be one of ${allowed.join(', ')}; got ${show(given)}`);
  return undefined;
}
