import type { Workflow } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import {
  deadlineInputsOf,
  definitionOf,
  definitionText,
  exampleDefinition,
  nodeCountsText,
  parseDefinition,
  parseInput,
  previewNodes,
  problemLines,
  resultText,
  runDurationMs,
  runEnded,
  triggerText,
  withDeadline,
} from './definition';

const WORKFLOW: Workflow = {
  id: 3,
  version: 2,
  name: 'Nightly ETL',
  appName: 'my-app',
  scheduleType: 'CRON',
  scheduleConf: '0 0 2 * * ?',
  timeZone: 'Europe/Berlin',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: '2030-12-31T00:00:00.000Z',
  maxRuns: 10,
  jitterSeconds: 0,
  calendars: { only: ['cn-workdays'], exclude: [] },
  overlapPolicy: 'SKIP',
  nodes: [
    { key: 'extract', jobId: 7, executorParam: '{{ input.date }}', upstream: [] },
    { key: 'load', jobId: 8, upstream: [{ key: 'extract' }] },
  ],
  triggerStatus: 'RUNNING',
  starterJobId: 12,
  triggerNextTime: '2030-01-02T01:00:00.000Z',
  runsRemaining: 4,
  scheduleEnded: null,
  deadline: { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' },
  deadlineStatus: null,
  activeRuns: 0,
  bufferedRunId: null,
  createdAt: '2030-01-01T02:00:00.000Z',
  updatedAt: '2030-01-01T02:00:00.000Z',
};

describe('the definition as text', () => {
  it('keeps the definition fields of a workflow, read-only ones left out, conditions spelled out', () => {
    const definition = definitionOf(WORKFLOW);
    expect(Object.keys(definition)).toEqual([
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
    ]);
    // The bounds and calendars go back as read: a PUT of the text keeps them (null: none).
    expect(definition).toMatchObject({ startAt: null, endAt: '2030-12-31T00:00:00.000Z', maxRuns: 10 });
    expect(definition.calendars).toEqual({ only: ['cn-workdays'], exclude: [] });
    expect(definition.nodes).toEqual([
      { key: 'extract', jobId: 7, executorParam: '{{ input.date }}', upstream: [] },
      { key: 'load', jobId: 8, upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }] },
    ]);
    const text = definitionText(definition);
    expect(parseDefinition(text)).toEqual({ ok: true, value: definition });
  });

  it('edits the deadline in the text through its fields: set before the nodes, cleared with an empty time', () => {
    const text = definitionText(definitionOf(WORKFLOW));
    expect(deadlineInputsOf(text)).toEqual({
      deadlineTime: '06:00',
      deadlineZone: 'Europe/Berlin',
      deadlineDays: 'weekdays',
    });
    const daily = withDeadline(text, { deadlineTime: '07:30', deadlineZone: 'UTC', deadlineDays: 'daily' });
    const parsed = JSON.parse(daily);
    expect(parsed.deadline).toEqual({ time: '07:30', timeZone: 'UTC' });
    expect(Object.keys(parsed).slice(-2)).toEqual(['deadline', 'nodes']);
    expect(parsed.nodes).toEqual(definitionOf(WORKFLOW).nodes);
    const none = withDeadline(daily, { deadlineTime: ' ', deadlineZone: 'UTC', deadlineDays: 'daily' });
    expect(JSON.parse(none).deadline).toBeNull();
    // No deadline: an empty time in the definition's zone; text that is no object has no fields.
    expect(deadlineInputsOf(none)).toEqual({
      deadlineTime: '',
      deadlineZone: 'Europe/Berlin',
      deadlineDays: 'daily',
    });
    expect(deadlineInputsOf('[1, 2]')).toBeUndefined();
    expect(
      withDeadline('{"name": ', { deadlineTime: '06:00', deadlineZone: 'UTC', deadlineDays: 'daily' }),
    ).toBe('{"name": ');
  });

  it('refuses text that is not a JSON object, saying why', () => {
    const broken = parseDefinition('{"name": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/^Not JSON: /);
    const list = parseDefinition('[1, 2]');
    expect(!list.ok && list.message).toMatch(/must be a JSON object/);
  });

  it('prefills an example with the group’s first jobs, or placeholders when it has none', () => {
    const example = exampleDefinition({ appName: 'billing', jobIds: [41, 42], timeZone: 'UTC' });
    expect(example.appName).toBe('billing');
    expect(example.nodes.map((n) => [n.key, n.jobId])).toEqual([
      ['extract', 41],
      ['load', 42],
      ['cleanup', 41],
    ]);
    expect(example.nodes[2]?.upstream).toEqual([{ key: 'load', condition: 'ALWAYS' }]);
    expect(
      exampleDefinition({ appName: 'x', jobIds: [], timeZone: 'UTC' }).nodes.map((n) => n.jobId),
    ).toEqual([1, 2, 3]);
  });

  it('draws what a definition being typed has of a graph', () => {
    expect(previewNodes('{')).toBeUndefined();
    expect(previewNodes('{"nodes": []}')).toBeUndefined();
    expect(
      previewNodes(
        JSON.stringify({
          nodes: [
            { key: 'a', jobId: 1 },
            { jobId: 2 },
            { key: 'b', upstream: [{ key: 'a', condition: 'ALWAYS' }, 3] },
          ],
        }),
      ),
    ).toEqual([
      { key: 'a', jobId: 1, upstream: [] },
      { key: 'b', upstream: [{ key: 'a', condition: 'ALWAYS' }] },
    ]);
  });

  it('lists the server’s problems, one line each with its field', () => {
    expect(
      problemLines({
        message: 'invalid workflow',
        problems: [
          { field: 'nodes[5].jobId', message: 'node e: job 999999 does not exist' },
          { field: 'nodes', message: 'nodes: cycle: a → b → a' },
          { message: 'something general' },
        ],
      }),
    ).toEqual([
      'nodes[5].jobId: node e: job 999999 does not exist',
      'nodes: cycle: a → b → a',
      'something general',
    ]);
    expect(problemLines({ message: 'version is stale', problems: [] })).toEqual(['version is stale']);
  });
});

describe('runs', () => {
  it('reads a trigger input: nothing, or any JSON', () => {
    expect(parseInput('  ')).toEqual({ ok: true, value: undefined });
    expect(parseInput('{"date": "2030-01-01"}')).toEqual({ ok: true, value: { date: '2030-01-01' } });
    expect(parseInput('{date}').ok).toBe(false);
  });

  it('shows a JSON result indented, other results as they are', () => {
    expect(resultText({ result: '{"rows":3}', resultJson: { rows: 3 } })).toBe('{\n  "rows": 3\n}');
    expect(resultText({ result: 'done', resultJson: null })).toBe('done');
    expect(resultText({ result: '42', resultJson: 42 })).toBe('42');
    expect(resultText({ result: null, resultJson: null })).toBeUndefined();
  });

  it('says whether a run ended, how long it took, its nodes and its trigger in words', () => {
    expect(['QUEUED', 'RUNNING'].map(runEnded)).toEqual([false, false]);
    expect(['SUCCEEDED', 'FAILED', 'CANCELLED'].map(runEnded)).toEqual([true, true, true]);
    expect(runDurationMs({ startedAt: null, finishedAt: null })).toBeUndefined();
    expect(
      runDurationMs({ startedAt: '2030-01-01T00:00:00.000Z', finishedAt: '2030-01-01T00:00:02.500Z' }),
    ).toBe(2500);
    expect(
      runDurationMs(
        { startedAt: '2030-01-01T00:00:00.000Z', finishedAt: null },
        Date.parse('2030-01-01T00:01:00Z'),
      ),
    ).toBe(60_000);
    expect(
      nodeCountsText({ PENDING: 1, RUNNING: 0, SUCCEEDED: 3, FAILED: 0, SKIPPED: 0, CANCELLED: 0 }),
    ).toBe('1 pending, 3 succeeded');
    expect(
      nodeCountsText({ PENDING: 0, RUNNING: 0, SUCCEEDED: 0, FAILED: 0, SKIPPED: 0, CANCELLED: 0 }),
    ).toBe('no nodes yet');
    expect(triggerText({ type: 'MANUAL', starterLogId: null, scheduledTime: null, by: 'ana' })).toBe(
      'manual, by ana',
    );
    expect(triggerText({ type: 'SCHEDULE', starterLogId: 5, scheduledTime: null, by: null })).toBe(
      'schedule',
    );
  });
});
