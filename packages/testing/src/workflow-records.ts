/** Workflow records as the engine makes them, for the tests of a WorkflowStore (its contract suite's, an adapter's own). */

import {
  type NodeState,
  parseWorkflow,
  type WorkflowDefinition,
  type WorkflowRecord,
  type WorkflowRunRecord,
  type WorkflowRunState,
} from '@tickring/core/workflows';

/** Now, on a bound of the stalled list's 10 s (adapters may expire records dated long ago). */
export const WORKFLOW_TIME = Math.floor(Date.now() / 10_000) * 10_000;

/** A definition of `keys` in a chain from the first (the second renders the first's result). */
export function workflowDefinition(
  appName = 'wf-app',
  keys: readonly string[] = ['extract', 'load'],
  name = 'nightly etl',
): WorkflowDefinition {
  return parseWorkflow({
    name,
    appName,
    overlapPolicy: 'BUFFER_ONE',
    nodes: keys.map((key, i) => ({
      key,
      jobId: i + 1,
      upstream: i === 0 ? [] : [{ key: keys[0] }],
      ...(i === 1 ? { executorParam: `{{ nodes.${keys[0]}.result }}` } : {}),
    })),
  });
}

/** Workflow `id` as created: version 1, its schedule off, no runs. */
export function workflowRecord(id: number, appName?: string, keys?: readonly string[]): WorkflowRecord {
  return {
    id,
    version: 1,
    definition: workflowDefinition(appName, keys),
    triggerStatus: 'STOPPED',
    activeRuns: 0,
    createdAt: WORKFLOW_TIME,
    updatedAt: WORKFLOW_TIME,
  };
}

/** A run's progress with its first node RUNNING (attempt 1) and the others PENDING. */
export function runningState(keys: readonly string[], revision = 1): WorkflowRunState {
  const nodes: Record<string, NodeState> = {};
  for (const [i, key] of keys.entries()) {
    nodes[key] = i === 0 ? { status: 'RUNNING', attempt: 1 } : { status: 'PENDING', attempt: 0 };
  }
  return {
    status: 'RUNNING',
    input: { day: '2024-05-01', deep: { list: [1, 'two', null] } },
    nodes,
    revision,
    failedNodes: [],
  };
}

/** A run of `wf` as the engine admits it: RUNNING with its root fired, or QUEUED with no nodes. */
export function workflowRun(
  wf: WorkflowRecord,
  id: string,
  fields: Partial<WorkflowRunRecord> = {},
): WorkflowRunRecord {
  const createdAt = fields.createdAt ?? WORKFLOW_TIME;
  const queued = fields.status === 'QUEUED';
  const keys = wf.definition.nodes.map((n) => n.key);
  return {
    id,
    workflowId: wf.id,
    version: wf.version,
    appName: wf.definition.appName,
    workflowName: wf.definition.name,
    status: 'RUNNING',
    state: queued
      ? { status: 'RUNNING', input: { day: '2024-05-01' }, nodes: {}, revision: 0, failedNodes: [] }
      : runningState(keys),
    trigger: { type: 'MANUAL', by: 'alice' },
    createdAt,
    ...(queued ? {} : { startedAt: createdAt }),
    movedAt: fields.movedAt ?? createdAt,
    nodeRuns: {},
    // With the logId its engine gave the fire's run (every store keeps it through a save).
    nodeTimes: queued ? {} : { [keys[0]!]: { firedAt: createdAt, logId: 3 * 2 ** 32 + 2 ** 31 } },
    ...fields,
  };
}

/** The run with node `key` finished SUCCEEDED with `result` (a new revision). */
export function withNodeSucceeded(
  run: WorkflowRunRecord,
  key: string,
  result: string,
  at = run.movedAt + 1,
): WorkflowRunRecord {
  return {
    ...run,
    state: {
      ...run.state,
      nodes: { ...run.state.nodes, [key]: { status: 'SUCCEEDED', attempt: 1, result } },
      revision: run.state.revision + 1,
    },
    movedAt: at,
    nodeTimes: { ...run.nodeTimes, [key]: { ...run.nodeTimes[key], finishedAt: at } },
  };
}

/** The run ended with `status` (its nodes left as they are). */
export function endedRun(
  run: WorkflowRunRecord,
  status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED',
  at = run.movedAt + 1,
): WorkflowRunRecord {
  return {
    ...run,
    status,
    state: { ...run.state, status, revision: run.state.revision + 1 },
    finishedAt: at,
    movedAt: at,
  };
}

/** An ended run retried: RUNNING again, no longer finished. */
export function retriedRun(run: WorkflowRunRecord, at = run.movedAt + 1): WorkflowRunRecord {
  const { finishedAt: _ended, ...rest } = run;
  return {
    ...rest,
    status: 'RUNNING',
    state: { ...run.state, status: 'RUNNING', revision: run.state.revision + 1 },
    movedAt: at,
  };
}

/** A QUEUED run started: RUNNING with its root fired. */
export function startedFromQueue(
  queued: WorkflowRunRecord,
  wf: WorkflowRecord,
  at: number,
): WorkflowRunRecord {
  return {
    ...queued,
    status: 'RUNNING',
    state: runningState(wf.definition.nodes.map((n) => n.key)),
    startedAt: at,
    movedAt: at,
  };
}

/**
 * A run of `wf` as large as a store must hold (200 nodes of long keys, a 15,000-character result
 * each), as admitted, and the saves that bring it there, each over the one before: 50 results a
 * save (the engine saves one per outcome; a DynamoDB transaction holds up to 100 items), the first
 * also noting every node's runs (200 paths in one update).
 */
export function largestRun(wf: WorkflowRecord): {
  admitted: WorkflowRunRecord;
  saves: WorkflowRunRecord[];
  lastNode: string;
} {
  const keys = Array.from({ length: 200 }, (_, i) => `node_${String(i).padStart(3, '0')}-${'k'.repeat(50)}`);
  const nodes = Object.fromEntries(
    keys.map((k) => [k, { status: 'RUNNING', attempt: 1 } satisfies NodeState]),
  );
  const admitted: WorkflowRunRecord = {
    ...workflowRun(wf, 'wr-big-1'),
    state: { ...runningState([]), nodes },
    nodeTimes: Object.fromEntries(keys.map((k) => [k, { firedAt: WORKFLOW_TIME }])),
  };
  const saves: WorkflowRunRecord[] = [];
  let run = admitted;
  for (let from = 0; from < keys.length; from += 50) {
    const results: Record<string, NodeState> = {};
    for (const [i, k] of keys.slice(from, from + 50).entries()) {
      results[k] = { status: 'SUCCEEDED', attempt: 1, result: `${from + i}:`.padEnd(15_000, 'ü') };
    }
    run = {
      ...run,
      state: { ...run.state, nodes: { ...run.state.nodes, ...results }, revision: run.state.revision + 1 },
      movedAt: run.movedAt + 1,
      ...(from === 0
        ? { nodeRuns: Object.fromEntries(keys.map((k, i) => [k, { attempt: 1, logIds: [2 ** 40 + i] }])) }
        : {}),
    };
    saves.push(run);
  }
  return { admitted, saves, lastNode: keys[keys.length - 1] as string };
}
