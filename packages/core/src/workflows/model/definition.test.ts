import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../common/errors.js';
import type { Problem } from '../../identity/identity.js';
import { parseWorkflow, validateWorkflow, WORKFLOW_LIMITS, type WorkflowDefinition } from './definition.js';

type NodeInput = { key: string; jobId?: number; executorParam?: string; upstream?: unknown[] };

function workflow(nodes: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'nightly etl', appName: 'etl-app', nodes, ...extra };
}

/** Nodes from `key: upstream keys` (ON_SUCCESS), job ids 1, 2, ... */
function nodesOf(spec: Record<string, string[]>): NodeInput[] {
  return Object.entries(spec).map(([key, upstream], i) => ({
    key,
    jobId: i + 1,
    upstream: upstream.map((up) => ({ key: up })),
  }));
}

function ok(input: unknown): WorkflowDefinition {
  const result = validateWorkflow(input);
  if ('problems' in result) throw new Error(`expected a valid workflow: ${JSON.stringify(result.problems)}`);
  return result.ok;
}

function problems(input: unknown): readonly Problem[] {
  const result = validateWorkflow(input);
  if ('ok' in result) throw new Error('expected problems');
  return result.problems;
}

function chain(length: number): NodeInput[] {
  return Array.from({ length }, (_, i) => ({
    key: `n${i}`,
    jobId: 1,
    upstream: i === 0 ? [] : [{ key: `n${i - 1}` }],
  }));
}

describe('validateWorkflow: a valid workflow', () => {
  it('fills the defaults and answers a frozen definition', () => {
    const def = ok(
      workflow([
        { key: 'a', jobId: 7 },
        { key: 'b', jobId: 8, upstream: [{ key: 'a' }] },
      ]),
    );
    expect(def).toEqual({
      name: 'nightly etl',
      appName: 'etl-app',
      scheduleType: 'NONE',
      scheduleConf: '',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      overlapPolicy: 'SKIP',
      nodes: [
        { key: 'a', jobId: 7, upstream: [] },
        { key: 'b', jobId: 8, upstream: [{ key: 'a', condition: 'ON_SUCCESS' }] },
      ],
    });
    expect(Object.isFrozen(def)).toBe(true);
    expect(Object.isFrozen(def.nodes)).toBe(true);
    expect(Object.isFrozen(def.nodes[1]!.upstream[0])).toBe(true);
  });

  it('keeps every field given: schedule, policy, conditions, templates', () => {
    const def = ok(
      workflow(
        [
          { key: 'extract', jobId: 1, executorParam: 'day={{ input.date }}' },
          {
            key: 'load',
            jobId: 2,
            executorParam: '{{ nodes.extract.result.rows }}',
            upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
          },
          { key: 'alert', jobId: 3, upstream: [{ key: 'extract', condition: 'ON_FAILURE' }] },
          { key: 'cleanup', jobId: 4, upstream: [{ key: 'load', condition: 'ALWAYS' }] },
        ],
        {
          scheduleType: 'CRON',
          scheduleConf: '0 0 2 * * ?',
          timeZone: 'Europe/Berlin',
          overlapPolicy: 'BUFFER_ONE',
        },
      ),
    );
    expect(def).toMatchObject({
      scheduleType: 'CRON',
      scheduleConf: '0 0 2 * * ?',
      timeZone: 'Europe/Berlin',
      overlapPolicy: 'BUFFER_ONE',
    });
    expect(def.nodes.map((n) => n.upstream.map((u) => u.condition))).toEqual([
      [],
      ['ON_SUCCESS'],
      ['ON_FAILURE'],
      ['ALWAYS'],
    ]);
    expect(def.nodes[0]!.executorParam).toBe('day={{ input.date }}');
    expect('executorParam' in def.nodes[2]!).toBe(false);
  });

  it('takes the other schedule types by the jobs’ rules', () => {
    expect(
      ok(workflow(nodesOf({ a: [] }), { scheduleType: 'FIX_RATE', scheduleConf: '30' })).scheduleConf,
    ).toBe('30');
    expect(
      ok(workflow(nodesOf({ a: [] }), { scheduleType: 'ONCE', scheduleConf: '2030-01-01T00:00:00Z' })),
    ).toBeTruthy();
    expect(ok(workflow(nodesOf({ a: [] }), { appName: '  etl-app  ' })).appName).toBe('etl-app');
  });

  it('takes a 200-node chain, and refuses 201 nodes saying the cap', () => {
    const def = ok(workflow(chain(200)));
    expect(def.nodes).toHaveLength(WORKFLOW_LIMITS.nodes);
    expect(problems(workflow(chain(201)))).toEqual([
      {
        field: 'nodes',
        message: 'a workflow has at most 200 nodes; got 201 (the nodes were not checked further)',
      },
    ]);
  });

  it('checks 200 nodes that each follow every earlier one quickly', () => {
    const nodes = Array.from({ length: 200 }, (_, i) => ({
      key: `n${i}`,
      jobId: 1,
      executorParam: i > 0 ? `{{ nodes.n0.result }}{{ nodes.n${i - 1}.result.x }}` : '',
      upstream: Array.from({ length: i }, (_, j) => ({ key: `n${j}` })),
    }));
    const started = performance.now();
    ok(workflow(nodes));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('takes keys of 1 and 64 characters, digits, dashes and underscores', () => {
    const key64 = `k${'x'.repeat(63)}`;
    ok(
      workflow([
        { key: 'a', jobId: 1 },
        { key: key64, jobId: 1 },
        { key: 'A_b-9', jobId: 1 },
      ]),
    );
  });

  it('allows the same job in several nodes', () => {
    ok(
      workflow([
        { key: 'a', jobId: 5 },
        { key: 'b', jobId: 5, upstream: [{ key: 'a' }] },
      ]),
    );
  });
});

describe('validateWorkflow: each rule', () => {
  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 3]) {
      expect(problems(body)).toEqual([{ field: 'body', message: 'a workflow must be a JSON object' }]);
    }
  });

  it('names the workflow fields', () => {
    expect(problems({ nodes: nodesOf({ a: [] }) })).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'appName', message: 'appName is required' },
    ]);
    expect(problems(workflow(nodesOf({ a: [] }), { name: '   ' }))).toEqual([
      { field: 'name', message: 'name must not be blank' },
    ]);
    expect(problems(workflow(nodesOf({ a: [] }), { name: 'n'.repeat(256) }))).toEqual([
      { field: 'name', message: 'name must be at most 255 characters; got 256' },
    ]);
    expect(problems(workflow(nodesOf({ a: [] }), { appName: 'ab' }))[0]).toMatchObject({
      field: 'appName',
      message: expect.stringMatching(/appName must be the executor group's AppName: 4-64 characters/),
    });
    expect(problems(workflow(nodesOf({ a: [] }), { appName: 'has space' }))[0]!.field).toBe('appName');
    expect(problems(workflow(nodesOf({ a: [] }), { name: 5 }))).toEqual([
      { field: 'name', message: 'name must be a string; got 5' },
    ]);
  });

  it('refuses unknown fields at every level, naming the known ones', () => {
    const input = workflow(
      [
        { key: 'a', jobId: 1, upstream: [], retries: 3 },
        { key: 'b', jobId: 1, upstream: [{ key: 'a', when: 'x' }] },
      ],
      {
        cron: '* * *',
      },
    );
    expect(problems(input)).toEqual([
      {
        field: 'cron',
        message:
          'unknown field "cron"; the workflow fields are name, appName, scheduleType, scheduleConf, timeZone, misfireStrategy, startAt, endAt, maxRuns, jitterSeconds, calendars, overlapPolicy, deadline, nodes',
      },
      {
        field: 'nodes[0].retries',
        message: 'unknown field "retries"; the node fields are key, jobId, executorParam, upstream',
      },
      {
        field: 'nodes[1].upstream[0].when',
        message: 'unknown field "when"; the upstream entry fields are key, condition',
      },
    ]);
    expect(
      problems(
        JSON.parse('{"name":"n","appName":"etl-app","nodes":[{"key":"a","jobId":1}],"__proto__":{"x":1}}'),
      ),
    ).toEqual([expect.objectContaining({ field: '__proto__' })]);
  });

  it('checks the schedule by the jobs’ rules, each field on its own', () => {
    expect(problems(workflow(nodesOf({ a: [] }), { scheduleType: 'HOURLY' }))).toEqual([
      {
        field: 'scheduleType',
        message: 'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
      },
    ]);
    const both = problems(
      workflow(nodesOf({ a: [] }), {
        scheduleType: 'CRON',
        scheduleConf: 'every day',
        timeZone: 'Mars/Base',
      }),
    );
    expect(both.map((p) => p.field)).toEqual(['timeZone', 'scheduleConf']);
    expect(both[0]!.message).toMatch(/timeZone must be an IANA time zone/);
    expect(both[1]!.message).toMatch(/^scheduleConf/);
    expect(
      problems(workflow(nodesOf({ a: [] }), { scheduleType: 'FIX_RATE', scheduleConf: '0' }))[0]!.field,
    ).toBe('scheduleConf');
    expect(
      problems(workflow(nodesOf({ a: [] }), { scheduleType: 'ONCE', scheduleConf: 'tomorrow' }))[0]!.field,
    ).toBe('scheduleConf');
    expect(problems(workflow(nodesOf({ a: [] }), { scheduleConf: '0 0 2 * * ?' }))).toEqual([
      {
        field: 'scheduleConf',
        message: expect.stringMatching(/^scheduleConf must be empty when scheduleType is NONE/),
      },
    ]);
    expect(problems(workflow(nodesOf({ a: [] }), { scheduleConf: 'x'.repeat(129) }))).toEqual([
      { field: 'scheduleConf', message: 'scheduleConf must be at most 128 characters; got 129' },
    ]);
  });

  it('reads the schedule’s bounds and jitter by the jobs’ rules, every problem at once', () => {
    const every10s = { scheduleType: 'FIX_RATE', scheduleConf: '10' };
    expect(
      ok(
        workflow(nodesOf({ a: [] }), {
          ...every10s,
          startAt: '2030-01-01T00:00:00Z',
          endAt: '2030-02-01T00:00:00+01:00',
          maxRuns: 5,
          jitterSeconds: 3,
        }),
      ),
    ).toMatchObject({
      startAt: Date.UTC(2030, 0, 1),
      endAt: Date.UTC(2030, 0, 31, 23),
      maxRuns: 5,
      jitterSeconds: 3,
    });
    // null (a workflow read and sent back) and a jitter of 0 mean none: nothing is kept.
    const none = ok(
      workflow(nodesOf({ a: [] }), {
        ...every10s,
        startAt: null,
        endAt: null,
        maxRuns: null,
        jitterSeconds: 0,
      }),
    );
    for (const field of ['startAt', 'endAt', 'maxRuns', 'jitterSeconds'])
      expect(none).not.toHaveProperty(field);

    expect(
      problems(
        workflow(nodesOf({ a: [] }), { ...every10s, startAt: 'tomorrow', maxRuns: 0, jitterSeconds: 4000 }),
      ).map((p) => p.field),
    ).toEqual(['startAt', 'maxRuns', 'jitterSeconds']);
    // Taken together once each is well-formed: endAt after startAt, the jitter below the interval.
    expect(
      problems(
        workflow(nodesOf({ a: [] }), {
          ...every10s,
          startAt: '2030-01-02T00:00:00Z',
          endAt: '2030-01-01T00:00:00Z',
          jitterSeconds: 10,
        }),
      ),
    ).toEqual([
      {
        field: 'endAt',
        message: 'endAt (2030-01-01T00:00:00.000Z) must be after startAt (2030-01-02T00:00:00.000Z)',
      },
      {
        field: 'jitterSeconds',
        message: expect.stringMatching(
          /^jitterSeconds must be less than the schedule's smallest interval between fires \(10 s\)/,
        ),
      },
    ]);
  });

  it('checks the overlap policy', () => {
    expect(problems(workflow(nodesOf({ a: [] }), { overlapPolicy: 'QUEUE' }))).toEqual([
      {
        field: 'overlapPolicy',
        message: 'overlapPolicy must be one of SKIP, BUFFER_ONE, ALLOW, CANCEL_PREVIOUS; got "QUEUE"',
      },
    ]);
    for (const overlapPolicy of ['SKIP', 'BUFFER_ONE', 'ALLOW', 'CANCEL_PREVIOUS']) {
      expect(ok(workflow(nodesOf({ a: [] }), { overlapPolicy })).overlapPolicy).toBe(overlapPolicy);
    }
  });

  it('needs 1 to 200 nodes in a list', () => {
    expect(problems({ name: 'n', appName: 'etl-app' })).toEqual([
      { field: 'nodes', message: 'nodes is required: a list of 1-200 nodes' },
    ]);
    expect(problems(workflow([]))).toEqual([
      { field: 'nodes', message: 'nodes must hold at least one node (at most 200)' },
    ]);
    expect(problems({ ...workflow([]), nodes: { a: {} } })[0]!.message).toMatch(
      /nodes must be a list of 1-200 nodes/,
    );
  });

  it('checks node keys', () => {
    const bad = ['', '1st', '_a', 'a b', 'a.b', `k${'x'.repeat(64)}`, 'é'];
    const found = problems(workflow(bad.map((key) => ({ key, jobId: 1 }))));
    expect(found.map((p) => p.field)).toEqual(bad.map((_, i) => `nodes[${i}].key`));
    expect(found[0]!.message).toBe(
      "a node key is 1-64 characters of letters, digits, '_' and '-', starting with a letter; got \"\"",
    );
    expect(problems(workflow([{ jobId: 1 }]))).toEqual([
      { field: 'nodes[0].key', message: 'nodes[0].key is required' },
    ]);
    expect(problems(workflow([{ key: 7, jobId: 1 }]))[0]).toEqual({
      field: 'nodes[0].key',
      message: 'key must be a string; got 7',
    });
  });

  it('needs keys to be unique', () => {
    expect(
      problems(
        workflow([
          { key: 'a', jobId: 1 },
          { key: 'b', jobId: 1 },
          { key: 'a', jobId: 2 },
        ]),
      ),
    ).toEqual([{ field: 'nodes[2].key', message: 'key "a" is used by nodes[0] too; keys must be unique' }]);
  });

  it('checks job ids and nodes that are not objects', () => {
    const found = problems(
      workflow([
        { key: 'a' },
        { key: 'b', jobId: 0 },
        { key: 'c', jobId: 1.5 },
        { key: 'd', jobId: '3' },
        'e',
      ]),
    );
    expect(found).toEqual([
      { field: 'nodes[0].jobId', message: 'nodes[0].jobId is required' },
      { field: 'nodes[1].jobId', message: 'jobId must be a job id (an integer from 1 to 2097151); got 0' },
      { field: 'nodes[2].jobId', message: 'jobId must be a job id (an integer from 1 to 2097151); got 1.5' },
      { field: 'nodes[3].jobId', message: 'jobId must be a job id (an integer from 1 to 2097151); got "3"' },
      {
        field: 'nodes[4]',
        message: 'a node must be an object with key, jobId, executorParam (optional) and upstream; got "e"',
      },
    ]);
  });

  it('checks upstream lists and entries', () => {
    const found = problems(
      workflow([
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 1, upstream: 'a' },
        { key: 'c', jobId: 1, upstream: ['a'] },
        { key: 'd', jobId: 1, upstream: [{ key: 'a', condition: 'ON_SKIP' }] },
        { key: 'e', jobId: 1, upstream: [{ condition: 'ALWAYS' }] },
      ]),
    );
    expect(found).toEqual([
      { field: 'nodes[1].upstream', message: 'upstream must be a list of {key, condition}; got "a"' },
      {
        field: 'nodes[2].upstream[0]',
        message: 'an upstream entry must be an object {key, condition}; got "a"',
      },
      {
        field: 'nodes[3].upstream[0].condition',
        message: 'condition must be one of ON_SUCCESS, ON_FAILURE, ALWAYS; got "ON_SKIP"',
      },
      { field: 'nodes[4].upstream[0].key', message: 'nodes[4].upstream[0].key is required' },
    ]);
  });

  it('needs every upstream key to be another node, listed once', () => {
    const found = problems(
      workflow([
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 1, upstream: [{ key: 'a' }, { key: 'ghost' }, { key: 'a', condition: 'ALWAYS' }] },
      ]),
    );
    expect(found).toEqual([
      { field: 'nodes[1].upstream[1].key', message: 'upstream "ghost" is not a node of this workflow' },
      {
        field: 'nodes[1].upstream[2].key',
        message: 'upstream lists a twice (also upstream[0]); give each upstream node once',
      },
    ]);
  });

  it('refuses a self loop, naming it as a cycle', () => {
    expect(
      problems(
        workflow([
          { key: 'a', jobId: 1 },
          { key: 'b', jobId: 1, upstream: [{ key: 'b' }] },
        ]),
      ),
    ).toEqual([
      { field: 'nodes[1].upstream[0].key', message: 'node b cannot be its own upstream (cycle: b → b)' },
    ]);
  });

  it('names a 3-cycle, at the edge that closes it', () => {
    const found = problems(workflow(nodesOf({ start: [], a: ['start', 'c'], b: ['a'], c: ['b'] })));
    expect(found).toEqual([{ field: 'nodes[1].upstream[1].key', message: 'cycle: a → b → c → a' }]);
  });

  it('names each of two separate cycles, and says when no node can start', () => {
    const found = problems(workflow(nodesOf({ a: ['b'], b: ['a'], c: ['e'], d: ['c'], e: ['d'] })));
    expect(found).toEqual([
      { field: 'nodes[0].upstream[0].key', message: 'cycle: a → b → a' },
      { field: 'nodes[2].upstream[0].key', message: 'cycle: c → d → e → c' },
      {
        field: 'nodes',
        message: 'no node is a root (a node without upstream), so the workflow could never start',
      },
    ]);
  });

  it('names one shortest cycle per strongly connected component', () => {
    // a → b → c → a and a → c → a share a component: one report, the shorter cycle.
    const found = problems(workflow(nodesOf({ r: [], a: ['r', 'c'], b: ['a'], c: ['b', 'a'] })));
    expect(found).toEqual([{ field: 'nodes[1].upstream[1].key', message: 'cycle: a → c → a' }]);
  });

  it('reports every problem at once', () => {
    const found = problems({
      name: '',
      appName: 'x',
      scheduleType: 'CRON',
      scheduleConf: 'nope',
      overlapPolicy: 'NEVER',
      colour: 'blue',
      nodes: [
        { key: 'a', jobId: 1, executorParam: '{{ nodes.b.result }}' },
        { key: 'b', jobId: -1, upstream: [{ key: 'a' }, { key: 'zz' }] },
        { key: 'b', jobId: 2, executorParam: '{{ oops' },
        { key: 'c', jobId: 3, upstream: [{ key: 'c' }] },
      ],
    });
    expect(found.map((p) => p.field)).toEqual([
      'colour',
      'name',
      'appName',
      'scheduleConf',
      'overlapPolicy',
      'nodes[1].jobId',
      'nodes[2].executorParam',
      'nodes[2].key',
      'nodes[1].upstream[1].key',
      'nodes[3].upstream[0].key',
      'nodes[0].executorParam',
    ]);
    expect(found.find((p) => p.field === 'nodes[0].executorParam')!.message).toBe(
      "node a's parameter refers to nodes.b, which is not upstream of a",
    );
  });
});

describe('validateWorkflow: parameter templates', () => {
  const base = (param: string, key = 'd') =>
    workflow([
      { key: 'a', jobId: 1 },
      { key: 'b', jobId: 1, upstream: [{ key: 'a' }] },
      { key: 'x', jobId: 1 },
      { key, jobId: 1, executorParam: param, upstream: [{ key: 'b' }] },
    ]);

  it('allows input and the results of ancestors, direct or not', () => {
    ok(base('{{ input }} {{ input.date }} {{ nodes.b.result.rows[0] }} {{ nodes.a.result }}'));
  });

  it('refuses results of nodes that are not upstream, or not nodes, or the node itself', () => {
    expect(problems(base('{{ nodes.x.result }}'))).toEqual([
      {
        field: 'nodes[3].executorParam',
        message: "node d's parameter refers to nodes.x, which is not upstream of d",
      },
    ]);
    expect(problems(base('{{ nodes.ghost.result }}'))[0]!.message).toBe(
      "node d's parameter refers to nodes.ghost, which is not a node of this workflow",
    );
    expect(problems(base('{{ nodes.d.result }}'))[0]!.message).toBe(
      "node d's parameter refers to nodes.d, its own result, which it cannot have yet",
    );
    // A downstream node is not upstream either.
    const later = workflow([
      { key: 'a', jobId: 1, executorParam: '{{ nodes.b.result }}' },
      { key: 'b', jobId: 1, upstream: [{ key: 'a' }] },
    ]);
    expect(problems(later)[0]!.message).toBe(
      "node a's parameter refers to nodes.b, which is not upstream of a",
    );
  });

  it('refuses other roots and node fields other than result', () => {
    expect(problems(base('{{ env.HOME }}'))[0]!.message).toBe(
      "node d's parameter refers to env; a parameter can refer only to input… and nodes.<key>.result…",
    );
    expect(problems(base('{{ constructor.constructor }}'))[0]!.message).toMatch(
      /refers to constructor; a parameter/,
    );
    expect(problems(base('{{ nodes.b.status }}'))[0]!.message).toBe(
      "node d's parameter refers to nodes.b without .result; a node offers only its result: nodes.b.result",
    );
    expect(problems(base('{{ nodes.b }}'))[0]!.message).toMatch(
      /refers to nodes.b; a node offers only its result/,
    );
    expect(problems(base('{{ nodes }}'))[0]!.message).toMatch(/without naming a node/);
  });

  it('reports each distinct reference problem once, and template syntax errors with their position', () => {
    expect(problems(base('{{ nodes.x.result }} {{ nodes.x.result.y }}'))).toHaveLength(1);
    expect(problems(base('ok {{ input.a '))).toEqual([
      {
        field: 'nodes[3].executorParam',
        message:
          "executorParam: at character 4: {{ is not closed by }} (to write {{ as text, write {{ '{{' }})",
      },
    ]);
    expect(problems(base(`${'x'.repeat(64 * 1024 + 1)}`))[0]!.message).toMatch(/at most 65536 \(64 KiB\)/);
    expect(problems(workflow([{ key: 'a', jobId: 1, executorParam: 7 }]))[0]).toEqual({
      field: 'nodes[0].executorParam',
      message: 'executorParam must be a string (a template); got 7',
    });
  });
});

describe('validateWorkflow: nodes that can never run', () => {
  it('refuses a node that needs one node both to succeed and to fail', () => {
    const found = problems(
      workflow([
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 1, upstream: [{ key: 'a', condition: 'ON_FAILURE' }] },
        { key: 'c', jobId: 1, upstream: [{ key: 'a' }] },
        { key: 'd', jobId: 1, upstream: [{ key: 'c' }, { key: 'b' }] },
      ]),
    );
    expect(found).toEqual([
      {
        field: 'nodes[3]',
        message: 'node d can never run: it needs a to succeed (a → c → d) and to fail (a → b → d)',
      },
    ]);
  });

  it('says so once, at the first such node, and names it for the nodes after it', () => {
    const found = problems(
      workflow([
        { key: 'a', jobId: 1 },
        { key: 'fix', jobId: 1, upstream: [{ key: 'a', condition: 'ON_FAILURE' }] },
        { key: 'join', jobId: 1, upstream: [{ key: 'a' }, { key: 'fix' }] },
        { key: 'after', jobId: 1, upstream: [{ key: 'join', condition: 'ON_FAILURE' }] },
        { key: 'cleanup', jobId: 1, upstream: [{ key: 'join', condition: 'ALWAYS' }] },
      ]),
    );
    expect(found).toEqual([
      {
        field: 'nodes[2]',
        message: 'node join can never run: it needs a to succeed (a → join) and to fail (a → fix → join)',
      },
      {
        field: 'nodes[3]',
        message: 'node after can never run: it needs join to fail (join → after), and join can never run',
      },
    ]);
  });

  it('takes branches that join through ALWAYS, and failure handlers', () => {
    ok(
      workflow([
        { key: 'a', jobId: 1 },
        { key: 'ok', jobId: 1, upstream: [{ key: 'a' }] },
        { key: 'handle', jobId: 1, upstream: [{ key: 'a', condition: 'ON_FAILURE' }] },
        {
          key: 'report',
          jobId: 1,
          upstream: [
            { key: 'ok', condition: 'ALWAYS' },
            { key: 'handle', condition: 'ALWAYS' },
          ],
        },
        { key: 'fail-of-handler', jobId: 1, upstream: [{ key: 'handle', condition: 'ON_FAILURE' }] },
      ]),
    );
  });
});

describe('parseWorkflow', () => {
  it('answers the definition, or throws one ValidationError listing every problem', () => {
    expect(parseWorkflow(workflow(nodesOf({ a: [] }))).nodes).toHaveLength(1);
    let thrown: unknown;
    try {
      parseWorkflow({ name: 'n', nodes: [] });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).field).toBe('appName');
    expect((thrown as ValidationError).message).toBe(
      'appName: appName is required; nodes: nodes must hold at least one node (at most 200)',
    );
  });
});
