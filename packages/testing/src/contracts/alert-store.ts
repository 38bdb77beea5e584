/**
 * What the alert use-cases rely on from an AlertStore, run over each adapter: in memory
 * (packages/testing/src/memory/alert-store.contract.test.ts) and on SQLite
 * (packages/embedded/src/sqlite/alert-store.contract.test.ts). Each test gets a fresh, empty store.
 */

import type { Alert, AlertChannel, AlertSilence, AlertStore } from '@tickring/core/alerts';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { allPages, PAGE_SIZES, refusal } from './pages.js';

const T0 = 1_900_000_000_000;

export function testAlertChannel(fields: Partial<AlertChannel> = {}): AlertChannel {
  return {
    id: 'ch-ops',
    name: 'ops hook',
    kind: 'webhook',
    url: 'https://hooks.example.com/tickring',
    bodyTemplate: '{"t":"{{ text }}"}',
    secretSealed: 'v1.iv.tag.body',
    revision: 1,
    createdAt: T0,
    createdBy: 'ana',
    updatedAt: T0,
    ...fields,
  };
}

export function testAlert(fields: Partial<Alert> = {}): Alert {
  const jobId = fields.jobId ?? 7;
  const firstAt = fields.firstAt ?? T0;
  return {
    id: `${jobId}#runFailed#${firstAt}`,
    jobId,
    jobName: 'nightly',
    appName: 'orders',
    kind: 'runFailed',
    windowStart: firstAt,
    windowEnd: firstAt + 600_000,
    firstAt,
    lastAt: firstAt,
    count: 1,
    summary: 'job 7 failed',
    logId: 7 * 2 ** 32 + 1,
    state: 'sent',
    channelIds: ['ch-ops'],
    deliveries: [
      {
        channelId: 'ch-ops',
        message: 'first',
        count: 1,
        state: 'pending',
        attempts: [],
        nextAttemptAt: firstAt,
      },
    ],
    summaryQueued: false,
    dueAt: firstAt,
    revision: 1,
    ...fields,
  };
}

export function alertStoreContract(name: string, makeStore: () => Promise<AlertStore>): void {
  describe(`AlertStore contract (${name})`, () => {
    it('creates a channel once, reads it back whole, lists by id and deletes it', async () => {
      const store = await makeStore();
      await store.createChannel(testAlertChannel({ id: 'b' }));
      await store.createChannel(testAlertChannel({ id: 'a', kind: 'slack', bodyTemplate: undefined }));
      expect(await refusal(store.createChannel(testAlertChannel({ id: 'a' })))).toBeInstanceOf(ConflictError);
      expect(await store.getChannel('b')).toEqual(testAlertChannel({ id: 'b' }));
      expect((await store.listChannels()).map((c) => c.id)).toEqual(['a', 'b']);
      await store.deleteChannel('a');
      expect(await store.getChannel('a')).toBeUndefined();
      expect(await refusal(store.deleteChannel('a'))).toBeInstanceOf(NotFoundError);
    });

    it('updates a channel only at the revision it was read at', async () => {
      const store = await makeStore();
      await store.createChannel(testAlertChannel());
      await store.updateChannel(testAlertChannel({ name: 'renamed', revision: 2 }), 1);
      expect(await refusal(store.updateChannel(testAlertChannel({ revision: 2 }), 1))).toBeInstanceOf(
        ConflictError,
      );
      expect((await store.getChannel('ch-ops'))?.name).toBe('renamed');
      expect(
        await refusal(store.updateChannel(testAlertChannel({ id: 'gone', revision: 2 }), 1)),
      ).toBeInstanceOf(NotFoundError);
    });

    it('keeps silences until they are deleted', async () => {
      const store = await makeStore();
      const silence: AlertSilence = {
        id: 's1',
        jobId: 7,
        kind: 'runFailed',
        from: T0,
        to: T0 + 3_600_000,
        reason: 'maintenance',
        createdBy: 'ana',
        createdAt: T0,
      };
      await store.createSilence(silence);
      expect(await refusal(store.createSilence(silence))).toBeInstanceOf(ConflictError);
      expect(await store.listSilences()).toEqual([silence]);
      await store.deleteSilence('s1');
      expect(await store.listSilences()).toEqual([]);
      expect(await refusal(store.deleteSilence('s1'))).toBeInstanceOf(NotFoundError);
    });

    it('creates an alert once per id and changes it only at the revision it was read at', async () => {
      const store = await makeStore();
      await store.createAlert(testAlert());
      expect(await refusal(store.createAlert(testAlert()))).toBeInstanceOf(ConflictError);
      const counted = testAlert({ count: 2, revision: 2 });
      await store.updateAlert(counted, 1);
      expect(await refusal(store.updateAlert(testAlert({ count: 3, revision: 2 }), 1))).toBeInstanceOf(
        ConflictError,
      );
      expect(await store.getAlert(counted.id)).toEqual(counted);
    });

    it('lists the alerts due before a time, earliest first, and forgets one whose dueAt is gone', async () => {
      const store = await makeStore();
      await store.createAlert(testAlert({ jobId: 1, dueAt: T0 + 30 }));
      await store.createAlert(testAlert({ jobId: 2, dueAt: T0 + 10 }));
      await store.createAlert(testAlert({ jobId: 3, dueAt: T0 + 99 }));
      const { dueAt: _d, ...done } = testAlert({ jobId: 4, revision: 2 });
      await store.createAlert(testAlert({ jobId: 4 }));
      await store.updateAlert(done, 1);
      expect((await store.listDueAlerts(T0 + 50, 10)).map((a) => a.jobId)).toEqual([2, 1]);
      expect((await store.listDueAlerts(T0 + 50, 1)).map((a) => a.jobId)).toEqual([2]);
    });

    it('pages the history newest first, filtered by job, kind and time, at every page size', async () => {
      const store = await makeStore();
      for (let i = 0; i < 5; i++) {
        await store.createAlert(testAlert({ jobId: 7, firstAt: T0 + i * 1000 }));
        await store.createAlert(testAlert({ jobId: 8, firstAt: T0 + i * 1000 }));
      }
      await store.createAlert(testAlert({ jobId: 7, firstAt: T0 + 2000, kind: 'deadlineMissed', id: 'dl' }));
      for (const limit of PAGE_SIZES) {
        const pages = await allPages(limit, (cursor) =>
          store.listAlerts({ jobId: 7, kind: 'runFailed', from: T0 + 1000, to: T0 + 4000, limit, cursor }),
        );
        expect(pages.flatMap((p) => p.items).map((a) => a.firstAt - T0)).toEqual([3000, 2000, 1000]);
      }
      const all = await allPages(2, (cursor) => store.listAlerts({ limit: 2, cursor }));
      expect(all.flatMap((p) => p.items)).toHaveLength(11);
    });

    it('filters the history by state, alone and with a job, at every page size', async () => {
      const store = await makeStore();
      const states = ['sent', 'silenced', 'sent', 'unrouted', 'silenced', 'sent', 'silenced'] as const;
      for (const [i, state] of states.entries()) {
        await store.createAlert(testAlert({ jobId: 7 + (i % 2), firstAt: T0 + i * 1000, state }));
      }
      const walk = async (limit: number, filter: { state: Alert['state']; jobId?: number }) =>
        (await allPages(limit, (cursor) => store.listAlerts({ ...filter, limit, cursor })))
          .flatMap((p) => p.items)
          .map((a) => (a.firstAt - T0) / 1000);
      for (const limit of PAGE_SIZES) {
        expect(await walk(limit, { state: 'silenced' })).toEqual([6, 4, 1]);
        expect(await walk(limit, { state: 'sent' })).toEqual([5, 2, 0]);
        expect(await walk(limit, { state: 'unrouted' })).toEqual([3]);
        expect(await walk(limit, { state: 'silenced', jobId: 7 })).toEqual([6, 4]);
      }
      // The page is filled past the newer alerts the filter leaves out, not answered empty.
      const first = await store.listAlerts({ state: 'unrouted', limit: 1 });
      expect(first.items.map((a) => a.firstAt - T0)).toEqual([3000]);
    });

    it("keeps a workflow alert's workflow", async () => {
      const store = await makeStore();
      const alert = testAlert({ workflow: { id: 3, name: 'etl', runId: 'wr-m5x8k2a1-3f9c1d2e6b8a' } });
      await store.createAlert(alert);
      expect(await store.getAlert(alert.id)).toEqual(alert);
      expect((await store.listAlerts({ limit: 10 })).items).toEqual([alert]);
    });
  });
}
