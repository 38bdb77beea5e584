/**
 * Random DAGs (up to 50 nodes, random conditions) driven to their end with random outcomes,
 * duplicate and stale finishes, cancels and retries, checking the state machine's promises after
 * every transition. Seeded, so a failure names a seed that reproduces it.
 */
import { describe, expect, it } from 'vitest';
import { type UpstreamEdge, validateWorkflow, type WorkflowDefinition } from './definition.js';
import { forcedOutcomes, graphOf, neverRunnable, topologicalOrder } from './graph.js';
import {
  cancelRun,
  type Decisions,
  type NodeOutcome,
  type NodeState,
  onNodeFinished,
  retryRun,
  startRun,
  type WorkflowRunState,
} from './progress.js';
import { type EdgeCondition, isTerminal, type NodeStatus } from './status.js';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Random {
  (): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
}

function random(seed: number): Random {
  const next = prng(seed);
  return Object.assign(next, {
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  });
}

/** A random DAG: each node may follow earlier ones (so it is acyclic), conditions weighted to success. */
function randomDag(r: Random, maxNodes = 50): WorkflowDefinition {
  const size = 1 + r.int(maxNodes);
  const conditions: EdgeCondition[] = ['ON_SUCCESS', 'ON_SUCCESS', 'ON_SUCCESS', 'ON_FAILURE', 'ALWAYS'];
  const nodes = Array.from({ length: size }, (_, i) => {
    const upstream: UpstreamEdge[] = [];
    if (i > 0 && r() < 0.85) {
      const count = 1 + r.int(Math.min(i, 3));
      const chosen = new Set<number>();
      while (chosen.size < count) chosen.add(r.int(i));
      for (const j of chosen) upstream.push({ key: `n${j}`, condition: r.pick(conditions) });
    }
    return { key: `n${i}`, jobId: 1 + i, upstream };
  });
  return {
    name: 'random',
    appName: 'random-app',
    scheduleType: 'NONE',
    scheduleConf: '',
    misfireStrategy: 'DO_NOTHING',
    timeZone: 'UTC',
    overlapPolicy: 'SKIP',
    nodes,
  };
}

function accepts(condition: EdgeCondition, status: NodeStatus): boolean {
  if (condition === 'ON_SUCCESS') return status === 'SUCCEEDED';
  if (condition === 'ON_FAILURE') return status === 'FAILED';
  return status === 'SUCCEEDED' || status === 'FAILED' || status === 'SKIPPED';
}

const ran = (s: NodeStatus) => s === 'SUCCEEDED' || s === 'FAILED';

/** The run's end by the rules, computed from the node states alone. */
function expectedEnd(def: WorkflowDefinition, state: WorkflowRunState): string[] {
  return def.nodes
    .filter((n) => state.nodes[n.key]!.status === 'FAILED')
    .filter(
      (n) =>
        !def.nodes.some((m) =>
          m.upstream.some(
            (e) => e.key === n.key && e.condition === 'ON_FAILURE' && ran(state.nodes[m.key]!.status),
          ),
        ),
    )
    .map((n) => n.key);
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

function sameNode(a: NodeState, b: NodeState): boolean {
  return a.status === b.status && a.attempt === b.attempt && a.result === b.result && a.reason === b.reason;
}

/** Checks one transition against the state before it. */
function checkTransition(
  def: WorkflowDefinition,
  before: WorkflowRunState | undefined,
  d: Decisions,
  kind: 'start' | 'finish' | 'retry' | 'cancel',
  finishedKey?: string,
): void {
  const after = d.state;
  if (d.duplicate) {
    expect(after).toBe(before);
    expect([...d.fire, ...d.skip, ...d.kill, ...d.cancelled]).toEqual([]);
    expect(d.finished).toBeUndefined();
    return;
  }
  expect(after.revision).toBe((before?.revision ?? 0) + 1);
  const fired = new Set(d.fire);
  const skipped = new Set(d.skip);
  for (const node of def.nodes) {
    const was = before?.nodes[node.key];
    const now = after.nodes[node.key]!;
    // Reset by a retry (then fired, skipped again or left pending): only a failed, skipped or
    // cancelled node is reset, never one that succeeded.
    const reset =
      kind === 'retry' &&
      (fired.has(node.key) ||
        skipped.has(node.key) ||
        (now.status === 'PENDING' && was!.status !== 'PENDING'));
    if (reset)
      check(
        ['FAILED', 'SKIPPED', 'CANCELLED'].includes(was!.status),
        `${node.key} reset from ${was!.status}`,
      );
    const from: NodeStatus = kind === 'start' || reset ? 'PENDING' : was!.status;
    if (fired.has(node.key)) {
      check(from === 'PENDING', `${node.key} fired from ${from}`);
      check(now.status === 'RUNNING', `${node.key} fired but is ${now.status}`);
      check(now.attempt === (was?.attempt ?? 0) + 1, `${node.key} fired as attempt ${now.attempt}`);
      // Never before its upstream finished, and only when every edge is met.
      for (const edge of node.upstream) {
        const up = after.nodes[edge.key]!.status;
        check(isTerminal(up), `${node.key} fired before ${edge.key} finished`);
        check(accepts(edge.condition, up), `${node.key} fired although ${edge.key} is ${up}`);
      }
    } else if (skipped.has(node.key)) {
      check(from === 'PENDING' && now.status === 'SKIPPED', `${node.key} skipped from ${from}`);
      check(
        node.upstream.some((e) => {
          const up = after.nodes[e.key]!.status;
          return isTerminal(up) && !accepts(e.condition, up);
        }),
        `${node.key} skipped with every edge still possible`,
      );
    } else if (kind === 'finish' && node.key === finishedKey) {
      check(was!.status === 'RUNNING' && ran(now.status), `${node.key} finished from ${was!.status}`);
    } else if (kind === 'cancel' && d.cancelled.includes(node.key)) {
      check(
        was!.status === 'PENDING' && now.status === 'CANCELLED',
        `${node.key} cancelled from ${was!.status}`,
      );
    } else if (!reset) {
      // Nothing else changes: a terminal state stays terminal (exactly once).
      const expected: NodeState = kind === 'start' ? { status: 'PENDING', attempt: 0 } : was!;
      check(
        sameNode(now, expected),
        `${node.key} changed: ${JSON.stringify(expected)} → ${JSON.stringify(now)}`,
      );
    }
  }
  if (after.status === 'RUNNING') {
    expect(d.finished).toBeUndefined();
    // A running run always has something running (else it would be stuck).
    check(
      def.nodes.some((n) => after.nodes[n.key]!.status === 'RUNNING'),
      'a running run with nothing running',
    );
  }
  if (d.finished) {
    expect(after.status).toBe(d.finished.status);
    if (d.finished.status !== 'CANCELLED') {
      for (const n of def.nodes)
        check(isTerminal(after.nodes[n.key]!.status), `${n.key} not terminal at the end`);
      const unhandled = expectedEnd(def, after);
      expect(d.finished).toEqual({
        status: unhandled.length > 0 ? 'FAILED' : 'SUCCEEDED',
        failedNodes: unhandled,
      });
      // Every node's final state agrees with its edges.
      for (const n of def.nodes) {
        const s = after.nodes[n.key]!.status;
        const met = n.upstream.every((e) => accepts(e.condition, after.nodes[e.key]!.status));
        check(s === 'SKIPPED' ? !met : met, `${n.key} ended ${s}`);
      }
    }
  }
}

/** Drives one run of `def` to its end; answers how many times each node was fired. */
function simulate(
  def: WorkflowDefinition,
  r: Random,
  options: { cancels: boolean; retries: number },
): Map<string, number> {
  const fires = new Map<string, number>();
  const succeeded = new Set<string>();
  const freeze = (state: WorkflowRunState): WorkflowRunState => {
    for (const node of Object.values(state.nodes)) Object.freeze(node);
    Object.freeze(state.nodes);
    return Object.freeze(state);
  };
  let d = startRun(def, { seed: r() });
  freeze(d.state);
  checkTransition(def, undefined, d, 'start');
  const count = (keys: readonly string[]) => {
    for (const key of keys) {
      check(!succeeded.has(key), `${key} fired again after it succeeded`);
      fires.set(key, (fires.get(key) ?? 0) + 1);
    }
  };
  count(d.fire);
  let retriesLeft = options.retries;
  const finishedAt: { key: string; outcome: NodeOutcome }[] = [];
  for (let steps = 0; steps < 10_000; steps++) {
    const state = d.state;
    const running = def.nodes.filter((n) => state.nodes[n.key]!.status === 'RUNNING').map((n) => n.key);
    if (running.length === 0) {
      expect(state.status).not.toBe('RUNNING');
      if (state.status === 'SUCCEEDED' || retriesLeft === 0) return fires;
      retriesLeft--;
      const next = retryRun(def, state);
      freeze(next.state);
      checkTransition(def, state, next, 'retry');
      count(next.fire);
      d = next;
      continue;
    }
    const roll = r();
    if (options.cancels && roll < 0.03 && state.status === 'RUNNING') {
      const next = cancelRun(state);
      freeze(next.state);
      checkTransition(def, state, next, 'cancel');
      expect(next.kill).toEqual([...running].sort());
      d = next;
      continue;
    }
    if (roll < 0.1 && finishedAt.length > 0) {
      // A redelivered or stale finish: never a change.
      const old = r.pick(finishedAt);
      const next = onNodeFinished(def, state, old.key, old.outcome);
      expect(next.duplicate).toBe(true);
      checkTransition(def, state, next, 'finish', old.key);
      continue;
    }
    const key = r.pick(running);
    const outcome: NodeOutcome = {
      status: r() < 0.7 ? 'SUCCEEDED' : 'FAILED',
      attempt: state.nodes[key]!.attempt,
      result: `{"n":${r.int(100)}}`,
    };
    const next = onNodeFinished(def, state, key, outcome);
    freeze(next.state);
    expect(next.duplicate).toBe(false);
    checkTransition(def, state, next, 'finish', key);
    if (state.status === 'CANCELLED') expect(next.fire).toEqual([]);
    if (outcome.status === 'SUCCEEDED') succeeded.add(key);
    finishedAt.push({ key, outcome });
    count(next.fire);
    d = next;
  }
  throw new Error('the run did not end');
}

describe('progress on random DAGs (property)', () => {
  it('ends every node in a terminal state once, fires each at most once, never before its upstream', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const def = randomDag(r);
      try {
        const fires = simulate(def, r, { cancels: false, retries: 0 });
        for (const [key, times] of fires) expect(times, `${key} fired ${times} times`).toBe(1);
      } catch (err) {
        throw new Error(`seed ${seed}: ${(err as Error).message}`);
      }
    }
  });

  it('keeps its promises through cancels, duplicate finishes and retries', () => {
    for (let seed = 1001; seed <= 1300; seed++) {
      const r = random(seed);
      const def = randomDag(r);
      try {
        simulate(def, r, { cancels: true, retries: 3 });
      } catch (err) {
        throw new Error(`seed ${seed}: ${(err as Error).message}`);
      }
    }
  });
});

describe('nodes that can never run (property)', () => {
  const graphFor = (def: WorkflowDefinition) => {
    const index = new Map(def.nodes.map((n, i) => [n.key, i]));
    return graphOf(
      def.nodes.map((n) => n.key),
      def.nodes.flatMap((n, to) =>
        n.upstream.map((e, position) => ({ from: index.get(e.key)!, to, condition: e.condition, position })),
      ),
    );
  };

  /** Runs `def` with outcomes chosen by `choose`; answers the final statuses. */
  const play = (def: WorkflowDefinition, choose: (key: string) => NodeOutcome['status']) => {
    let d = startRun(def);
    while (d.state.status === 'RUNNING') {
      const key = def.nodes.find((n) => d.state.nodes[n.key]!.status === 'RUNNING')!.key;
      d = onNodeFinished(def, d.state, key, { status: choose(key), attempt: d.state.nodes[key]!.attempt });
    }
    return d.state;
  };

  it('flags exactly the nodes no combination of outcomes runs', () => {
    for (let seed = 2001; seed <= 2300; seed++) {
      const r = random(seed);
      const def = randomDag(r, 25);
      const graph = graphFor(def);
      const never = neverRunnable(graph, topologicalOrder(graph)!);
      // The validation reports the same nodes.
      const validated = validateWorkflow(def);
      const flagged = 'problems' in validated ? validated.problems.map((p) => p.field) : [];
      expect(flagged, `seed ${seed}`).toEqual([...never.keys()].map((i) => `nodes[${i}]`));
      for (const [i, key] of graph.keys.entries()) {
        if (never.has(i)) {
          // Random outcomes never run it.
          for (let t = 0; t < 5; t++) {
            const end = play(def, () => (r() < 0.5 ? 'SUCCEEDED' : 'FAILED'));
            check(!ran(end.nodes[key]!.status), `seed ${seed}: ${key} ran`);
          }
        } else {
          // The forced outcomes run it.
          const forced = forcedOutcomes(graph, i);
          const end = play(
            def,
            (k) => forced.get(graph.indexOf.get(k)!) ?? r.pick(['SUCCEEDED', 'FAILED'] as const),
          );
          check(ran(end.nodes[key]!.status), `seed ${seed}: ${key} did not run`);
        }
      }
    }
  });
});
