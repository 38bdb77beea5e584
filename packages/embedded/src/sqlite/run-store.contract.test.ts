import type { Run } from '@tickring/core/runs';
import { makeRun, runStoreContract } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { SqliteRunStore } from './runs/run-store.js';
import { tempDatabases } from './temp-databases.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const databases = tempDatabases('run-store');
let files = 0;

// A file per store; each peer opens the file again, as another function instance would.
runStoreContract('SQLite', async () => {
  const file = `runs-${++files}.db`;
  const open = () => new SqliteRunStore({ database: databases.open(file), retentionDays: 30 });
  return { store: open(), peer: open };
});

describe('SqliteRunStore: expiry after TICKRING_LOG_RETENTION_DAYS', () => {
  const ids = (runs: readonly Run[]) => runs.map((r) => r.logId);

  it('lists expired runs no more at once; a lost-run sweep deletes them with their fire, records and catch-up mark', async () => {
    const now = Date.now();
    const store = new SqliteRunStore({ database: databases.fresh(), retentionDays: 1, now: () => now });
    const seed = async (jobId: number, triggerTime: number) => {
      const [logId = 0] = await store.allocateLogIds(jobId, 1);
      const run = makeRun({
        logId,
        jobId,
        appName: 'expiry',
        dedupKey: `expiry#${jobId}`,
        triggerTime,
        scheduledTime: triggerTime,
        dispatchedAt: triggerTime,
      });
      const token = store.newClaimToken(triggerTime);
      expect(await store.createFire(run.dedupKey, [run], token)).toEqual({ created: true });
      await store.recordDispatch(token, [{ logId, appName: 'expiry', deadline: triggerTime + 600_000 }]);
      return { run, token };
    };
    const old = await seed(700, now - 3 * DAY_MS);
    const kept = await seed(701, now - HOUR_MS);
    const missed = now - 3 * DAY_MS;
    expect(await store.takeCatchUp(702, { missedTime: missed, nowMs: missed + 1, fireKey: '702#a' })).toBe(
      true,
    );
    const window = { from: now - 5 * DAY_MS, to: now };

    // Expired but not deleted yet (DynamoDB's TTL lags too): read by logId, but no list shows it.
    expect(await store.get(old.run.logId)).toEqual(old.run);
    expect(ids((await store.list({ appName: 'expiry', ...window, limit: 10 })).items)).toEqual([
      kept.run.logId,
    ]);
    expect((await store.list({ jobId: 700, ...window, limit: 10 })).items).toEqual([]);

    await store.findUnfinished(now, { limit: 10, settleMs: 60_000 });
    expect(await store.get(old.run.logId)).toBeUndefined();
    expect(await store.dispatchedUnder(old.token)).toEqual(new Set());
    // The fire is forgotten: its dedupKey records a new fire.
    const [again = 0] = await store.allocateLogIds(700, 1);
    const retry = makeRun({
      ...old.run,
      logId: again,
      triggerTime: now,
      scheduledTime: now,
      dispatchedAt: now,
    });
    expect(await store.createFire(old.run.dedupKey, [retry], store.newClaimToken(now))).toEqual({
      created: true,
    });
    // The catch-up mark is gone: a fire missed before it takes a new one.
    expect(await store.takeCatchUp(702, { missedTime: missed, nowMs: now, fireKey: '702#b' })).toBe(true);
    // What has not expired is left.
    expect(await store.get(kept.run.logId)).toEqual(kept.run);
    expect(await store.dispatchedUnder(kept.token)).toEqual(new Set([kept.run.logId]));
  });
});
