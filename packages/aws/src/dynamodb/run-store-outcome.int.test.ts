import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { firstPlannedLogId, jobIdOfLogId, OUTCOME_GRACE_MS, type Run } from '@tickring/core/runs';
import { makeRun } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRunStore } from './runs/run-store.js';

const JOB_ID = 7;

// The outcome-pending behaviour is pinned by the RunStore contract suite; these tests keep the
// DynamoDB item layout of the mark (the sparse index's `outcomeBucket` and `outcomeDueAt`) and the
// order findOutcomePending answers in.
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

  /**
   * Records a run of a new fire as the dispatcher does: claimed under a new token and written as
   * sent to its executor (triggerCode 200), unless `fields` say otherwise (a run with no executor).
   */
  async function newRun(fields: Partial<Run> = {}): Promise<{ logId: number; token: string }> {
    const [logId] = await store.allocateLogIds(JOB_ID, 1);
    if (logId === undefined) throw new Error('no logId');
    const now = Date.now();
    const token = store.newClaimToken(now);
    const run = makeRun({
      logId,
      jobId: JOB_ID,
      triggerTime: now,
      scheduledTime: now,
      dispatchedAt: now,
      ...fields,
    });
    expect(await store.createFire(`api#${logId}`, [run], token)).toEqual({ created: true });
    return { logId, token };
  }

  async function rawItem(logId: number) {
    const { Item } = await env.clients.doc.send(
      new GetCommand({
        TableName: env.resources.tables.runs,
        Key: { pk: `J#${jobIdOfLogId(logId)}`, sk: logId },
        ConsistentRead: true,
      }),
    );
    return Item;
  }

  /** The logIds findOutcomePending returns at `nowMs` (DynamoDB Local updates its GSIs synchronously). */
  async function pendingIds(nowMs: number): Promise<number[]> {
    return (await store.findOutcomePending(nowMs, 100)).map((r) => r.logId);
  }

  it('complete() marks a sent run, findOutcomePending finds it only once due, clearOutcomePending removes it', async () => {
    const { logId } = await newRun();
    // A run written as sent has no consequences pending yet.
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
    expect(found).not.toHaveProperty('claimToken');

    await store.clearOutcomePending(logId);
    const item = await rawItem(logId);
    expect(item).not.toHaveProperty('outcomeBucket');
    expect(item).not.toHaveProperty('outcomeDueAt');
    expect(item).toMatchObject({ handleCode: 500 });
    expect(await pendingIds(handleTime + OUTCOME_GRACE_MS + 1)).not.toContain(logId);
  });

  it('complete() without the mark (a plain success) leaves nothing for findOutcomePending', async () => {
    const { logId } = await newRun();
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
    expect(await pendingIds(handleTime + OUTCOME_GRACE_MS + 1)).not.toContain(logId);
    // The result is stored all the same: a repeat is still refused, and leaves the run unmarked.
    expect(await store.complete(logId, { handleCode: 500, handleMsg: 'late', handleTime })).toMatchObject({
      kind: 'already-finished',
      run: { handleCode: 200 },
    });
    expect(await rawItem(logId)).not.toHaveProperty('outcomeBucket');
  });

  it('a refusal recorded under the claim token marks the run in the same write, due a grace after it', async () => {
    const { logId, token } = await newRun();
    const dispatchedAt = Date.now();
    const refusal = refusalAt(dispatchedAt);
    expect(await store.recordRefusal(logId, token, refusal)).toBe(true);
    expect(await rawItem(logId)).toMatchObject({
      triggerCode: 500,
      handleCode: 0,
      outcomeBucket: 'PENDING',
      outcomeDueAt: dispatchedAt + OUTCOME_GRACE_MS,
    });
    expect(await pendingIds(dispatchedAt + OUTCOME_GRACE_MS - 1)).not.toContain(logId);
    expect(await pendingIds(dispatchedAt + OUTCOME_GRACE_MS + 1)).toContain(logId);
  });

  it('a refusal that is not recorded (another token, or the run has its result) marks nothing', async () => {
    const { logId, token } = await newRun();
    const dispatchedAt = Date.now();
    const refusal = refusalAt(dispatchedAt);
    expect(await store.recordRefusal(logId, store.newClaimToken(dispatchedAt + 1), refusal)).toBe(false);
    expect(await rawItem(logId)).not.toHaveProperty('outcomeBucket');

    await store.complete(
      logId,
      { handleCode: 200, handleMsg: '', handleTime: dispatchedAt },
      { markOutcomePending: false },
    );
    expect(await store.recordRefusal(logId, token, refusal)).toBe(false);
    const item = await rawItem(logId);
    expect(item).toMatchObject({ triggerCode: 200, handleCode: 200 });
    expect(item).not.toHaveProperty('outcomeBucket');
    expect(await pendingIds(dispatchedAt + OUTCOME_GRACE_MS + 1)).not.toContain(logId);
  });

  it('a run recorded as refused (no executor) is marked when written, by a fire or by a planned claim', async () => {
    const dispatchedAt = Date.now();
    const refused = { executorAddress: '', triggerCode: 500, triggerMsg: 'no executor online', dispatchedAt };
    const { logId } = await newRun(refused);

    const planned = makeRun({
      logId: firstPlannedLogId(JOB_ID) + 3,
      jobId: JOB_ID,
      triggerType: 'CRON',
      triggerTime: dispatchedAt,
      scheduledTime: dispatchedAt,
      ...refused,
    });
    expect(await store.claim(planned, store.newClaimToken(dispatchedAt))).toEqual({ created: true });

    for (const id of [logId, planned.logId]) {
      expect(await rawItem(id)).toMatchObject({
        triggerCode: 500,
        outcomeBucket: 'PENDING',
        outcomeDueAt: dispatchedAt + OUTCOME_GRACE_MS,
      });
    }
    const early = await pendingIds(dispatchedAt + OUTCOME_GRACE_MS - 1);
    expect(early).not.toContain(logId);
    expect(early).not.toContain(planned.logId);
    const due = await store.findOutcomePending(dispatchedAt + OUTCOME_GRACE_MS + 1, 100);
    expect(due.map((r) => r.logId)).toEqual(expect.arrayContaining([logId, planned.logId]));
    expect(due.find((r) => r.logId === planned.logId)).toEqual(planned);
  });

  it('findOutcomePending answers the earliest due first, at most `limit`, only runs still marked', async () => {
    // Results long ago: due before anything else in the table.
    const longAgo = 1_600_000_000_000;
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const { logId } = await newRun();
      await store.complete(logId, { handleCode: 500, handleMsg: 'x', handleTime: longAgo + i * 1_000 });
      runs.push(logId);
    }
    const [first, second, third] = runs;
    const now = longAgo + OUTCOME_GRACE_MS + 10_000;
    expect((await store.findOutcomePending(now, 2)).map((r) => r.logId)).toEqual([first, second]);
    if (first !== undefined) await store.clearOutcomePending(first);
    expect((await store.findOutcomePending(now, 2)).map((r) => r.logId)).toEqual([second, third]);
    // Due before `now` only (a strict bound): the third's mark is due at longAgo + 2 s + grace.
    expect(await pendingIds(longAgo + 2_000 + OUTCOME_GRACE_MS)).toEqual([second]);
  });

  it('setting the alarm status leaves the mark as it is', async () => {
    const { logId } = await newRun();
    const handleTime = Date.now();
    await store.complete(logId, { handleCode: 500, handleMsg: 'boom', handleTime });
    await store.setAlarmStatus(logId, 2);
    expect(await rawItem(logId)).toMatchObject({
      alarmStatus: 2,
      outcomeBucket: 'PENDING',
      outcomeDueAt: handleTime + OUTCOME_GRACE_MS,
    });
  });
});

/** An executor's refusal, as the dispatcher records it. */
function refusalAt(dispatchedAt: number) {
  return { executorAddress: 'http://127.0.0.1:9999/', triggerCode: 500, triggerMsg: 'busy', dispatchedAt };
}
