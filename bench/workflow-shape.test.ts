import { parseTemplate, renderTemplate } from '@tickring/core/workflows';
import { describe, expect, it } from 'vitest';
import {
  analyseRuns,
  FINAL_HOP,
  type JobRunView,
  latencySummary,
  nodeResult,
  type RunView,
  WORKFLOW_SHAPE,
} from './workflow-shape.js';

describe('nodeResult', () => {
  it('answers one hop more than its parameter (the largest of a list) and passes seq on', () => {
    expect(nodeResult('{"hop":0,"seq":7}')).toEqual({ hop: 1, seq: 7 });
    expect(nodeResult('{"hop":[2,3],"seq":7}')).toEqual({ hop: 4, seq: 7 });
    expect(nodeResult('not json')).toEqual({ hop: 1, seq: null });
    expect(nodeResult('{}')).toEqual({ hop: 1, seq: null });
  });
});

describe('latencySummary', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(latencySummary(values)).toEqual({ n: 100, p50: 50, p95: 95, p99: 99, max: 100, mean: 50.5 });
    expect(latencySummary([]).p99).toBeNaN();
  });
});

/** The shape's templates rendered along the DAG, as the engine does, from each handler's result. */
describe('WORKFLOW_SHAPE', () => {
  it('carries hop and seq to the last node', () => {
    const results: Record<string, string> = {};
    for (const node of WORKFLOW_SHAPE) {
      const parsed = parseTemplate(node.executorParam);
      if ('error' in parsed) throw new Error(parsed.error);
      const rendered = renderTemplate(parsed.ok, {
        input: { seq: 12 },
        nodes: Object.fromEntries(
          Object.entries(results).map(([key, result]) => [key, { status: 'SUCCEEDED' as const, result }]),
        ),
      });
      if ('error' in rendered) throw new Error(rendered.error);
      results[node.key] = JSON.stringify(nodeResult(rendered.ok));
    }
    expect(JSON.parse(results.e ?? '')).toEqual({ hop: FINAL_HOP, seq: 12 });
  });
});

describe('analyseRuns', () => {
  // One run: a (logId 1) at 1000..1010, b (2) and c (3) fired at 1012, d (4) after b and c, e (5) after d.
  const times: Record<string, { logId: number; firedAt: number; dispatchedAt: number; handleTime: number }> =
    {
      a: { logId: 1, firedAt: 1000, dispatchedAt: 1005, handleTime: 1010 },
      b: { logId: 2, firedAt: 1012, dispatchedAt: 1020, handleTime: 1030 },
      c: { logId: 3, firedAt: 1012, dispatchedAt: 1022, handleTime: 1050 },
      d: { logId: 4, firedAt: 1052, dispatchedAt: 1060, handleTime: 1070 },
      e: { logId: 5, firedAt: 1072, dispatchedAt: 1080, handleTime: 1090 },
    };
  const run: RunView = {
    id: 'wr-1',
    seq: 0,
    status: 'SUCCEEDED',
    createdAt: 999,
    finishedAt: 1091,
    nodeRuns: Object.fromEntries(
      Object.entries(times).map(([k, t]) => [k, { attempt: 1, logIds: [t.logId] }]),
    ),
    nodeTimes: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, { firedAt: t.firedAt }])),
    results: { e: JSON.stringify({ hop: FINAL_HOP, seq: 0 }) },
  };
  const jobRuns = new Map<number, JobRunView>(
    Object.entries(times).map(([node, t]) => [
      t.logId,
      { workflow: { runId: 'wr-1', node, attempt: 1 }, ...t, handleCode: 200 },
    ]),
  );

  it('measures each non-root node from its latest upstream result, and its parts', () => {
    const receipts = new Map(Object.values(times).map((t) => [t.logId, [t.dispatchedAt + 1]]));
    const a = analyseRuns([run], jobRuns, receipts);
    // b: 1020 − 1010, c: 1022 − 1010, d: 1060 − max(1030, 1050), e: 1080 − 1070.
    expect(a.latenessMs).toMatchObject({ n: 4, p50: 10, max: 12 });
    expect(a.toFiredMs).toMatchObject({ n: 4, p50: 2, max: 2 });
    expect(a.firedToDispatchedMs).toMatchObject({ n: 4, p50: 8, max: 10 });
    expect(a.dispatchedToReceivedMs.max).toBe(1);
    expect(a.rootStartMs).toMatchObject({ n: 1, max: 6 });
    expect(a.runMs.max).toBe(92);
    expect(a).toMatchObject({
      statuses: { SUCCEEDED: 1 },
      expectedNodeRuns: 5,
      nodeRuns: 5,
      missingNodes: 0,
      duplicateNodes: 0,
      wrongResults: 0,
    });
  });

  it('counts a node received twice, a node never received, a wrong last result; ignores other runs', () => {
    const receipts = new Map<number, number[]>([
      [1, [1006]],
      [2, [1021, 1025]],
      [3, [1023]],
      [5, [1081]],
      [99, [1000]],
    ]);
    const others = new Map(jobRuns).set(99, {
      logId: 99,
      workflow: { runId: 'wr-warmup', node: 'a', attempt: 1 },
      dispatchedAt: 1,
      handleTime: 2,
      handleCode: 200,
    });
    const a = analyseRuns([{ ...run, results: { e: '{"hop":3,"seq":0}' } }], others, receipts);
    expect(a).toMatchObject({ nodeRuns: 5, missingNodes: 1, duplicateNodes: 1, wrongResults: 1 });
  });
});
