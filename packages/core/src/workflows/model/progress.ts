/**
 * A workflow run's progress: the state of each node and what to do next. Pure: the engine reads
 * the state, applies one of these functions and writes the new state back conditionally on the one
 * it read (`revision`), then carries out the decisions (fire, kill). Every function returns a new
 * state and never changes the one given.
 *
 * Semantics
 * - Firing: a PENDING node fires when every upstream node has finished and each edge's condition is
 *   met: ON_SUCCESS needs SUCCEEDED, ON_FAILURE needs FAILED, ALWAYS needs SUCCEEDED, FAILED or
 *   SKIPPED. Fired nodes become RUNNING with `attempt` + 1; the engine fires each (run, key,
 *   attempt) once (its dedupKey), so a node runs exactly once per attempt.
 * - Skipping, as soon as it is certain: a node is SKIPPED when an upstream node has finished in a
 *   way its edge does not accept (ON_SUCCESS after FAILED or SKIPPED; ON_FAILURE after SUCCEEDED or
 *   SKIPPED), even while other upstream nodes still run. Skips propagate: an ON_SUCCESS or
 *   ON_FAILURE downstream of a skipped node is skipped. An ALWAYS downstream of a skipped node runs
 *   (Airflow's `all_done`): "always" is what cleanup and notification nodes need, and a skip is a
 *   way of finishing. XXL-JOB has no precedent (its child jobs run after a success only).
 * - The run ends when no node is PENDING or RUNNING. It FAILED when a FAILED node is not handled,
 *   else it SUCCEEDED. A failure is handled when the node has an ON_FAILURE downstream that ran
 *   (SUCCEEDED or FAILED; a handler that fails is itself an unhandled failure unless handled in
 *   turn). An ALWAYS downstream does not handle a failure: a cleanup step running must not turn a
 *   failed run into a success (Airflow's well-known surprise with `all_done` leaves); only a node
 *   that explicitly runs on failure takes the failure over (Argo's "expected" failures).
 * - Results: a node's result is its run's handleMsg, kept for SUCCEEDED and FAILED nodes (an
 *   ON_FAILURE handler can pass the failure message on). A SKIPPED or CANCELLED node has none.
 * - Broadcast (sharding) jobs: the engine aggregates the shards into one outcome: every shard
 *   succeeded → SUCCEEDED, else FAILED (the result: the shards' messages, as the engine chooses).
 * - A node whose parameter cannot be rendered (`nodeParameter` answers `{ error }`) is failed by the
 *   engine with that message, through `onNodeFinished`, without running its job.
 */
import { ConflictError, PermanentError, ValidationError } from '../../common/errors.js';
import type { WorkflowDefinition } from './definition.js';
import { descendantsOf, type GraphEdge, graphOf, topologicalOrder, type WorkflowGraph } from './graph.js';
import { type JsonValue, jsonText } from './json.js';
import { isTerminal, type NodeStatus, ran, type WorkflowRunStatus } from './status.js';
import { type NodeView, parseTemplate, renderTemplate, type TemplateResult } from './template.js';

export interface NodeState {
  readonly status: NodeStatus;
  /** Times the node was fired (0 until the first); an outcome names the attempt it finishes. */
  readonly attempt: number;
  /** The last attempt's handleMsg (SUCCEEDED and FAILED). */
  readonly result?: string;
  /** Why the node was SKIPPED or CANCELLED. */
  readonly reason?: string;
}

export interface WorkflowRunState {
  readonly status: WorkflowRunStatus;
  /** The run's input (JSON), read by templates as `input`. */
  readonly input: JsonValue;
  /** Every node of the definition by key; read as own properties only. */
  readonly nodes: Readonly<Record<string, NodeState>>;
  /** Bumped by every change: the engine writes a new state on condition that this is unchanged. */
  readonly revision: number;
  /** When FAILED: the nodes whose failure was not handled, in definition order (else empty). */
  readonly failedNodes: readonly string[];
}

/** What the engine reports when a node's run (all its shards) has finished. */
export interface NodeOutcome {
  readonly status: 'SUCCEEDED' | 'FAILED';
  /** The attempt this outcome is for (the node's `attempt` when it was fired). */
  readonly attempt: number;
  /** The run's handleMsg. */
  readonly result?: string;
}

export interface RunEnd {
  readonly status: Exclude<WorkflowRunStatus, 'RUNNING'>;
  readonly failedNodes: readonly string[];
}

/** A transition: the new state and what the engine must do, each list in definition order. */
export interface Decisions {
  readonly state: WorkflowRunState;
  /** Nodes to fire now (RUNNING in `state`, with their new attempt). */
  readonly fire: readonly string[];
  /** Nodes this transition skipped. */
  readonly skip: readonly string[];
  /** Running nodes whose jobs to kill (a cancel). */
  readonly kill: readonly string[];
  /** Nodes this transition cancelled. */
  readonly cancelled: readonly string[];
  /** Set by the transition that ended the run, and only by it. */
  readonly finished?: RunEnd;
  /** The transition had already been applied (or was stale): nothing changed, nothing to do. */
  readonly duplicate: boolean;
}

/** A run's input: plain JSON of at most this many bytes as JSON text. */
export const MAX_RUN_INPUT_BYTES = 64 * 1024;

/**
 * The first state of a run of `def` (a checked definition) and the roots to fire. `input` must be
 * plain JSON (ValidationError otherwise); a scheduled run's input is `{}`.
 */
export function startRun(def: WorkflowDefinition, input: JsonValue = {}): Decisions {
  const text = jsonText(input, MAX_RUN_INPUT_BYTES);
  if ('error' in text) {
    throw new ValidationError(
      text.error === 'too-large'
        ? `input must be at most ${MAX_RUN_INPUT_BYTES} bytes as JSON`
        : `input must be plain JSON; input${text.at} is not`,
      'input',
    );
  }
  const nodes = new Map<string, NodeState>(def.nodes.map((n) => [n.key, { status: 'PENDING', attempt: 0 }]));
  const state: WorkflowRunState = {
    status: 'RUNNING',
    input: JSON.parse(text.ok) as JsonValue,
    nodes: {},
    revision: 0,
    failedNodes: [],
  };
  return settle(def, state, nodes);
}

/**
 * Records a node's outcome and decides what follows. A repeated outcome (the same attempt again,
 * whatever it says: the first stands) or a stale one (an earlier attempt) is a duplicate. In a
 * cancelled run the outcome is recorded and nothing fires.
 */
export function onNodeFinished(
  def: WorkflowDefinition,
  state: WorkflowRunState,
  key: string,
  outcome: NodeOutcome,
): Decisions {
  if (outcome.status !== 'SUCCEEDED' && outcome.status !== 'FAILED') {
    throw new ValidationError(`an outcome is SUCCEEDED or FAILED; got ${String(outcome.status)}`, 'status');
  }
  const node = nodeOf(def, state, key);
  if (!Number.isInteger(outcome.attempt) || outcome.attempt > node.attempt || outcome.attempt < 1) {
    throw new ConflictError(
      `node ${key} was never fired as attempt ${outcome.attempt} (its attempt is ${node.attempt})`,
    );
  }
  if (outcome.attempt < node.attempt || node.status !== 'RUNNING') return unchanged(state);
  const nodes = nodesOf(def, state);
  nodes.set(key, {
    status: outcome.status,
    attempt: node.attempt,
    ...(outcome.result === undefined ? {} : { result: outcome.result }),
  });
  if (state.status !== 'RUNNING') {
    return { ...noDecisions(), state: { ...state, nodes: recordOf(nodes), revision: state.revision + 1 } };
  }
  return settle(def, state, nodes);
}

/**
 * Resumes a FAILED or CANCELLED run: its unhandled FAILED nodes, its CANCELLED nodes and every
 * SKIPPED node downstream of them go back to PENDING (results dropped, attempts kept); everything
 * else stays, SUCCEEDED results included, so nothing that succeeded runs twice. A handled failure
 * stays as it is: its handler ran, and running the node again could run both of its branches.
 * ConflictError for a run that is RUNNING or SUCCEEDED, or that still has a node running (a cancel
 * whose kill has not been reported yet).
 */
export function retryRun(def: WorkflowDefinition, state: WorkflowRunState): Decisions {
  if (state.status !== 'FAILED' && state.status !== 'CANCELLED') {
    throw new ConflictError(`the run is ${state.status}; only a FAILED or CANCELLED run can be retried`);
  }
  const graph = graphFor(def);
  const nodes = nodesOf(def, state);
  const running = def.nodes.filter((n) => nodes.get(n.key)!.status === 'RUNNING').map((n) => n.key);
  if (running.length > 0) {
    throw new ConflictError(
      `node ${running.join(', ')} of the cancelled run ${running.length === 1 ? 'is' : 'are'} still running; retry once ${running.length === 1 ? 'it has' : 'they have'} finished`,
    );
  }
  const unhandled = new Set(unhandledFailures(graph, nodes));
  const reset = new Set<number>();
  for (const [i, key] of graph.keys.entries()) {
    if (unhandled.has(key) || nodes.get(key)!.status === 'CANCELLED') reset.add(i);
  }
  for (const i of descendantsOf(graph, reset)) {
    if (nodes.get(graph.keys[i]!)!.status === 'SKIPPED') reset.add(i);
  }
  for (const i of reset) {
    const key = graph.keys[i]!;
    nodes.set(key, { status: 'PENDING', attempt: nodes.get(key)!.attempt });
  }
  return settle(def, { ...state, status: 'RUNNING', failedNodes: [] }, nodes);
}

/**
 * Cancels a running run: PENDING nodes become CANCELLED, RUNNING nodes are to be killed (they stay
 * RUNNING until their outcome is reported, which is then recorded), and the run is CANCELLED now.
 * A run that has already ended is left as it is (a duplicate). The lists are sorted by key (a
 * stored map keeps no order, and this needs no definition).
 */
export function cancelRun(state: WorkflowRunState): Decisions {
  if (state.status !== 'RUNNING') return unchanged(state);
  const kill: string[] = [];
  const cancelled: string[] = [];
  const nodes: Record<string, NodeState> = {};
  for (const [key, node] of Object.entries(state.nodes)) {
    if (node.status === 'RUNNING') kill.push(key);
    if (node.status === 'PENDING') {
      cancelled.push(key);
      nodes[key] = { status: 'CANCELLED', attempt: node.attempt, reason: 'the run was cancelled' };
    } else nodes[key] = node;
  }
  return {
    ...noDecisions(),
    state: { ...state, status: 'CANCELLED', nodes, revision: state.revision + 1, failedNodes: [] },
    kill: kill.sort(),
    cancelled: cancelled.sort(),
    finished: { status: 'CANCELLED', failedNodes: [] },
  };
}

/**
 * A node's executorParam rendered from the run's state: `{ ok: undefined }` when the node has no
 * template (the job's own executorParam applies), `{ error }` when a value it refers to is missing
 * (the engine fails the node with that message).
 */
export function nodeParameter(
  def: WorkflowDefinition,
  state: WorkflowRunState,
  key: string,
): TemplateResult<string | undefined> {
  const node = def.nodes.find((n) => n.key === key);
  if (!node) throw new ValidationError(`the workflow has no node ${key}`, 'key');
  if (node.executorParam === undefined) return { ok: undefined };
  const parsed = parseTemplate(node.executorParam);
  if ('error' in parsed) return parsed;
  const views: Record<string, NodeView> = {};
  for (const n of def.nodes) {
    const s = nodeOf(def, state, n.key);
    views[n.key] =
      ran(s.status) && s.result !== undefined ? { status: s.status, result: s.result } : { status: s.status };
  }
  return renderTemplate(parsed.ok, { input: state.input, nodes: views });
}

/** The nodes whose failure no ON_FAILURE downstream that ran has handled, in definition order. */
function unhandledFailures(graph: WorkflowGraph, nodes: ReadonlyMap<string, NodeState>): string[] {
  return graph.keys.filter(
    (key, i) =>
      nodes.get(key)?.status === 'FAILED' &&
      !graph.downstream[i]!.some(
        (edge) => edge.condition === 'ON_FAILURE' && ran(nodes.get(graph.keys[edge.to]!)!.status),
      ),
  );
}

// ---------------------------------------------------------------------------------------------

const graphs = new WeakMap<WorkflowDefinition, { graph: WorkflowGraph; order: readonly number[] }>();

/** The definition's graph and topological order, kept per definition object. */
function compiled(def: WorkflowDefinition): { graph: WorkflowGraph; order: readonly number[] } {
  const known = graphs.get(def);
  if (known) return known;
  const indexOf = new Map(def.nodes.map((n, i) => [n.key, i]));
  const edges: GraphEdge[] = def.nodes.flatMap((n, to) =>
    n.upstream.map((edge, position) => {
      const from = indexOf.get(edge.key);
      if (from === undefined) throw new PermanentError(`node ${n.key}'s upstream ${edge.key} is not a node`);
      return { from, to, condition: edge.condition, position };
    }),
  );
  const graph = graphOf(
    def.nodes.map((n) => n.key),
    edges,
  );
  const order = topologicalOrder(graph);
  if (!order) throw new PermanentError('the workflow definition has a cycle; validate it first');
  const entry = { graph, order };
  if (Object.isFrozen(def)) graphs.set(def, entry);
  return entry;
}

function graphFor(def: WorkflowDefinition): WorkflowGraph {
  return compiled(def).graph;
}

function nodeOf(def: WorkflowDefinition, state: WorkflowRunState, key: string): NodeState {
  if (!def.nodes.some((n) => n.key === key))
    throw new ValidationError(`the workflow has no node ${key}`, 'key');
  if (!Object.hasOwn(state.nodes, key)) {
    throw new PermanentError(
      `the run has no state for node ${key}: it belongs to another version of the workflow`,
    );
  }
  return state.nodes[key]!;
}

/** The run's node states by key, checked against the definition. */
function nodesOf(def: WorkflowDefinition, state: WorkflowRunState): Map<string, NodeState> {
  return new Map(def.nodes.map((n) => [n.key, nodeOf(def, state, n.key)]));
}

function recordOf(nodes: ReadonlyMap<string, NodeState>): Record<string, NodeState> {
  return Object.fromEntries(nodes);
}

function noDecisions(): Omit<Decisions, 'state'> {
  return { fire: [], skip: [], kill: [], cancelled: [], duplicate: false };
}

function unchanged(state: WorkflowRunState): Decisions {
  return { ...noDecisions(), state, duplicate: true };
}

/**
 * Fires and skips what the node states allow (in topological order, so skips propagate in one
 * pass), then ends the run when nothing is left to happen.
 */
function settle(def: WorkflowDefinition, state: WorkflowRunState, nodes: Map<string, NodeState>): Decisions {
  const { graph, order } = compiled(def);
  const fired = new Set<number>();
  const skipped = new Set<number>();
  for (const i of order) {
    const key = graph.keys[i]!;
    const node = nodes.get(key)!;
    if (node.status !== 'PENDING') continue;
    const verdict = readiness(graph, nodes, i);
    if (verdict === 'wait') continue;
    if (verdict === 'fire') {
      nodes.set(key, { status: 'RUNNING', attempt: node.attempt + 1 });
      fired.add(i);
    } else {
      nodes.set(key, { status: 'SKIPPED', attempt: node.attempt, reason: verdict.skip });
      skipped.add(i);
    }
  }
  const inDefinitionOrder = (set: ReadonlySet<number>) =>
    [...set].sort((a, b) => a - b).map((i) => graph.keys[i]!);
  const done = [...nodes.values()].every((n) => isTerminal(n.status));
  let finished: RunEnd | undefined;
  if (done) {
    const failedNodes = unhandledFailures(graph, nodes);
    finished = { status: failedNodes.length > 0 ? 'FAILED' : 'SUCCEEDED', failedNodes };
  }
  return {
    ...noDecisions(),
    state: {
      ...state,
      status: finished?.status ?? 'RUNNING',
      nodes: recordOf(nodes),
      revision: state.revision + 1,
      failedNodes: finished?.failedNodes ?? [],
    },
    fire: inDefinitionOrder(fired),
    skip: inDefinitionOrder(skipped),
    ...(finished ? { finished } : {}),
  };
}

/** Whether a PENDING node fires now, waits, or is skipped (and why). */
function readiness(
  graph: WorkflowGraph,
  nodes: ReadonlyMap<string, NodeState>,
  i: number,
): 'fire' | 'wait' | { skip: string } {
  let waiting = false;
  for (const edge of graph.upstream[i]!) {
    const upKey = graph.keys[edge.from]!;
    const up = nodes.get(upKey)!.status;
    if (!isTerminal(up)) {
      waiting = true;
      continue;
    }
    if (!accepts(edge.condition, up)) {
      return {
        skip: `upstream ${upKey} ${describeStatus(up)} and the edge's condition is ${edge.condition}`,
      };
    }
  }
  return waiting ? 'wait' : 'fire';
}

function accepts(condition: GraphEdge['condition'], status: NodeStatus): boolean {
  switch (condition) {
    case 'ON_SUCCESS':
      return status === 'SUCCEEDED';
    case 'ON_FAILURE':
      return status === 'FAILED';
    case 'ALWAYS':
      return status === 'SUCCEEDED' || status === 'FAILED' || status === 'SKIPPED';
  }
}

function describeStatus(status: NodeStatus): string {
  switch (status) {
    case 'SUCCEEDED':
      return 'succeeded';
    case 'FAILED':
      return 'failed';
    case 'SKIPPED':
      return 'was skipped';
    case 'CANCELLED':
      return 'was cancelled';
    default:
      return `is ${status}`;
  }
}
