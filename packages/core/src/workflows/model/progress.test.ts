import { describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../common/errors.js';
import { parseWorkflow, type WorkflowDefinition } from './definition.js';
import {
  cancelRun,
  type Decisions,
  type NodeOutcome,
  nodeParameter,
  onNodeFinished,
  retryRun,
  startRun,
  type WorkflowRunState,
} from './progress.js';
import type { EdgeCondition } from './status.js';

/**
 * A definition from `key: upstream` lines: 'b: a' (ON_SUCCESS), 'c: a!' (ON_FAILURE),
 * 'd: b* c' (ALWAYS after b, ON_SUCCESS after c); `params` gives executorParam templates.
 */
function dag(lines: string[], params: Record<string, string> = {}): WorkflowDefinition {
  const marks: Record<string, EdgeCondition> = { '!': 'ON_FAILURE', '*': 'ALWAYS' };
  return parseWorkflow({
    name: 'test',
    appName: 'test-app',
    nodes: lines.map((line, i) => {
      const [key, rest = ''] = line.split(':').map((s) => s.trim()) as [string, string?];
      const upstream = rest
        .split(/\s+/)
        .filter((s) => s !== '')
        .map((s) => {
          const mark = s.at(-1)!;
          return mark in marks ? { key: s.slice(0, -1), condition: marks[mark] } : { key: s };
        });
      return {
        key,
        jobId: i + 1,
        upstream,
        ...(Object.hasOwn(params, key) ? { executorParam: params[key] } : {}),
      };
    }),
  });
}

const ok = (attempt = 1, result?: string): NodeOutcome => ({
  status: 'SUCCEEDED',
  attempt,
  ...(result === undefined ? {} : { result }),
});
const fail = (attempt = 1, result = 'boom'): NodeOutcome => ({ status: 'FAILED', attempt, result });

function statuses(state: WorkflowRunState): Record<string, string> {
  return Object.fromEntries(Object.entries(state.nodes).map(([k, n]) => [k, n.status]));
}

/** Deep-freezes a state, so a test fails if a function changes what it was given. */
function frozen(state: WorkflowRunState): WorkflowRunState {
  const freeze = (v: unknown): void => {
    if (typeof v === 'object' && v !== null) {
      Object.freeze(v);
      for (const child of Object.values(v)) freeze(child);
    }
  };
  freeze(state);
  return state;
}

/** Applies finishes in order, each to the previous state, checking none is a duplicate. */
function run(def: WorkflowDefinition, steps: [string, NodeOutcome][], input = {}): Decisions[] {
  let d = startRun(def, input);
  const all = [d];
  for (const [key, outcome] of steps) {
    d = onNodeFinished(def, frozen(d.state), key, outcome);
    expect(d.duplicate).toBe(false);
    all.push(d);
  }
  return all;
}

describe('startRun', () => {
  it('fires the roots, every other node pending', () => {
    const def = dag(['a', 'b', 'c: a b']);
    const d = startRun(def, { date: '2030-01-01' });
    expect(d.fire).toEqual(['a', 'b']);
    expect(d.skip).toEqual([]);
    expect(d.finished).toBeUndefined();
    expect(d.state).toEqual({
      status: 'RUNNING',
      input: { date: '2030-01-01' },
      nodes: {
        a: { status: 'RUNNING', attempt: 1 },
        b: { status: 'RUNNING', attempt: 1 },
        c: { status: 'PENDING', attempt: 0 },
      },
      revision: 1,
      failedNodes: [],
    });
  });

  it('takes plain JSON input only, of at most 64 KiB', () => {
    const def = dag(['a']);
    expect(startRun(def).state.input).toEqual({});
    expect(() => startRun(def, { when: new Date() } as never)).toThrow(ValidationError);
    expect(() => startRun(def, { when: new Date() } as never)).toThrow(
      'input must be plain JSON; input.when is not',
    );
    expect(() => startRun(def, { s: 'x'.repeat(70_000) })).toThrow(
      'input must be at most 65536 bytes as JSON',
    );
    // The state keeps its own copy.
    const input = { list: [1] };
    const d = startRun(def, input);
    input.list.push(2);
    expect(d.state.input).toEqual({ list: [1] });
  });
});

describe('onNodeFinished: firing', () => {
  it('fires B and C together after A, and D only after both (a diamond)', () => {
    const def = dag(['A', 'B: A', 'C: A', 'D: B C']);
    const [start, afterA, afterB, afterC, afterD] = run(def, [
      ['A', ok(1, '{"rows":3}')],
      ['B', ok()],
      ['C', ok()],
      ['D', ok()],
    ]);
    expect(start!.fire).toEqual(['A']);
    expect(afterA!.fire).toEqual(['B', 'C']);
    expect(afterB!.fire).toEqual([]);
    expect(afterC!.fire).toEqual(['D']);
    expect(afterC!.finished).toBeUndefined();
    expect(afterD!.fire).toEqual([]);
    expect(afterD!.finished).toEqual({ status: 'SUCCEEDED', failedNodes: [] });
    expect(afterD!.state.status).toBe('SUCCEEDED');
    expect(afterD!.state.nodes.A).toEqual({ status: 'SUCCEEDED', attempt: 1, result: '{"rows":3}' });
    expect(afterD!.state.revision).toBe(5);
  });

  it('runs an ON_FAILURE branch only when its upstream fails, which the failure then counts as handled', () => {
    const def = dag(['a', 'ok: a', 'handler: a!']);
    const success = run(def, [
      ['a', ok()],
      ['ok', ok()],
    ]);
    expect(success[1]!.fire).toEqual(['ok']);
    expect(success[1]!.skip).toEqual(['handler']);
    expect(success[1]!.state.nodes.handler).toEqual({
      status: 'SKIPPED',
      attempt: 0,
      reason: "upstream a succeeded and the edge's condition is ON_FAILURE",
    });
    expect(success[2]!.finished).toEqual({ status: 'SUCCEEDED', failedNodes: [] });

    const failure = run(def, [
      ['a', fail()],
      ['handler', ok()],
    ]);
    expect(failure[1]!.fire).toEqual(['handler']);
    expect(failure[1]!.skip).toEqual(['ok']);
    expect(failure[2]!.finished).toEqual({ status: 'SUCCEEDED', failedNodes: [] });
    expect(statuses(failure[2]!.state)).toEqual({ a: 'FAILED', ok: 'SKIPPED', handler: 'SUCCEEDED' });

    const handlerFails = run(def, [
      ['a', fail()],
      ['handler', fail()],
    ]);
    expect(handlerFails[2]!.finished).toEqual({ status: 'FAILED', failedNodes: ['handler'] });
  });

  it('propagates a skip down a chain in one transition, with reasons', () => {
    const def = dag(['a', 'b: a', 'c: b', 'd: c', 'e: d!']);
    const [, afterA] = run(def, [['a', fail()]]);
    expect(afterA!.fire).toEqual([]);
    expect(afterA!.skip).toEqual(['b', 'c', 'd', 'e']);
    expect(afterA!.state.nodes.b!.reason).toBe("upstream a failed and the edge's condition is ON_SUCCESS");
    expect(afterA!.state.nodes.c!.reason).toBe(
      "upstream b was skipped and the edge's condition is ON_SUCCESS",
    );
    expect(afterA!.state.nodes.e!.reason).toBe(
      "upstream d was skipped and the edge's condition is ON_FAILURE",
    );
    expect(afterA!.finished).toEqual({ status: 'FAILED', failedNodes: ['a'] });
    expect(afterA!.state.failedNodes).toEqual(['a']);
  });

  it('runs an ALWAYS node after a success, a failure or a skip; a failure it follows still fails the run', () => {
    const def = dag(['a', 'b: a', 'cleanup: b*']);
    const afterSkip = run(def, [
      ['a', fail()],
      ['cleanup', ok()],
    ]);
    expect(afterSkip[1]!.skip).toEqual(['b']);
    expect(afterSkip[1]!.fire).toEqual(['cleanup']);
    expect(afterSkip[2]!.finished).toEqual({ status: 'FAILED', failedNodes: ['a'] });

    const afterFailure = run(def, [
      ['a', ok()],
      ['b', fail()],
      ['cleanup', ok()],
    ]);
    expect(afterFailure[2]!.fire).toEqual(['cleanup']);
    expect(afterFailure[3]!.finished).toEqual({ status: 'FAILED', failedNodes: ['b'] });

    const afterSuccess = run(def, [
      ['a', ok()],
      ['b', ok()],
      ['cleanup', ok()],
    ]);
    expect(afterSuccess[2]!.fire).toEqual(['cleanup']);
    expect(afterSuccess[3]!.finished!.status).toBe('SUCCEEDED');
  });

  it('waits for every ALWAYS upstream, and skips as soon as one edge can no longer be met', () => {
    const always = dag(['a', 'b', 'c: a* b*']);
    const steps = run(always, [
      ['a', fail()],
      ['b', ok()],
    ]);
    expect(steps[1]!.fire).toEqual([]);
    expect(steps[2]!.fire).toEqual(['c']);

    const join = dag(['a', 'b', 'c: a b', 'd: c*']);
    const early = run(join, [['a', fail()]]);
    expect(early[1]!.skip).toEqual(['c']);
    // d waits for c, which is done (skipped): it fires although b still runs.
    expect(early[1]!.fire).toEqual(['d']);
    expect(early[1]!.finished).toBeUndefined();
    expect(statuses(early[1]!.state)).toEqual({ a: 'FAILED', b: 'RUNNING', c: 'SKIPPED', d: 'RUNNING' });
  });

  it('finishes a run whose root fails with nothing downstream as FAILED, listing it', () => {
    const def = dag(['a', 'b', 'c: b']);
    const steps = run(def, [
      ['a', fail()],
      ['b', ok()],
      ['c', ok()],
    ]);
    expect(steps[1]!.finished).toBeUndefined();
    expect(steps[3]!.finished).toEqual({ status: 'FAILED', failedNodes: ['a'] });
  });
});

describe('onNodeFinished: duplicates', () => {
  const def = dag(['a', 'b: a', 'c: a']);

  it('recognises the same finish applied twice: no change, no decisions', () => {
    const first = onNodeFinished(def, startRun(def).state, 'a', ok());
    const second = onNodeFinished(def, first.state, 'a', ok());
    expect(second).toEqual({
      state: first.state,
      fire: [],
      skip: [],
      kill: [],
      cancelled: [],
      duplicate: true,
    });
    expect(second.state).toBe(first.state);
  });

  it('keeps the first outcome when a second one for the same attempt differs', () => {
    const first = onNodeFinished(def, startRun(def).state, 'a', ok(1, 'first'));
    const second = onNodeFinished(def, first.state, 'a', fail(1, 'second'));
    expect(second.duplicate).toBe(true);
    expect(second.state.nodes.a).toEqual({ status: 'SUCCEEDED', attempt: 1, result: 'first' });
  });

  it('treats a late outcome of an earlier attempt as stale', () => {
    const failed = run(dag(['a']), [['a', fail()]]).at(-1)!;
    const retried = retryRun(dag(['a']), failed.state);
    expect(retried.state.nodes.a).toEqual({ status: 'RUNNING', attempt: 2 });
    const late = onNodeFinished(dag(['a']), retried.state, 'a', fail(1, 'late copy'));
    expect(late.duplicate).toBe(true);
    expect(late.state).toBe(retried.state);
  });

  it('refuses an outcome for an attempt never fired, and an unknown node or outcome', () => {
    const state = startRun(def).state;
    expect(() => onNodeFinished(def, state, 'b', ok())).toThrow(ConflictError);
    expect(() => onNodeFinished(def, state, 'b', ok())).toThrow(
      'node b was never fired as attempt 1 (its attempt is 0)',
    );
    expect(() => onNodeFinished(def, state, 'a', ok(2))).toThrow(ConflictError);
    expect(() => onNodeFinished(def, state, 'zz', ok())).toThrow(ValidationError);
    expect(() => onNodeFinished(def, state, 'a', { status: 'SKIPPED', attempt: 1 } as never)).toThrow(
      ValidationError,
    );
  });
});

describe('retryRun', () => {
  it('re-runs only the failed tail, keeping earlier results', () => {
    const def = dag(['a', 'b: a', 'c: b', 'd: c', 'side: a'], { c: '{{ nodes.a.result.day }}' });
    const steps = run(def, [
      ['a', ok(1, '{"day":"mon"}')],
      ['side', ok(1, 'side done')],
      ['b', ok(1, 'b1')],
      ['c', fail(1, 'disk full')],
    ]);
    const failed = steps.at(-1)!;
    expect(failed.finished).toEqual({ status: 'FAILED', failedNodes: ['c'] });
    expect(statuses(failed.state)).toMatchObject({ c: 'FAILED', d: 'SKIPPED' });

    const retried = retryRun(def, frozen(failed.state));
    expect(retried.fire).toEqual(['c']);
    expect(retried.state.status).toBe('RUNNING');
    expect(retried.state.failedNodes).toEqual([]);
    expect(retried.state.nodes).toEqual({
      a: { status: 'SUCCEEDED', attempt: 1, result: '{"day":"mon"}' },
      b: { status: 'SUCCEEDED', attempt: 1, result: 'b1' },
      c: { status: 'RUNNING', attempt: 2 },
      d: { status: 'PENDING', attempt: 0 },
      side: { status: 'SUCCEEDED', attempt: 1, result: 'side done' },
    });
    expect(nodeParameter(def, retried.state, 'c')).toEqual({ ok: 'mon' });

    const afterC = onNodeFinished(def, retried.state, 'c', ok(2));
    expect(afterC.fire).toEqual(['d']);
    const done = onNodeFinished(def, afterC.state, 'd', ok(1));
    expect(done.finished).toEqual({ status: 'SUCCEEDED', failedNodes: [] });
  });

  it('resets skipped nodes below a failure but not below a success, and re-evaluates them', () => {
    const def = dag(['a', 'b: a', 'onFail: b!', 'x', 'y: x!']);
    const failed = run(def, [
      ['a', ok()],
      ['x', ok()],
      ['b', fail()],
      ['onFail', fail()],
    ]).at(-1)!;
    // b's failure is handled (onFail ran); onFail's own failure is not.
    expect(failed.finished).toEqual({ status: 'FAILED', failedNodes: ['onFail'] });
    const retried = retryRun(def, failed.state);
    // onFail runs again (b stays FAILED: its failure was handled); y, skipped after x succeeded, stays skipped.
    expect(retried.fire).toEqual(['onFail']);
    expect(retried.state.nodes.onFail).toEqual({ status: 'RUNNING', attempt: 2 });
    expect(statuses(retried.state)).toEqual({
      a: 'SUCCEEDED',
      b: 'FAILED',
      onFail: 'RUNNING',
      x: 'SUCCEEDED',
      y: 'SKIPPED',
    });
    expect(onNodeFinished(def, retried.state, 'onFail', ok(2)).finished).toEqual({
      status: 'SUCCEEDED',
      failedNodes: [],
    });
  });

  it('skips again at once what a retried node decides the other way', () => {
    const def = dag(['a', 'b: a', 'c: a!']);
    const failed = run(def, [
      ['a', fail()],
      ['c', fail()],
    ]).at(-1)!;
    expect(failed.finished).toEqual({ status: 'FAILED', failedNodes: ['c'] });
    const afterRetry = retryRun(def, failed.state);
    expect(afterRetry.fire).toEqual(['c']);
    const again = retryRun(def, onNodeFinished(def, afterRetry.state, 'c', fail(2)).state);
    expect(again.state.nodes.c).toEqual({ status: 'RUNNING', attempt: 3 });
  });

  it('refuses a run that is running or succeeded', () => {
    const def = dag(['a']);
    const running = startRun(def).state;
    expect(() => retryRun(def, running)).toThrow(ConflictError);
    const succeeded = onNodeFinished(def, running, 'a', ok()).state;
    expect(() => retryRun(def, succeeded)).toThrow(
      'the run is SUCCEEDED; only a FAILED or CANCELLED run can be retried',
    );
  });
});

describe('cancelRun', () => {
  const def = dag(['A', 'B: A', 'C: A', 'D: B C']);

  it('kills the running nodes, cancels the pending ones and ends the run', () => {
    const afterA = run(def, [['A', ok()]]).at(-1)!;
    const cancelled = cancelRun(frozen(afterA.state));
    expect(cancelled.kill).toEqual(['B', 'C']);
    expect(cancelled.cancelled).toEqual(['D']);
    expect(cancelled.finished).toEqual({ status: 'CANCELLED', failedNodes: [] });
    expect(cancelled.state.status).toBe('CANCELLED');
    expect(statuses(cancelled.state)).toEqual({ A: 'SUCCEEDED', B: 'RUNNING', C: 'RUNNING', D: 'CANCELLED' });
    expect(cancelled.state.nodes.D!.reason).toBe('the run was cancelled');

    // The killed nodes' outcomes are recorded; nothing fires any more.
    const bDone = onNodeFinished(def, cancelled.state, 'B', ok());
    expect(bDone).toMatchObject({ fire: [], skip: [], duplicate: false });
    expect(bDone.finished).toBeUndefined();
    expect(bDone.state.status).toBe('CANCELLED');
    expect(bDone.state.nodes.B!.status).toBe('SUCCEEDED');

    // Twice is a duplicate; so is cancelling an ended run.
    expect(cancelRun(bDone.state)).toMatchObject({ duplicate: true, kill: [], cancelled: [] });
    expect(cancelRun(bDone.state).state).toBe(bDone.state);
    const succeeded = run(dag(['a']), [['a', ok()]]).at(-1)!.state;
    expect(cancelRun(succeeded).duplicate).toBe(true);

    // A retry waits for the last kill, then resumes: C (killed, failed) and D run; A and B are kept.
    expect(() => retryRun(def, bDone.state)).toThrow(
      'node C of the cancelled run is still running; retry once it has finished',
    );
    const cDone = onNodeFinished(def, bDone.state, 'C', fail(1, 'killed'));
    const resumed = retryRun(def, cDone.state);
    expect(resumed.fire).toEqual(['C']);
    expect(statuses(resumed.state)).toEqual({ A: 'SUCCEEDED', B: 'SUCCEEDED', C: 'RUNNING', D: 'PENDING' });
  });
});

describe('nodeParameter', () => {
  const def = dag(['extract', 'load: extract', 'alert: extract!', 'report: load*', 'plain: extract'], {
    extract: 'day={{ input.date }}',
    load: '{{ nodes.extract.result.rows }} rows for {{ input.date }}',
    alert: 'extract failed: {{ nodes.extract.result }}',
    report: 'loaded: {{ nodes.load.result }}',
  });

  it('renders a node’s template from the input and its ancestors’ results', () => {
    const start = startRun(def, { date: '2030-01-01' });
    expect(nodeParameter(def, start.state, 'extract')).toEqual({ ok: 'day=2030-01-01' });
    const afterExtract = onNodeFinished(def, start.state, 'extract', ok(1, '{"rows":42}'));
    expect(nodeParameter(def, afterExtract.state, 'load')).toEqual({ ok: '42 rows for 2030-01-01' });
  });

  it('answers undefined for a node without a template (the job’s own parameter applies)', () => {
    expect(nodeParameter(def, startRun(def).state, 'plain')).toEqual({ ok: undefined });
  });

  it('hands a failure handler the failure message', () => {
    const afterFailure = onNodeFinished(def, startRun(def).state, 'extract', fail(1, 'timeout after 30s'));
    expect(afterFailure.fire).toEqual(['alert', 'report']);
    expect(nodeParameter(def, afterFailure.state, 'alert')).toEqual({
      ok: 'extract failed: timeout after 30s',
    });
  });

  it('answers an error naming the missing value, for the engine to fail the node with', () => {
    const noRows = onNodeFinished(def, startRun(def, { date: 'd' }).state, 'extract', ok(1, '{"cols":1}'));
    expect(nodeParameter(def, noRows.state, 'load')).toEqual({
      error: "nodes.extract.result.rows is missing: extract's result has no field rows",
    });
    const skipped = onNodeFinished(def, startRun(def).state, 'extract', fail());
    expect(skipped.fire).toEqual(['alert', 'report']);
    expect(nodeParameter(def, skipped.state, 'report')).toEqual({
      error: 'nodes.load.result is missing: node load was skipped, so it has no result',
    });
    expect(() => nodeParameter(def, skipped.state, 'nope')).toThrow(ValidationError);
  });
});

describe('states as the engine stores them', () => {
  it('works after a JSON round trip, with node keys named like Object.prototype members', () => {
    const def = dag(['constructor', 'toString: constructor', 'hasOwnProperty: toString!'], {
      toString: '{{ nodes.constructor.result }}',
    });
    const roundTrip = (d: Decisions) => JSON.parse(JSON.stringify(d.state)) as WorkflowRunState;
    const start = startRun(def);
    expect(start.fire).toEqual(['constructor']);
    const after = onNodeFinished(def, roundTrip(start), 'constructor', ok(1, '"c-result"'));
    expect(after.fire).toEqual(['toString']);
    expect(nodeParameter(def, roundTrip(after), 'toString')).toEqual({ ok: 'c-result' });
    const end = onNodeFinished(def, roundTrip(after), 'toString', ok());
    expect(end.skip).toEqual(['hasOwnProperty']);
    expect(end.finished).toEqual({ status: 'SUCCEEDED', failedNodes: [] });
  });

  it('refuses a state that lacks a node of the definition (another version)', () => {
    const def = dag(['a', 'b: a']);
    const state = startRun(dag(['a'])).state;
    expect(() => onNodeFinished(def, state, 'a', ok())).toThrow(/belongs to another version/);
  });
});
