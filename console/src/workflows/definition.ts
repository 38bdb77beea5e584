// Workflows as the console shows and edits them: the definition as JSON text (read from a workflow,
// parsed back for a save, prefilled with an example), the words for statuses and edge conditions,
// and a run's numbers. Pure: the pages and the unit tests share it.

import type {
  Workflow,
  WorkflowRequest,
  WorkflowRun,
  WorkflowRunNode,
  WorkflowRunSummary,
} from '@tickring/client';
import type { DeadlineInputs } from '../jobs/deadline-fields';
import { conditionOf, type EdgeCondition, type LayoutNodeInput } from './layout';

export type NodeStatus = WorkflowRunNode['status'];
export type RunStatus = WorkflowRun['status'];

export const NODE_STATUSES: readonly NodeStatus[] = [
  'PENDING',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'SKIPPED',
  'CANCELLED',
];
export const RUN_STATUSES: readonly RunStatus[] = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'];

/** What each status means, for the legend. */
export const NODE_STATUS_HELP: Record<NodeStatus, string> = {
  PENDING: 'waits for its upstream nodes',
  RUNNING: 'its job runs',
  SUCCEEDED: 'its job succeeded',
  FAILED: 'its job failed',
  SKIPPED: 'an upstream condition can no longer hold',
  CANCELLED: 'the run was cancelled before it ran',
};

/** An edge condition in words. */
export const CONDITION_WORDS: Record<EdgeCondition, string> = {
  ON_SUCCESS: 'on success',
  ON_FAILURE: 'on failure',
  ALWAYS: 'always',
};

/** Whether a run has ended (no more refreshes needed). */
export function runEnded(status: string): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED' || status === 'CANCELLED';
}

/** The fields a definition is made of, in the order the editor shows them. */
const DEFINITION_FIELDS = [
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
  'calendars',
  'overlapPolicy',
  'deadline',
  'nodes',
] as const;

/** A workflow's definition as a PUT body takes it (its read-only fields left out). */
export function definitionOf(workflow: Workflow): WorkflowRequest {
  const body: Record<string, unknown> = {};
  for (const field of DEFINITION_FIELDS) body[field] = workflow[field];
  body.nodes = workflow.nodes.map((node) => ({
    key: node.key,
    jobId: node.jobId,
    ...(node.executorParam === undefined ? {} : { executorParam: node.executorParam }),
    upstream: (node.upstream ?? []).map((edge) => ({
      key: edge.key,
      condition: conditionOf(edge.condition),
    })),
  }));
  return body as unknown as WorkflowRequest;
}

/** A definition as the editor's text. */
export function definitionText(definition: WorkflowRequest): string {
  return `${JSON.stringify(definition, null, 2)}\n`;
}

/**
 * A small example to start from: three nodes of the group (its first jobs when known, else
 * placeholders to replace), the second reading the first's result, the third a cleanup that always runs.
 */
export function exampleDefinition({
  appName,
  jobIds,
  timeZone,
}: {
  appName: string;
  jobIds: readonly number[];
  timeZone: string;
}): WorkflowRequest {
  const job = (i: number) => jobIds[i] ?? jobIds[0] ?? i + 1;
  return {
    name: 'Extract, load, clean up',
    appName,
    scheduleType: 'NONE',
    scheduleConf: '',
    timeZone,
    misfireStrategy: 'DO_NOTHING',
    calendars: { only: [], exclude: [] },
    overlapPolicy: 'SKIP',
    nodes: [
      { key: 'extract', jobId: job(0), executorParam: '{{ input.date }}', upstream: [] },
      {
        key: 'load',
        jobId: job(1),
        executorParam: '{{ nodes.extract.result }}',
        upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
      },
      { key: 'cleanup', jobId: job(2), upstream: [{ key: 'load', condition: 'ALWAYS' }] },
    ],
  };
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** The editor's text as a body to send: any JSON object (the server checks the rest, every problem at once). */
export function parseDefinition(text: string): Parsed<WorkflowRequest> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      message: 'The definition must be a JSON object: { "name": …, "appName": …, "nodes": […] }.',
    };
  }
  return { ok: true, value: value as WorkflowRequest };
}

/**
 * The deadline fields of the definition being typed (its `deadline`; none: an empty time in the
 * definition's zone); undefined while the text is not a JSON object.
 */
export function deadlineInputsOf(text: string): DeadlineInputs | undefined {
  const parsed = parseDefinition(text);
  if (!parsed.ok) return undefined;
  const value = parsed.value as { deadline?: unknown; timeZone?: unknown };
  const deadline = (typeof value.deadline === 'object' && value.deadline !== null ? value.deadline : {}) as {
    time?: unknown;
    timeZone?: unknown;
    days?: unknown;
  };
  const zone = typeof value.timeZone === 'string' && value.timeZone !== '' ? value.timeZone : 'UTC';
  return {
    deadlineTime: typeof deadline.time === 'string' ? deadline.time : '',
    deadlineZone: typeof deadline.timeZone === 'string' ? deadline.timeZone : zone,
    deadlineDays: deadline.days === 'weekdays' ? 'weekdays' : 'daily',
  };
}

/**
 * The definition text with the fields' deadline in it (an empty time: `null`, none), before the nodes;
 * the text as it was when it is not a JSON object. Daily is written as no `days` (the same deadline).
 */
export function withDeadline(text: string, inputs: DeadlineInputs): string {
  const parsed = parseDefinition(text);
  if (!parsed.ok) return text;
  const time = inputs.deadlineTime.trim();
  const deadline =
    time === ''
      ? null
      : {
          time,
          timeZone: inputs.deadlineZone.trim(),
          ...(inputs.deadlineDays === 'weekdays' ? { days: 'weekdays' } : {}),
        };
  const { deadline: _old, ...rest } = parsed.value as unknown as Record<string, unknown>;
  const entries = Object.entries(rest);
  const at = entries.findIndex(([key]) => key === 'nodes');
  entries.splice(at === -1 ? entries.length : at, 0, ['deadline', deadline]);
  return definitionText(Object.fromEntries(entries) as unknown as WorkflowRequest);
}

/** A run's input as typed: nothing (no body: `{}`), or any JSON. */
export function parseInput(text: string): Parsed<unknown> {
  if (text.trim() === '') return { ok: true, value: undefined };
  return parseJson(text);
}

function parseJson(text: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `Not JSON: ${message}` };
  }
}

/** The nodes of a definition being typed, as far as they can be drawn (undefined: nothing to draw yet). */
export function previewNodes(text: string): (LayoutNodeInput & { jobId?: number })[] | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const nodes = (parsed.value as { nodes?: unknown }).nodes;
  if (!Array.isArray(nodes)) return undefined;
  const drawn: (LayoutNodeInput & { jobId?: number })[] = [];
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    const { key, jobId, upstream } = node as { key?: unknown; jobId?: unknown; upstream?: unknown };
    if (typeof key !== 'string' || key === '') continue;
    const edges = Array.isArray(upstream)
      ? upstream.flatMap((e) =>
          typeof e === 'object' && e !== null && typeof (e as { key?: unknown }).key === 'string'
            ? [
                {
                  key: (e as { key: string }).key,
                  condition: conditionOf((e as { condition?: string }).condition),
                },
              ]
            : [],
        )
      : [];
    drawn.push({ key, upstream: edges, ...(typeof jobId === 'number' ? { jobId } : {}) });
  }
  return drawn.length > 0 ? drawn : undefined;
}

/** The server's problems with a definition, one line each ("nodes[2].jobId: node c: job 9 does not exist"). */
export function problemLines(error: {
  readonly message: string;
  readonly field?: string;
  readonly problems: readonly { readonly field?: string; readonly message: string }[];
}): string[] {
  const line = (field: string | undefined, message: string) =>
    field && !message.startsWith(`${field}:`) ? `${field.replace(/^body\./, '')}: ${message}` : message;
  if (error.problems.length === 0) return [line(error.field, error.message)];
  return error.problems.map((p) => line(p.field, p.message));
}

/** A node's result as shown: pretty JSON when it is JSON, else the text as it came. */
export function resultText(node: Pick<WorkflowRunNode, 'result' | 'resultJson'>): string | undefined {
  if (node.result === null) return undefined;
  if (node.resultJson !== null && node.resultJson !== undefined && typeof node.resultJson === 'object') {
    return JSON.stringify(node.resultJson, null, 2);
  }
  return node.result;
}

/** Any JSON value as indented text. */
export function jsonText(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** How long a run took (or has been running), in ms; undefined before it started. */
export function runDurationMs(
  run: Pick<WorkflowRunSummary, 'startedAt' | 'finishedAt'>,
  now: number = Date.now(),
): number | undefined {
  if (!run.startedAt) return undefined;
  const end = run.finishedAt ? Date.parse(run.finishedAt) : now;
  return Math.max(0, end - Date.parse(run.startedAt));
}

/** A run's nodes by status in words ("3 succeeded, 1 running"), statuses with none left out. */
export function nodeCountsText(counts: WorkflowRunSummary['nodeCounts']): string {
  const parts = NODE_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s.toLowerCase()}`);
  return parts.length === 0 ? 'no nodes yet' : parts.join(', ');
}

/** Who or what started a run, in words. */
export function triggerText(trigger: WorkflowRun['trigger']): string {
  if (trigger.type === 'SCHEDULE') return 'schedule';
  return trigger.by ? `manual, by ${trigger.by}` : 'manual';
}

/** The parameter template of a node, or what it runs with when it has none. */
export function templateText(executorParam: string | undefined): string {
  return executorParam === undefined
    ? '(the job’s own parameter)'
    : executorParam === ''
      ? '(empty)'
      : executorParam;
}
