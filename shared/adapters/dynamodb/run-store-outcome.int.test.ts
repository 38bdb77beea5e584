import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRun } from '../../../test/outcome-fakes.js';
import { isolatedResources, type TestResources } from '../../../test/stand-ins.js';
import { OUTCOME_GRACE_MS } from '../../ports/run-store.js';
import { DynamoRunStore } from './run-store.js';

describe('DynamoRunStore outcome-pending mark (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoRunStore;

  beforeAll(async () => {
    env = await isolatedResources('outcome');
    store = new DynamoRunStore({
      doc: env.clients.doc,
      runsTable: env.resources.tables.runs,
      controlTable: env.resources.tables.control,
      retentionDays: 30,
    });
  });
  afterAll(() => env?.close());

  async function newRun(): Promise<number> {
    const [logId] = await store.allocateLogIds(1);
    if (logId === undefined) throw new Error('no logId');
    const now = Date.now();
    await store.createFire(`api#${logId}`, [
      makeRun({ logId, triggerCode: 0, triggerTime: now, scheduledTime: now, dispatchedAt: 0 }),
    ]);
    return logId;
  }

  async function rawItem(logId: number) {
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.runs, Key: { logId }, ConsistentRead: true }),
    );
    return Item;
  }

  /** The logIds findOutcomePending returns at `nowMs` (DynamoDB Local updates its GSIs synchronously). */
  async function pendingIds(nowMs: number): Promise<number[]> {
    return (await store.findOutcomePending(nowMs, 100)).map((r) => r.logId);
  }

  it('complete() marks the run, findOutcomePending finds it only once due, clearOutcomePending removes it', async () => {
    const logId = await newRun();
    await store.recordTrigger(logId, {
      executorAddress: 'http://127.0.0.1:9999/',
      triggerCode: 200,
      triggerMsg: 'ok',
      dispatchedAt: Date.now(),
      deadline: Date.now() + 60_000,
    });
    expect(await rawItem(logId)).not.toHaveProperty('outcomeBucket');

    const handleTime = Date.now();
    const outcome = await store.complete(logId, { handleCode: 500, handleMsg: 'boom', handleTime });
    expect(outcome.kind).toBe('completed');
    if (outcome.kind === 'completed') expect(outcome.run).not.toHaveProperty('outcomeBucket');
    expect(await rawItem(logId)).toMatchObject({
      outcomeBucket: 'PENDING',
      outcomeDueAt: handleTime + OUTCOME_GRACE_MS,
    });
    expect(await store.get(logId)).not.toHaveProperty('outcomeDueAt');

    expect(await pendingIds(handleTime + OUTCOME_GRACE_MS - 1)).not.toContain(logId);
    const due = await store.findOutcomePending(handleTime + OUTCOME_GRACE_MS + 1, 100);
    const found = due.find((r) => r.logId === logId);
    expect(found).toMatchObject({ logId, handleCode: 500, handleMsg: 'boom', handleTime });
    expect(found).not.toHaveProperty('outcomeBucket');

    await store.clearOutcomePending(logId);
    const item = await rawItem(logId);
    expect(item).not.toHaveProperty('outcomeBucket');
    expect(item).not.toHaveProperty('outcomeDueAt');
    expect(item).toMatchObject({ handleCode: 500 });
    expect(await pendingIds(handleTime + OUTCOME_GRACE_MS + 1)).not.toContain(logId);
  });

  it('complete() without the mark (a plain success) leaves nothing for findOutcomePending', async () => {
    const logId = await newRun();
    await store.recordTrigger(logId, {
      executorAddress: 'http://127.0.0.1:9999/',
      triggerCode: 200,
      triggerMsg: 'ok',
      dispatchedAt: Date.now(),
      deadline: Date.now() + 60_000,
    });
    const handleTime = Date.now();
    const outcome = await store.complete(
      logId,
      { handleCode: 200, handleMsg: 'done', handleTime },
      { markOutcomePending: false },
    );
    expect(outcome).toMatchObject({ kind: 'completed', run: { logId, handleCode: 200, handleMsg: 'done' } });
    const item = await rawItem(logId);
    expect(item).toMatchObject({ handleCode: 200, handleTime });
    expect(item).not.toHaveProperty('outcomeBucket');
    expect(item).not.toHaveProperty('outcomeDueAt');
    expect(item).not.toHaveProperty('runningBucket');
    expect(await pendingIds(handleTime + OUTCOME_GRACE_MS + 1)).not.toContain(logId);
    // The result is stored all the same: a repeat is still refused.
    expect(await store.complete(logId, { handleCode: 500, handleMsg: 'late', handleTime })).toMatchObject({
      kind: 'already-finished',
    });
  });

  it('a refused trigger marks the run in the same write', async () => {
    const logId = await newRun();
    const dispatchedAt = Date.now();
    expect(
      await store.recordTrigger(logId, {
        executorAddress: '',
        triggerCode: 500,
        triggerMsg: 'no executor',
        dispatchedAt,
      }),
    ).toBe(true);
    expect(await rawItem(logId)).toMatchObject({
      triggerCode: 500,
      outcomeBucket: 'PENDING',
      outcomeDueAt: dispatchedAt + OUTCOME_GRACE_MS,
    });
    expect(await pendingIds(dispatchedAt + OUTCOME_GRACE_MS + 1)).toContain(logId);
  });

  it('clearing the mark of an unknown run creates nothing', async () => {
    await store.clearOutcomePending(987_654_321);
    expect(await rawItem(987_654_321)).toBeUndefined();
  });
});
