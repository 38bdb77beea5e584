/**
 * The workflow bench's one shape and what is measured on it, pure (no I/O): a diamond and a chain,
 *
 *     a ─┬─ b ─┬─ d ── e
 *        └─ c ─┘
 *
 * so every run has a fan-out (a → b, c), a join (b, c → d) and a chain (d → e). Each node is a job
 * run of the quick handler {@link nodeResult}: its parameter is rendered from its upstream nodes'
 * results, and its result (`{"hop":…,"seq":…}`) is what its downstream nodes read. The last node's
 * result tells whether the results travelled: hop 4 (the longest path's length + 1) and the run's
 * own `seq` (the trigger's input).
 */

/** The runs are triggered evenly over this long (overlapPolicy ALLOW: they run side by side), ms. */
export const TRIGGER_SPREAD_MS = 3_000;

/** How long the handler "works", ms. */
export const WORKFLOW_HANDLER_MS = 3;

export interface ShapeNode {
  readonly key: string;
  readonly upstream: readonly string[];
  /** The node's executorParam template. */
  readonly executorParam: string;
}

const passOn = (from: string) =>
  `{"hop":{{ nodes.${from}.result.hop }},"seq":{{ nodes.${from}.result.seq }}}`;

export const WORKFLOW_SHAPE: readonly ShapeNode[] = [
  { key: 'a', upstream: [], executorParam: '{"hop":0,"seq":{{ input.seq }}}' },
  { key: 'b', upstream: ['a'], executorParam: passOn('a') },
  { key: 'c', upstream: ['a'], executorParam: passOn('a') },
  {
    key: 'd',
    upstream: ['b', 'c'],
    executorParam:
      '{"hop":[{{ nodes.b.result.hop }},{{ nodes.c.result.hop }}],"seq":{{ nodes.c.result.seq }}}',
  },
  { key: 'e', upstream: ['d'], executorParam: passOn('d') },
];

/** The node whose result is checked, and the hop it must reach. */
export const FINAL_NODE = 'e';
export const FINAL_HOP = 4;

/** The text the shape draws in the summary. */
export const SHAPE_TEXT = 'a → b, c → d → e (fan-out, join, chain: 5 nodes)';

/**
 * The handler's result for its parameter: `hop` one more than the parameter's `hop` (a number, or
 * the largest of a list), `seq` passed on (null when missing or the parameter is not JSON).
 */
export function nodeResult(param: string): { readonly hop: number; readonly seq: number | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(param);
  } catch {
    return { hop: 1, seq: null };
  }
  const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const hops = (Array.isArray(fields.hop) ? fields.hop : [fields.hop]).filter(
    (h): h is number => typeof h === 'number',
  );
  return { hop: 1 + Math.max(0, ...hops), seq: typeof fields.seq === 'number' ? fields.seq : null };
}

// ---------------------------------------------------------------------------------------------
// What a run left behind, read back after the runs ended.

/** A workflow run as the store kept it (the parts measured). */
export interface RunView {
  readonly id: string;
  /** The `seq` of its trigger's input. */
  readonly seq: number;
  readonly status: string;
  readonly createdAt: number;
  readonly finishedAt?: number;
  readonly nodeRuns: Readonly<
    Record<string, { readonly attempt: number; readonly logIds: readonly number[] }>
  >;
  readonly nodeTimes: Readonly<Record<string, { readonly firedAt?: number; readonly finishedAt?: number }>>;
  readonly results: Readonly<Record<string, string | undefined>>;
}

/** A node's job run as the run store kept it. */
export interface JobRunView {
  readonly logId: number;
  /** The workflow link the dispatcher recorded with the run. */
  readonly workflow?: { readonly runId: string; readonly node: string; readonly attempt: number };
  /** When the dispatcher made the run: routed, just before its claim write and the send to the executor. */
  readonly dispatchedAt: number;
  /** When its result was recorded (the callback). */
  readonly handleTime: number;
  readonly handleCode: number;
}

/** Latency distribution, nearest-rank percentiles, ms. */
export interface LatencySummary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

export interface WorkflowAnalysis {
  /** Runs by stored status (SUCCEEDED expected). */
  readonly statuses: Readonly<Record<string, number>>;
  /** Node runs expected: nodes × runs. */
  readonly expectedNodeRuns: number;
  /** Job runs of the measured runs' nodes that an executor's handler received. */
  readonly nodeRuns: number;
  /** Nodes of the measured runs no handler received. */
  readonly missingNodes: number;
  /** Handler receipts beyond one per node (a node run twice, or a job run received twice). */
  readonly duplicateNodes: number;
  /** Nodes whose attempt is not 1 (fired again after a failure). */
  readonly retriedNodes: number;
  /** Succeeded runs whose last node's result is not {hop: FINAL_HOP, seq: the run's seq}. */
  readonly wrongResults: number;
  /** Non-root nodes: dispatched − the latest upstream result recorded (the target's lateness). */
  readonly latenessMs: LatencySummary;
  /** Its parts: upstream result recorded → engine fired the node (run record saved, fire not yet sent). */
  readonly toFiredMs: LatencySummary;
  /** Engine fired → dispatcher made the run (the ring queue, the dispatcher's reads and route). */
  readonly firedToDispatchedMs: LatencySummary;
  /** Dispatched → the executor's handler called (the claim write, the node run noted, HTTP, the executor's queue per job). */
  readonly dispatchedToReceivedMs: LatencySummary;
  /** Non-root nodes: handler called − the latest upstream result recorded. */
  readonly toReceivedMs: LatencySummary;
  /** Root nodes: dispatched − the run's creation (the trigger). */
  readonly rootStartMs: LatencySummary;
  /** Runs: finished − created. */
  readonly runMs: LatencySummary;
}

/**
 * Reads the ended runs, their nodes' job runs and the handlers' receipts (times per logId) as
 * latencies and counts. A node without a job run (or an upstream without one) has no lateness.
 */
export function analyseRuns(
  runs: readonly RunView[],
  jobRuns: ReadonlyMap<number, JobRunView>,
  receipts: ReadonlyMap<number, readonly number[]>,
  shape: readonly ShapeNode[] = WORKFLOW_SHAPE,
): WorkflowAnalysis {
  const statuses: Record<string, number> = {};
  const lateness: number[] = [];
  const toFired: number[] = [];
  const firedToDispatched: number[] = [];
  const dispatchedToReceived: number[] = [];
  const toReceived: number[] = [];
  const rootStart: number[] = [];
  const runMs: number[] = [];
  let missingNodes = 0;
  let retriedNodes = 0;
  let wrongResults = 0;

  // Receipts per (run, node), through the links the dispatcher recorded with each job run.
  const runIds = new Set(runs.map((r) => r.id));
  const received = new Map<string, number>();
  let nodeRuns = 0;
  let duplicateNodes = 0;
  for (const [logId, times] of receipts) {
    const link = jobRuns.get(logId)?.workflow;
    if (!link || !runIds.has(link.runId)) continue;
    const key = `${link.runId}\u0000${link.node}`;
    received.set(key, (received.get(key) ?? 0) + times.length);
    nodeRuns += times.length;
  }
  for (const count of received.values()) duplicateNodes += Math.max(0, count - 1);

  for (const run of runs) {
    statuses[run.status] = (statuses[run.status] ?? 0) + 1;
    if (run.finishedAt !== undefined) runMs.push(run.finishedAt - run.createdAt);
    const jobRunOf = (key: string) => {
      const logId = run.nodeRuns[key]?.logIds[0];
      return logId === undefined ? undefined : jobRuns.get(logId);
    };
    for (const node of shape) {
      if (!received.has(`${run.id}\u0000${node.key}`)) missingNodes++;
      if ((run.nodeRuns[node.key]?.attempt ?? 1) > 1) retriedNodes++;
      const own = jobRunOf(node.key);
      if (!own || own.dispatchedAt <= 0) continue;
      const receivedAt = receipts.get(own.logId)?.[0];
      if (node.upstream.length === 0) {
        rootStart.push(own.dispatchedAt - run.createdAt);
        continue;
      }
      const ups = node.upstream.map(jobRunOf);
      if (ups.some((u) => !u || u.handleTime <= 0)) continue;
      const upstreamDone = Math.max(...ups.map((u) => u?.handleTime ?? 0));
      lateness.push(own.dispatchedAt - upstreamDone);
      const firedAt = run.nodeTimes[node.key]?.firedAt;
      if (firedAt !== undefined) {
        toFired.push(firedAt - upstreamDone);
        firedToDispatched.push(own.dispatchedAt - firedAt);
      }
      if (receivedAt !== undefined) {
        dispatchedToReceived.push(receivedAt - own.dispatchedAt);
        toReceived.push(receivedAt - upstreamDone);
      }
    }
    if (run.status === 'SUCCEEDED' && !isFinalResult(run.results[FINAL_NODE], run.seq)) wrongResults++;
  }
  return {
    statuses,
    expectedNodeRuns: runs.length * shape.length,
    nodeRuns,
    missingNodes,
    duplicateNodes,
    retriedNodes,
    wrongResults,
    latenessMs: latencySummary(lateness),
    toFiredMs: latencySummary(toFired),
    firedToDispatchedMs: latencySummary(firedToDispatched),
    dispatchedToReceivedMs: latencySummary(dispatchedToReceived),
    toReceivedMs: latencySummary(toReceived),
    rootStartMs: latencySummary(rootStart),
    runMs: latencySummary(runMs),
  };
}

function isFinalResult(result: string | undefined, seq: number): boolean {
  try {
    const parsed = JSON.parse(result ?? '') as { hop?: unknown; seq?: unknown };
    return parsed.hop === FINAL_HOP && parsed.seq === seq;
  } catch {
    return false;
  }
}

/** Nearest-rank percentiles (as stats.ts), with p95. */
export function latencySummary(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) {
    return { n, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN, mean: Number.NaN };
  }
  const at = (p: number) => sorted[Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1] as number;
  return {
    n,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted[n - 1] as number,
    mean: sorted.reduce((s, v) => s + v, 0) / n,
  };
}
