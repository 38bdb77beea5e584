/**
 * The graph of a workflow's nodes: edges run from an upstream node to the node that lists it
 * (the direction work flows). Nodes are numbered in definition order; every answer that lists nodes
 * lists them in that order, so messages and decisions are deterministic.
 */
import type { EdgeCondition } from './status.js';

export interface GraphEdge {
  /** The upstream node. */
  readonly from: number;
  /** The node that lists `from` as upstream. */
  readonly to: number;
  readonly condition: EdgeCondition;
  /** Where the edge is in `to`'s upstream list (for field paths). */
  readonly position: number;
}

export interface WorkflowGraph {
  readonly keys: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** By node: the edges into it (its upstream), in its list's order. */
  readonly upstream: readonly (readonly GraphEdge[])[];
  /** By node: the edges out of it (its downstream), by downstream node. */
  readonly downstream: readonly (readonly GraphEdge[])[];
}

/** A graph over `keys` with the given edges (already checked: both ends exist, no self loop). */
export function graphOf(keys: readonly string[], edges: readonly GraphEdge[]): WorkflowGraph {
  const upstream: GraphEdge[][] = keys.map(() => []);
  const downstream: GraphEdge[][] = keys.map(() => []);
  for (const edge of edges) {
    upstream[edge.to]!.push(edge);
    downstream[edge.from]!.push(edge);
  }
  for (const list of upstream) list.sort((a, b) => a.position - b.position);
  for (const list of downstream) list.sort((a, b) => a.to - b.to || a.position - b.position);
  return { keys, indexOf: new Map(keys.map((key, i) => [key, i])), upstream, downstream };
}

/** Nodes without upstream. */
export function roots(graph: WorkflowGraph): number[] {
  return graph.keys.flatMap((_, i) => (graph.upstream[i]!.length === 0 ? [i] : []));
}

/** A topological order (ties by definition order), or undefined when the graph has a cycle. */
export function topologicalOrder(graph: WorkflowGraph): number[] | undefined {
  const waiting = graph.upstream.map((edges) => edges.length);
  const ready = graph.keys.flatMap((_, i) => (waiting[i] === 0 ? [i] : []));
  const order: number[] = [];
  // `ready` is kept sorted, so among the nodes free to go the earliest defined goes first.
  while (ready.length > 0) {
    const node = ready.shift()!;
    order.push(node);
    for (const edge of graph.downstream[node]!) {
      waiting[edge.to]!--;
      if (waiting[edge.to] === 0) insertSorted(ready, edge.to);
    }
  }
  return order.length === graph.keys.length ? order : undefined;
}

function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && list[i - 1]! > value) i--;
  list.splice(i, 0, value);
}

/**
 * One cycle per strongly connected component that has one, each as the nodes around it starting
 * at the component's earliest defined node: [a, b, c] is a → b → c → a. The cycle is a shortest
 * one through that node. Components come in the order of their earliest nodes.
 */
export function findCycles(graph: WorkflowGraph): number[][] {
  return stronglyConnected(graph)
    .filter((component) => component.length > 1)
    .map((component) => shortestCycleThrough(graph, component))
    .sort((a, b) => a[0]! - b[0]!);
}

/** Tarjan's algorithm, iterative; each component sorted by definition order. */
function stronglyConnected(graph: WorkflowGraph): number[][] {
  const n = graph.keys.length;
  const index = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let start = 0; start < n; start++) {
    if (index[start] !== -1) continue;
    const work: { node: number; next: number }[] = [{ node: start, next: 0 }];
    index[start] = low[start] = counter++;
    stack.push(start);
    onStack[start] = true;
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.downstream[frame.node]!;
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!.to;
        if (index[to] === -1) {
          index[to] = low[to] = counter++;
          stack.push(to);
          onStack[to] = true;
          work.push({ node: to, next: 0 });
        } else if (onStack[to]) {
          low[frame.node] = Math.min(low[frame.node]!, index[to]!);
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent.node] = Math.min(low[parent.node]!, low[frame.node]!);
      if (low[frame.node] === index[frame.node]) {
        const component: number[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = false;
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort((a, b) => a - b));
      }
    }
  }
  return components;
}

function shortestCycleThrough(graph: WorkflowGraph, component: readonly number[]): number[] {
  const inside = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<number, number>([[start, -1]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const edge of graph.downstream[node]!) {
      if (edge.to === start) {
        const cycle = [node];
        for (let at = cameFrom.get(node)!; at !== -1; at = cameFrom.get(at)!) cycle.unshift(at);
        return cycle;
      }
      if (!inside.has(edge.to) || cameFrom.has(edge.to)) continue;
      cameFrom.set(edge.to, node);
      queue.push(edge.to);
    }
  }
  return [start]; // unreachable: a component of two or more nodes has a cycle through each
}

/** By node: every node upstream of it, directly or through others (itself only on a cycle). */
export function ancestorSets(graph: WorkflowGraph): Set<number>[] {
  return graph.keys.map((_, node) => {
    const seen = new Set<number>();
    const stack = [node];
    while (stack.length > 0) {
      for (const edge of graph.upstream[stack.pop()!]!) {
        if (seen.has(edge.from)) continue;
        seen.add(edge.from);
        stack.push(edge.from);
      }
    }
    return seen;
  });
}

/** By node: every node downstream of any of `from`, directly or through others. */
export function descendantsOf(graph: WorkflowGraph, from: Iterable<number>): Set<number> {
  const seen = new Set<number>();
  const stack = [...from];
  while (stack.length > 0) {
    for (const edge of graph.downstream[stack.pop()!]!) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      stack.push(edge.to);
    }
  }
  return seen;
}

/**
 * Why a node can never run, whatever its upstream nodes' outcomes, by node (acyclic graphs).
 *
 * A node fires when every upstream edge's condition is met: ON_SUCCESS needs that node SUCCEEDED,
 * ON_FAILURE needs it FAILED, ALWAYS needs it finished in any way (skipped included), which every
 * node is in the end. A node that fires may succeed or fail. So running a node forces, through its
 * ON_SUCCESS and ON_FAILURE edges, one outcome on each of some of its ancestors, with no choice
 * anywhere: the node can run exactly when no ancestor is forced both ways and no forced ancestor
 * itself can never run. (Branches only join; there is no "either" condition.)
 */
export function neverRunnable(graph: WorkflowGraph, order: readonly number[]): Map<number, string> {
  const never = new Map<number, string>();
  for (const node of order) {
    const why = whyNeverRuns(graph, node, never);
    if (why !== undefined) never.set(node, why);
  }
  return new Map([...never].sort(([a], [b]) => a - b));
}

type Outcome = 'SUCCEEDED' | 'FAILED';

function whyNeverRuns(
  graph: WorkflowGraph,
  node: number,
  never: ReadonlyMap<number, string>,
): string | undefined {
  /** By ancestor: the outcome it is forced to, and the next node on the way to `node`. */
  const forced = new Map<number, { outcome: Outcome; via: number }>();
  const pathFrom = (from: number, via: number): string => {
    const path = [from];
    for (let at = via; at !== node; at = forced.get(at)!.via) path.push(at);
    path.push(node);
    return path.map((i) => graph.keys[i]).join(' → ');
  };
  const verb = (outcome: Outcome) => (outcome === 'SUCCEEDED' ? 'succeed' : 'fail');
  // Breadth-first, in upstream-list order, so that the first requirement found is the nearest.
  const queue = [node];
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!;
    for (const edge of graph.upstream[at]!) {
      if (edge.condition === 'ALWAYS') continue;
      const outcome: Outcome = edge.condition === 'ON_SUCCESS' ? 'SUCCEEDED' : 'FAILED';
      const up = edge.from;
      const name = graph.keys[up];
      if (never.has(up)) {
        return `it needs ${name} to ${verb(outcome)} (${pathFrom(up, at)}), and ${name} can never run`;
      }
      const before = forced.get(up);
      if (before === undefined) {
        forced.set(up, { outcome, via: at });
        queue.push(up);
      } else if (before.outcome !== outcome) {
        return (
          `it needs ${name} to ${verb(before.outcome)} (${pathFrom(up, before.via)}) ` +
          `and to ${verb(outcome)} (${pathFrom(up, at)})`
        );
      }
    }
  }
  return undefined;
}

/**
 * The outcome each ancestor must have for `node` to run (empty for a root; ancestors reached only
 * through ALWAYS edges are free). Meaningful for nodes `neverRunnable` does not list.
 */
export function forcedOutcomes(graph: WorkflowGraph, node: number): Map<number, Outcome> {
  const forced = new Map<number, Outcome>();
  const stack = [node];
  while (stack.length > 0) {
    for (const edge of graph.upstream[stack.pop()!]!) {
      if (edge.condition === 'ALWAYS' || forced.has(edge.from)) continue;
      forced.set(edge.from, edge.condition === 'ON_SUCCESS' ? 'SUCCEEDED' : 'FAILED');
      stack.push(edge.from);
    }
  }
  return forced;
}
