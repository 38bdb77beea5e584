/**
 * The WorkflowStore contract: every behaviour the workflow use-cases (the engine, the admin
 * use-cases, the dispatcher's and the monitors' hooks) rely on, written once against the port and
 * run over each adapter: in memory (unit, packages/testing/src/memory/workflow-store.contract.test.ts)
 * and on DynamoDB Local (integration, packages/aws/src/dynamodb/workflow-store.contract.int.test.ts).
 * An adapter ships only when it passes it. `newStore` gives a fresh, empty store for each test.
 *
 * Lists may answer a last page that is empty (a cursor at the very end), and runs created in the same
 * millisecond in any order: the suite checks only what the port promises.
 */

import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import type {
  StoredRunStatus,
  WorkflowRecord,
  WorkflowRunRecord,
  WorkflowStore,
} from '@tickring/core/workflows';
import { describe, expect, it } from 'vitest';
import {
  endedRun,
  largestRun,
  retriedRun,
  runningState,
  startedFromQueue,
  WORKFLOW_TIME,
  withNodeSucceeded,
  workflowDefinition,
  workflowRecord,
  workflowRun,
} from '../workflow-records.js';
import { allPages, PAGE_SIZES } from './pages.js';

const T0 = WORKFLOW_TIME;

/** Every item of a list, page by page (no page holds more than `limit`). */
async function walk<T>(limit: number, read: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  return (await allPages(limit, read)).flatMap((page) => page.items);
}

export function workflowStoreContract(
  label: string,
  newStore: () => WorkflowStore | Promise<WorkflowStore>,
): void {
  async function setup() {
    const store = await newStore();
    const newWorkflow = async (appName?: string, keys?: readonly string[]): Promise<WorkflowRecord> => {
      const wf = workflowRecord(await store.allocateId(), appName, keys);
      await store.create(wf);
      return wf;
    };
    /** Admits a run that is to start (RUNNING) whatever the counts, as ALLOW does. */
    const startRun = async (run: WorkflowRunRecord) => {
      expect(await store.admit(run, { as: 'start', expectNoBuffered: false })).toBe('admitted');
      return run;
    };
    /** Saves `change(read)` over a fresh read until it lands (a false is a lost race). */
    const saveUntilSaved = async (id: string, change: (read: WorkflowRunRecord) => WorkflowRunRecord) => {
      for (let attempt = 1; attempt <= 20; attempt++) {
        const read = (await store.getRun(id))!;
        if (await store.saveRun(read, change(read))) return;
      }
      throw new Error(`run ${id} never saved`);
    };
    return { store, newWorkflow, startRun, saveUntilSaved };
  }

  describe(`WorkflowStore contract (${label})`, () => {
    describe('workflows and their versions', () => {
      it('allocates ids 1, 2, 3, … and never the same id twice, even when asked at once', async () => {
        const { store } = await setup();
        expect([await store.allocateId(), await store.allocateId(), await store.allocateId()]).toEqual([
          1, 2, 3,
        ]);
        const atOnce = await Promise.all(Array.from({ length: 12 }, () => store.allocateId()));
        expect([...atOnce].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 4));
      });

      it('creates a workflow once (the first stands), reads it back exactly, and keeps version 1', async () => {
        const { store } = await setup();
        const wf: WorkflowRecord = {
          id: await store.allocateId(),
          version: 1,
          definition: workflowDefinition(),
          triggerStatus: 'RUNNING',
          starterJobId: 42,
          activeRuns: 0,
          createdAt: T0,
          updatedAt: T0 + 1,
        };
        await store.create(wf);
        const other = { ...wf, definition: workflowDefinition('wf-other', ['x']), starterJobId: 7 };
        await expect(store.create(other)).rejects.toBeInstanceOf(ConflictError);

        expect(await store.get(wf.id)).toEqual(wf);
        expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
        expect(await store.getVersion(wf.id, 2)).toBeUndefined();
        expect(await store.get(wf.id + 1)).toBeUndefined();
        expect(await store.getVersion(wf.id + 1, 1)).toBeUndefined();
      });

      it('answers definitions no reader can change (the engine keeps them per version)', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const head = (await store.get(wf.id))!;
        const version = (await store.getVersion(wf.id, 1))!;
        for (const def of [head.definition, version]) {
          expect(Object.isFrozen(def)).toBe(true);
          expect(Object.isFrozen(def.nodes)).toBe(true);
          expect(Object.isFrozen(def.nodes[0])).toBe(true);
        }
      });

      it('stores an edit as a new version over the version read; a stale version or a gone workflow changes nothing', async () => {
        const { store, newWorkflow } = await setup();
        const wf = { ...(await newWorkflow()), triggerStatus: 'RUNNING', starterJobId: 42 } as const;
        await store.setSchedule(wf.id, 'RUNNING', 42, T0);
        const v2: WorkflowRecord = {
          ...wf,
          version: 2,
          definition: workflowDefinition('wf-app-2', ['a', 'b', 'c'], 'renamed'),
          triggerStatus: 'STOPPED',
          starterJobId: undefined,
          updatedAt: T0 + 5,
        };
        await store.update(v2, 1);
        const read = await store.get(wf.id);
        expect(read).toEqual(v2);
        expect(read).not.toHaveProperty('starterJobId');
        expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
        expect(await store.getVersion(wf.id, 2)).toEqual(v2.definition);

        const stale = { ...v2, definition: workflowDefinition('wf-app', ['z']), updatedAt: T0 + 9 };
        await expect(store.update(stale, 1)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(wf.id)).toEqual(v2);
        expect(await store.getVersion(wf.id, 2)).toEqual(v2.definition);

        const gone = { ...v2, id: wf.id + 100 };
        await expect(store.update(gone, 1)).rejects.toBeInstanceOf(NotFoundError);
        expect(await store.get(gone.id)).toBeUndefined();
        expect(await store.getVersion(gone.id, 2)).toBeUndefined();
      });

      it('two edits of the same version at once: exactly one wins, its definition is the new version', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const edits = ['left', 'right'].map((name) => ({
          ...wf,
          version: 2,
          definition: workflowDefinition('wf-app', ['extract', 'load'], name),
          updatedAt: T0 + 1,
        }));
        const answers = await Promise.allSettled(edits.map((edit) => store.update(edit, 1)));
        const won = answers.findIndex((a) => a.status === 'fulfilled');
        expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
        const lost = answers[1 - won];
        expect(lost?.status === 'rejected' && lost.reason).toBeInstanceOf(ConflictError);
        expect((await store.get(wf.id))?.definition).toEqual(edits[won]!.definition);
        expect(await store.getVersion(wf.id, 2)).toEqual(edits[won]!.definition);
      });

      it('keeps the running counts and the creation time through an edit', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        await startRun(workflowRun(wf, 'wr-edit-1'));
        const queued = workflowRun(wf, 'wr-edit-2', { status: 'QUEUED' });
        expect(await store.admit(queued, { as: 'buffer', expectNoBuffered: true })).toBe('admitted');
        // The edit is made from a head read before the runs were admitted.
        await store.update({ ...wf, version: 2, createdAt: T0 + 99, updatedAt: T0 + 1 }, 1);
        expect(await store.get(wf.id)).toMatchObject({
          version: 2,
          activeRuns: 1,
          bufferedRunId: queued.id,
          createdAt: T0,
          updatedAt: T0 + 1,
        });
      });

      it('keeps when the deadline was set as an edit gives it, and the last success through edits and schedule changes', async () => {
        const { store, startRun } = await setup();
        const wf: WorkflowRecord = {
          ...workflowRecord(await store.allocateId()),
          deadlineSetAt: T0 - 5,
        };
        await store.create(wf);
        expect(await store.get(wf.id)).toEqual(wf);
        const run = await startRun(workflowRun(wf, 'wr-dl-1'));
        const done = endedRun(run, 'SUCCEEDED', T0 + 7);
        expect(await store.saveRun(run, done)).toBe(true);
        expect((await store.get(wf.id))?.lastSuccessAt).toBe(T0 + 7);

        // An edit from a head read before the success: the success stays, the deadline's time is the edit's.
        await store.update({ ...wf, version: 2, deadlineSetAt: T0 + 8, updatedAt: T0 + 8 }, 1);
        expect(await store.get(wf.id)).toMatchObject({
          version: 2,
          deadlineSetAt: T0 + 8,
          lastSuccessAt: T0 + 7,
        });
        await store.setSchedule(wf.id, 'RUNNING', 9, T0 + 9);
        expect(await store.get(wf.id)).toMatchObject({ deadlineSetAt: T0 + 8, lastSuccessAt: T0 + 7 });
        // An edit without a deadline clears its time.
        const { deadlineSetAt: _cleared, ...noDeadline } = wf;
        await store.update({ ...noDeadline, version: 3, starterJobId: 9, updatedAt: T0 + 10 }, 2);
        const read = await store.get(wf.id);
        expect(read).not.toHaveProperty('deadlineSetAt');
        expect(read?.lastSuccessAt).toBe(T0 + 7);
      });

      it('records the last success in the save that ends a run SUCCEEDED, and only then', async () => {
        const { store, newWorkflow, startRun, saveUntilSaved } = await setup();
        const wf = await newWorkflow();
        const failing = await startRun(workflowRun(wf, 'wr-ls-1'));
        expect(await store.saveRun(failing, endedRun(failing, 'FAILED', T0 + 3))).toBe(true);
        const cancelled = await startRun(workflowRun(wf, 'wr-ls-2'));
        expect(await store.saveRun(cancelled, endedRun(cancelled, 'CANCELLED', T0 + 4))).toBe(true);
        expect(await store.get(wf.id)).not.toHaveProperty('lastSuccessAt');

        // Progress without an end records nothing; the retried run's success does.
        const moving = await startRun(workflowRun(wf, 'wr-ls-3'));
        expect(await store.saveRun(moving, withNodeSucceeded(moving, 'extract', 'ok'))).toBe(true);
        expect(await store.get(wf.id)).not.toHaveProperty('lastSuccessAt');
        await saveUntilSaved(failing.id, (read) => retriedRun(read, T0 + 5));
        await saveUntilSaved(failing.id, (read) => endedRun(read, 'SUCCEEDED', T0 + 6));
        expect((await store.get(wf.id))?.lastSuccessAt).toBe(T0 + 6);
        // A later success moves it on; a stale save that loses records nothing.
        const late = (await store.getRun(moving.id))!;
        expect(await store.saveRun(late, endedRun(late, 'SUCCEEDED', T0 + 20))).toBe(true);
        expect(await store.saveRun(late, endedRun(late, 'SUCCEEDED', T0 + 30))).toBe(false);
        expect((await store.get(wf.id))?.lastSuccessAt).toBe(T0 + 20);
      });

      it('gives a window’s missed-deadline claim to its first caller only, per workflow and window', async () => {
        const { store, newWorkflow } = await setup();
        const [a, b] = [await newWorkflow(), await newWorkflow()];
        const claims = await Promise.all([
          store.claimDeadlineMiss(a.id, T0),
          store.claimDeadlineMiss(a.id, T0),
        ]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await store.claimDeadlineMiss(a.id, T0)).toBe(false);
        expect(await store.claimDeadlineMiss(b.id, T0), 'another workflow').toBe(true);
        expect(await store.claimDeadlineMiss(a.id, T0 + 86_400_000), 'the next window').toBe(true);
        // A claim is no part of the workflow: it reads, lists and deletes as before.
        expect(await store.get(a.id)).toEqual(a);
        expect((await store.list({ limit: 100 })).items.map((w) => w.id)).toEqual([a.id, b.id]);
        await store.delete(a.id);
        expect(await store.get(a.id)).toBeUndefined();
      });

      it('sets the schedule without a new version, on condition of the starter job when one is expected', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        await store.setSchedule(wf.id, 'RUNNING', 7, T0 + 2, null);
        expect(await store.get(wf.id)).toEqual({
          ...wf,
          triggerStatus: 'RUNNING',
          starterJobId: 7,
          updatedAt: T0 + 2,
        });
        expect(await store.getVersion(wf.id, 2)).toBeUndefined();

        // Expected none, or another job: refused, nothing changed.
        await expect(store.setSchedule(wf.id, 'STOPPED', 8, T0 + 3, null)).rejects.toBeInstanceOf(
          ConflictError,
        );
        await expect(store.setSchedule(wf.id, 'STOPPED', 8, T0 + 3, 6)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(wf.id)).toMatchObject({
          triggerStatus: 'RUNNING',
          starterJobId: 7,
          updatedAt: T0 + 2,
        });

        await store.setSchedule(wf.id, 'RUNNING', 8, T0 + 4, 7);
        expect((await store.get(wf.id))?.starterJobId).toBe(8);
        // No expectation: whatever the starter job is.
        await store.setSchedule(wf.id, 'STOPPED', undefined, T0 + 5);
        const stopped = await store.get(wf.id);
        expect(stopped).toEqual({ ...wf, triggerStatus: 'STOPPED', updatedAt: T0 + 5 });
        expect(stopped).not.toHaveProperty('starterJobId');

        await expect(store.setSchedule(wf.id + 1, 'RUNNING', 1, T0)).rejects.toBeInstanceOf(NotFoundError);
        await expect(store.setSchedule(wf.id + 1, 'RUNNING', 1, T0, null)).rejects.toBeInstanceOf(
          NotFoundError,
        );
        expect(await store.get(wf.id + 1)).toBeUndefined();
      });

      it('deletes a workflow only when no run is running or waiting; its versions and runs stay readable', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-del-1'));
        const queued = workflowRun(wf, 'wr-del-2', { status: 'QUEUED' });
        await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true });

        await expect(store.delete(wf.id)).rejects.toBeInstanceOf(ConflictError);
        const done = endedRun(run, 'SUCCEEDED');
        expect(await store.saveRun(run, done)).toBe(true);
        // Still one waiting.
        await expect(store.delete(wf.id)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 0, bufferedRunId: queued.id });
        expect(await store.saveRun(queued, endedRun(queued, 'CANCELLED'))).toBe(true);

        await store.delete(wf.id);
        expect(await store.get(wf.id)).toBeUndefined();
        expect((await store.list({ limit: 100 })).items).toEqual([]);
        expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
        expect(await store.getRun(run.id)).toEqual(done);
        await expect(store.delete(wf.id)).rejects.toBeInstanceOf(NotFoundError);
      });

      it('a delete and a start at once: never a running run of a deleted workflow', async () => {
        const { store, newWorkflow } = await setup();
        for (let round = 0; round < 3; round++) {
          const wf = await newWorkflow();
          const run = workflowRun(wf, `wr-race-${round}`);
          const [admitted, deleted] = await Promise.all([
            store.admit(run, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true }),
            store.delete(wf.id).then(
              () => true,
              () => false,
            ),
          ]);
          expect(admitted === 'admitted' && deleted, `round ${round}`).toBe(false);
          if (admitted === 'admitted') expect((await store.get(wf.id))?.activeRuns).toBe(1);
          if (deleted) {
            expect(await store.get(wf.id)).toBeUndefined();
            expect(await store.getRun(run.id)).toBeUndefined();
          }
        }
      });
    });

    describe('workflow lists', () => {
      it('lists workflows by id, each once at page sizes 1, 2, 3 and 100, filtered by group', async () => {
        const { store, startRun } = await setup();
        const workflows: WorkflowRecord[] = [];
        const ids = await Promise.all(Array.from({ length: 11 }, () => store.allocateId()));
        // Created out of id order: the list is by id, not by when.
        for (const id of [...ids].sort((a, b) => ((a * 7) % 11) - ((b * 7) % 11))) {
          const appName = id % 3 === 0 ? 'group-b' : id % 3 === 1 ? 'group-a' : 'group-c';
          const wf: WorkflowRecord = {
            id,
            version: 1,
            definition: workflowDefinition(appName),
            triggerStatus: 'STOPPED',
            activeRuns: 0,
            createdAt: T0 + id,
            updatedAt: T0 + id,
          };
          await store.create(wf);
          workflows.push(wf);
        }
        workflows.sort((a, b) => a.id - b.id);
        // Their running counts are part of the records listed.
        await startRun(workflowRun(workflows[0]!, 'wr-wl-1'));
        await startRun(workflowRun(workflows[0]!, 'wr-wl-2'));
        await startRun(workflowRun(workflows[4]!, 'wr-wl-3'));
        const stored = workflows.map((w, i) => ({ ...w, activeRuns: i === 0 ? 2 : i === 4 ? 1 : 0 }));
        const of = (apps?: readonly string[]) =>
          stored.filter((w) => !apps || apps.includes(w.definition.appName)).map((w) => w.id);

        for (const limit of PAGE_SIZES) {
          for (const appNames of [undefined, ['group-b'], ['group-a', 'group-c'], ['nobody']]) {
            const listed = await walk(limit, (cursor) =>
              store.list({ limit, ...(cursor ? { cursor } : {}), ...(appNames ? { appNames } : {}) }),
            );
            expect(
              listed.map((w) => w.id),
              `limit ${limit}, groups ${appNames}`,
            ).toEqual(of(appNames));
          }
        }
        expect((await store.list({ limit: 100 })).items).toEqual(stored);
        expect(await store.list({ appNames: [], limit: 100 })).toEqual({ items: [] });
        const first = await store.list({ appNames: ['group-b'], limit: 1 });
        expect(first.items).toEqual(stored.filter((w) => w.definition.appName === 'group-b').slice(0, 1));
        expect(first.nextCursor).toBeDefined();
      });

      it('a cursor continues its own list only; anything else is refused as invalid', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const [a, b] = [await newWorkflow(), await newWorkflow()];
        await newWorkflow();
        for (let i = 0; i < 3; i++) {
          await startRun(workflowRun(a, `wr-cur-a${i}`, { createdAt: T0 + i }));
          await startRun(workflowRun(b, `wr-cur-b${i}`, { createdAt: T0 + i }));
        }
        const workflowsCursor = (await store.list({ limit: 1 })).nextCursor;
        const allRunsCursor = (await store.listRuns({ limit: 1 })).nextCursor;
        const runsOfA = (await store.listRuns({ workflowId: a.id, limit: 1 })).nextCursor;
        expect([workflowsCursor, allRunsCursor, runsOfA]).not.toContain(undefined);

        const invalid = [
          () => store.list({ limit: 2, cursor: 'not a cursor' }),
          () => store.listRuns({ limit: 2, cursor: 'not a cursor' }),
          () => store.list({ limit: 2, cursor: allRunsCursor }),
          () => store.listRuns({ limit: 2, cursor: workflowsCursor }),
          () => store.listRuns({ limit: 2, cursor: runsOfA }),
          () => store.listRuns({ workflowId: a.id, limit: 2, cursor: allRunsCursor }),
          () => store.listRuns({ workflowId: b.id, limit: 2, cursor: runsOfA }),
        ];
        for (const [i, read] of invalid.entries()) {
          await expect(read(), `case ${i}`).rejects.toBeInstanceOf(ValidationError);
        }
        // The filters may change along the way: the cursor is of the list, not of its filters.
        const rest = await store.listRuns({
          workflowId: a.id,
          status: 'RUNNING',
          limit: 100,
          cursor: runsOfA,
        });
        expect(rest.items.map((r) => r.id)).toEqual(['wr-cur-a1', 'wr-cur-a0']);
      });
    });

    describe('admission', () => {
      it('admits a run to start once: the same id again writes nothing, whatever the counts are now', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        // A scheduled start's run (its id and trigger from the starter job's fire).
        const first = workflowRun(wf, 'wr-s4294967297', {
          trigger: { type: 'SCHEDULE', starterLogId: 4294967297 },
        });
        expect(await store.admit(first, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
          'admitted',
        );
        expect(await store.getRun(first.id)).toEqual(first);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);

        const again = { ...first, workflowName: 'another', createdAt: T0 + 5 };
        expect(await store.admit(again, { as: 'start', expectNoBuffered: false })).toBe('exists');
        // Decided on counts that have changed since: still the run that exists.
        expect(await store.admit(again, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
          'exists',
        );
        expect(await store.getRun(first.id)).toEqual(first);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);
      });

      it('admits against the counts the decision was made on, all or nothing', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        await store.admit(workflowRun(wf, 'wr-cnt-1'), {
          as: 'start',
          expectActiveRuns: 0,
          expectNoBuffered: true,
        });

        // Decided on a count that has changed: nothing written.
        const late = workflowRun(wf, 'wr-cnt-2');
        expect(await store.admit(late, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
          'conflict',
        );
        expect(await store.getRun(late.id)).toBeUndefined();
        expect(await store.get(wf.id)).toEqual({ ...wf, activeRuns: 1 });

        const queued = workflowRun(wf, 'wr-cnt-3', { status: 'QUEUED' });
        expect(await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
          'admitted',
        );
        expect(await store.getRun(queued.id)).toEqual(queued);
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 1, bufferedRunId: queued.id });

        // One waits at most, whatever the decision expected; a start decided with none waiting conflicts.
        const second = workflowRun(wf, 'wr-cnt-4', { status: 'QUEUED' });
        expect(await store.admit(second, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
          'conflict',
        );
        expect(await store.admit(second, { as: 'buffer', expectNoBuffered: false })).toBe('conflict');
        expect(await store.admit(late, { as: 'start', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
          'conflict',
        );
        expect(await store.getRun(second.id)).toBeUndefined();
        expect(await store.getRun(late.id)).toBeUndefined();
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 1, bufferedRunId: queued.id });

        // ALLOW: whatever the counts.
        expect(await store.admit(late, { as: 'start', expectNoBuffered: false })).toBe('admitted');
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 2, bufferedRunId: queued.id });

        // A workflow that is gone.
        const orphan = workflowRun({ ...wf, id: wf.id + 100 }, 'wr-cnt-5');
        expect(await store.admit(orphan, { as: 'start', expectNoBuffered: false })).toBe('conflict');
        expect(await store.getRun(orphan.id)).toBeUndefined();
      });

      it('two starts decided on the same count at once: exactly one is admitted', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const runs = [workflowRun(wf, 'wr-two-1'), workflowRun(wf, 'wr-two-2')];
        const answers = await Promise.all(
          runs.map((run) => store.admit(run, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })),
        );
        expect([...answers].sort()).toEqual(['admitted', 'conflict']);
        const loser = runs[answers.indexOf('conflict')]!;
        expect(await store.getRun(loser.id)).toBeUndefined();
        expect((await store.get(wf.id))?.activeRuns).toBe(1);

        const waiting = [
          workflowRun(wf, 'wr-two-3', { status: 'QUEUED' }),
          workflowRun(wf, 'wr-two-4', { status: 'QUEUED' }),
        ];
        const buffered = await Promise.all(
          waiting.map((run) =>
            store.admit(run, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true }),
          ),
        );
        expect([...buffered].sort()).toEqual(['admitted', 'conflict']);
        const kept = waiting[buffered.indexOf('admitted')]!;
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 1, bufferedRunId: kept.id });
        expect(await store.getRun(waiting[buffered.indexOf('conflict')]!.id)).toBeUndefined();
      });

      it('the same run admitted twice at once is stored and counted once', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const run = workflowRun(wf, 'wr-s4294967296');
        const answers = await Promise.all([
          store.admit(run, { as: 'start', expectNoBuffered: false }),
          store.admit({ ...run, workflowName: 'copy' }, { as: 'start', expectNoBuffered: false }),
        ]);
        expect(answers.filter((a) => a === 'admitted')).toHaveLength(1);
        expect(answers.filter((a) => a !== 'admitted')).toEqual([
          expect.stringMatching(/^(exists|conflict)$/),
        ]);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);
        const stored = await store.getRun(run.id);
        expect(stored?.workflowName).toBe(answers[0] === 'admitted' ? run.workflowName : 'copy');
        // Asked again, the loser finds the run.
        expect(await store.admit(run, { as: 'start', expectNoBuffered: false })).toBe('exists');
      });

      it('starts admitted at once whatever the count (ALLOW) are each counted once', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const runs = Array.from({ length: 8 }, (_, i) =>
          workflowRun(wf, `wr-many-${i}`, { createdAt: T0 + i }),
        );
        let pending = runs;
        for (let round = 0; pending.length > 0 && round < 20; round++) {
          const answers = await Promise.all(
            pending.map((run) => store.admit(run, { as: 'start', expectNoBuffered: false })),
          );
          // A conflict (a race on the workflow's counts) writes nothing: that run is admitted again.
          expect(answers.every((a) => a === 'admitted' || a === 'conflict')).toBe(true);
          const admittedSoFar = runs.length - pending.length + answers.filter((a) => a === 'admitted').length;
          expect((await store.get(wf.id))?.activeRuns).toBe(admittedSoFar);
          for (const [i, answer] of answers.entries()) {
            if (answer === 'conflict') expect(await store.getRun(pending[i]!.id)).toBeUndefined();
          }
          pending = pending.filter((_, i) => answers[i] === 'conflict');
        }
        expect(pending).toEqual([]);
        expect((await store.get(wf.id))?.activeRuns).toBe(8);
        expect((await store.listActive(wf.id)).map((r) => r.id)).toEqual(runs.map((r) => r.id));
      });
    });

    describe('saving runs', () => {
      it('saves a run over the revision and status it read: a stale one loses and changes nothing', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-rev-1'));
        const next = withNodeSucceeded(run, 'extract', 'rows=10');
        expect(await store.saveRun(run, next)).toBe(true);
        expect(await store.getRun(run.id)).toEqual(next);

        // Another writer's view, read before that save.
        expect(await store.saveRun(run, withNodeSucceeded(run, 'extract', 'rows=99'))).toBe(false);
        expect(await store.saveRun(run, endedRun(run, 'CANCELLED'))).toBe(false);
        expect(await store.getRun(run.id)).toEqual(next);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);
        // The status is part of the condition too.
        expect(await store.saveRun({ ...next, status: 'QUEUED' }, endedRun(next, 'CANCELLED'))).toBe(false);
        expect(await store.getRun(run.id)).toEqual(next);
        // A run that does not exist.
        const ghost = workflowRun(wf, 'wr-rev-ghost');
        expect(await store.saveRun(ghost, withNodeSucceeded(ghost, 'extract', 'x'))).toBe(false);
        expect(await store.getRun(ghost.id)).toBeUndefined();

        expect(await store.saveRun(next, endedRun(next, 'SUCCEEDED'))).toBe(true);
        expect(await store.getRun(run.id)).toEqual(endedRun(next, 'SUCCEEDED'));
      });

      it('two advances of the same revision at once: exactly one wins, and the run is the winner’s', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        for (let round = 0; round < 3; round++) {
          const run = await startRun(workflowRun(wf, `wr-adv-${round}`));
          const rivals = [
            withNodeSucceeded(run, 'extract', 'first'),
            withNodeSucceeded(run, 'extract', 'second'),
          ];
          const answers = await Promise.all(rivals.map((next) => store.saveRun(run, next)));
          expect(answers.filter(Boolean), `round ${round}`).toHaveLength(1);
          expect(await store.getRun(run.id)).toEqual(rivals[answers.indexOf(true)]);
        }
      });

      it('a run ended twice at once ends once: one running run less', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const other = await startRun(workflowRun(wf, 'wr-end-0'));
        const run = await startRun(workflowRun(wf, 'wr-end-1'));
        const rivals = [endedRun(run, 'SUCCEEDED'), endedRun(run, 'CANCELLED')];
        const answers = await Promise.all(rivals.map((next) => store.saveRun(run, next)));
        expect(answers.filter(Boolean)).toHaveLength(1);
        expect((await store.getRun(run.id))?.status).toBe(rivals[answers.indexOf(true)]!.status);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);
        expect((await store.listActive(wf.id)).map((r) => r.id)).toEqual([other.id]);
      });

      it('a buffered run started twice at once starts once', async () => {
        const { store, newWorkflow } = await setup();
        const wf = await newWorkflow();
        const queued = workflowRun(wf, 'wr-buf-1', { status: 'QUEUED' });
        expect(await store.admit(queued, { as: 'buffer', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
          'admitted',
        );
        const rivals = [startedFromQueue(queued, wf, T0 + 1), startedFromQueue(queued, wf, T0 + 2)];
        const answers = await Promise.all(rivals.map((next) => store.saveRun(queued, next)));
        expect(answers.filter(Boolean)).toHaveLength(1);
        expect(await store.getRun(queued.id)).toEqual(rivals[answers.indexOf(true)]);
        const head = await store.get(wf.id);
        expect(head?.activeRuns).toBe(1);
        expect(head).not.toHaveProperty('bufferedRunId');
      });

      it('ends of different runs of one workflow at once keep its running count exact', async () => {
        const { store, newWorkflow, startRun, saveUntilSaved } = await setup();
        const wf = await newWorkflow();
        const runs = [];
        for (let i = 0; i < 6; i++)
          runs.push(await startRun(workflowRun(wf, `wr-par-${i}`, { createdAt: T0 + i })));
        expect((await store.get(wf.id))?.activeRuns).toBe(6);
        await Promise.all(
          runs.map((run, i) =>
            saveUntilSaved(run.id, (read) => endedRun(read, i % 2 ? 'FAILED' : 'SUCCEEDED')),
          ),
        );
        expect((await store.get(wf.id))?.activeRuns).toBe(0);
        expect(await store.listActive(wf.id)).toEqual([]);
        // And back: retries at once count each run again.
        await Promise.all(runs.map((run) => saveUntilSaved(run.id, (read) => retriedRun(read))));
        expect((await store.get(wf.id))?.activeRuns).toBe(6);
      });

      it('moves the running count and the buffered run with each status change', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const running = workflowRun(wf, 'wr-st-1');
        await store.admit(running, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true });
        const queued = workflowRun(wf, 'wr-st-2', { status: 'QUEUED', createdAt: T0 + 1 });
        await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true });

        // RUNNING → SUCCEEDED: one running run less; the buffered one still waits.
        expect(await store.saveRun(running, endedRun(running, 'SUCCEEDED'))).toBe(true);
        expect(await store.get(wf.id)).toMatchObject({ activeRuns: 0, bufferedRunId: queued.id });

        // QUEUED → RUNNING: the buffered run becomes a running one.
        const started = startedFromQueue(queued, wf, T0 + 5);
        expect(await store.saveRun(queued, started)).toBe(true);
        let head = await store.get(wf.id);
        expect(head?.activeRuns).toBe(1);
        expect(head).not.toHaveProperty('bufferedRunId');

        // RUNNING → FAILED, then a retry (FAILED → RUNNING) counts it again and it is no longer finished.
        const failed = endedRun(started, 'FAILED');
        expect(await store.saveRun(started, failed)).toBe(true);
        expect((await store.get(wf.id))?.activeRuns).toBe(0);
        const again = retriedRun(failed);
        expect(await store.saveRun(failed, again)).toBe(true);
        expect((await store.get(wf.id))?.activeRuns).toBe(1);
        const read = await store.getRun(again.id);
        expect(read).toEqual(again);
        expect(read).not.toHaveProperty('finishedAt');
        expect(await store.saveRun(again, endedRun(again, 'CANCELLED'))).toBe(true);

        // QUEUED → CANCELLED frees the buffer and counts no run.
        const waiting = workflowRun(wf, 'wr-st-3', { status: 'QUEUED', createdAt: T0 + 9 });
        expect(await store.admit(waiting, { as: 'buffer', expectNoBuffered: true })).toBe('admitted');
        expect(await store.saveRun(waiting, endedRun(waiting, 'CANCELLED'))).toBe(true);
        head = await store.get(wf.id);
        expect(head).toEqual({
          ...wf,
          activeRuns: 0,
          lastSuccessAt: endedRun(running, 'SUCCEEDED').finishedAt,
        });
        expect(head).not.toHaveProperty('bufferedRunId');

        // Progress without a status change leaves the workflow as it is.
        const lone = await startRun(workflowRun(wf, 'wr-st-4'));
        const before = await store.get(wf.id);
        expect(await store.saveRun(lone, withNodeSucceeded(lone, 'extract', 'ok'))).toBe(true);
        expect(await store.get(wf.id)).toEqual(before);
      });

      it('stores node results with the run; a reset node loses its result, a new one replaces it', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-res-1'));
        const next = withNodeSucceeded(run, 'extract', '{"rows": 10, "note": "naïve ✓ 🚀"}');
        expect(await store.saveRun(run, next)).toBe(true);
        expect(await store.getRun(run.id)).toEqual(next);

        // A retry resets the node: it has no result any more.
        const reset: WorkflowRunRecord = {
          ...next,
          state: {
            ...next.state,
            nodes: { ...next.state.nodes, extract: { status: 'PENDING', attempt: 1 } },
            revision: next.state.revision + 1,
          },
        };
        expect(await store.saveRun(next, reset)).toBe(true);
        expect((await store.getRun(run.id))?.state.nodes.extract).toEqual({ status: 'PENDING', attempt: 1 });
        const again = withNodeSucceeded(reset, 'extract', 'rows=11');
        expect(await store.saveRun(reset, again)).toBe(true);
        expect(await store.getRun(run.id)).toEqual(again);
        // A result admitted with the run is kept too (an empty one is a result).
        const withResult: WorkflowRunRecord = {
          ...workflowRun(wf, 'wr-res-2'),
          state: {
            ...runningState(['extract', 'load']),
            nodes: {
              extract: { status: 'FAILED', attempt: 1, result: '' },
              load: { status: 'SKIPPED', attempt: 0, reason: 'upstream failed' },
            },
          },
        };
        await startRun(withResult);
        expect(await store.getRun(withResult.id)).toEqual(withResult);
      });
    });

    describe('node runs and fire state', () => {
      it('notes the job runs of a node, keeping the later attempt; a save never undoes a note', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow('wf-app', ['status', 'load']); // a node key that is a common word
        const run = await startRun(workflowRun(wf, 'wr-note-1'));
        const link = { runId: run.id, node: 'status' };
        await store.noteNodeRuns({ ...link, attempt: 2 }, [11, 12]);
        await store.noteNodeRuns({ ...link, attempt: 1 }, [5]);
        expect((await store.getRun(run.id))?.nodeRuns).toEqual({ status: { attempt: 2, logIds: [11, 12] } });
        await store.noteNodeRuns({ ...link, attempt: 2 }, [13]); // the same attempt's latest retry
        expect((await store.getRun(run.id))?.nodeRuns.status).toEqual({ attempt: 2, logIds: [13] });
        await store.noteNodeRuns({ ...link, attempt: 3 }, [2 ** 52 + 7]);
        expect((await store.getRun(run.id))?.nodeRuns.status).toEqual({ attempt: 3, logIds: [2 ** 52 + 7] });
        // Not revision-conditional.
        expect((await store.getRun(run.id))?.state.revision).toBe(run.state.revision);
        await store.noteNodeRuns({ runId: 'wr-nobody', node: 'a', attempt: 1 }, [1]);
        expect(await store.getRun('wr-nobody')).toBeUndefined();

        // The engine saves from a record read before the notes: they stay.
        const next = withNodeSucceeded(run, 'status', 'done');
        expect(await store.saveRun(run, next)).toBe(true);
        expect((await store.getRun(run.id))?.nodeRuns).toEqual({
          status: { attempt: 3, logIds: [2 ** 52 + 7] },
        });
        // A save that changes one node's runs writes that node's only.
        const read = (await store.getRun(run.id))!;
        const moved = {
          ...withNodeSucceeded(read, 'load', 'x'),
          nodeRuns: { ...read.nodeRuns, load: { attempt: 1, logIds: [99] } },
        };
        await store.noteNodeRuns({ runId: run.id, node: 'status', attempt: 4 }, [21]);
        expect(await store.saveRun(read, moved)).toBe(true);
        expect((await store.getRun(run.id))?.nodeRuns).toEqual({
          status: { attempt: 4, logIds: [21] },
          load: { attempt: 1, logIds: [99] },
        });
      });

      it('a note and a save at once both land', async () => {
        const { store, newWorkflow, startRun, saveUntilSaved } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-both-1'));
        await Promise.all([
          store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [71]),
          saveUntilSaved(run.id, (read) => withNodeSucceeded(read, 'load', 'loaded')),
        ]);
        const read = await store.getRun(run.id);
        expect(read?.nodeRuns).toEqual({ extract: { attempt: 1, logIds: [71] } });
        expect(read?.state.nodes.load).toEqual({ status: 'SUCCEEDED', attempt: 1, result: 'loaded' });
      });

      it("answers whether a node's attempt is awaited and whether runs were claimed for it", async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-await-1'));
        const state = (node: string, attempt: number, runId = run.id) =>
          store.nodeFireState({ runId, node, attempt });
        expect(await state('extract', 1)).toEqual({ awaited: true, claimed: false });
        expect(await state('extract', 2)).toEqual({ awaited: false, claimed: false });
        expect(await state('load', 1)).toEqual({ awaited: false, claimed: false }); // PENDING
        expect(await state('nope', 1)).toEqual({ awaited: false, claimed: false });
        expect(await state('extract', 1, 'wr-nobody')).toEqual({ awaited: false, claimed: false });
        await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [41, 42]);
        expect(await state('extract', 1)).toEqual({ awaited: true, claimed: true });
        expect(await state('extract', 2)).toEqual({ awaited: false, claimed: false });

        // A broadcast shard's retry replaces that shard's run only, and only in the attempt recorded.
        await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [52], 1);
        await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 2 }, [99], 0);
        await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [98], 5);
        await store.noteNodeRuns({ runId: run.id, node: 'load', attempt: 1 }, [97], 0);
        expect((await store.getRun(run.id))?.nodeRuns).toEqual({ extract: { attempt: 1, logIds: [41, 52] } });

        // A cancelled run awaits nothing more; what was claimed stays claimed.
        expect(await store.saveRun(run, endedRun(run, 'CANCELLED'))).toBe(true);
        expect(await state('extract', 1)).toEqual({ awaited: false, claimed: true });
      });
    });

    describe('active and stalled runs', () => {
      it("lists a workflow's QUEUED and RUNNING runs oldest first, dropping them as they end", async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const other = await newWorkflow();
        const recent = await startRun(workflowRun(wf, 'wr-act-2', { createdAt: T0 - 30_000 }));
        const old = await startRun(workflowRun(wf, 'wr-act-1', { createdAt: T0 - 60_000 }));
        const queued = workflowRun(wf, 'wr-act-3', { status: 'QUEUED', createdAt: T0 - 20_000 });
        await store.admit(queued, { as: 'buffer', expectNoBuffered: true });
        await startRun(workflowRun(other, 'wr-act-0', { createdAt: T0 - 90_000 }));

        expect(await store.listActive(wf.id)).toEqual([
          { id: old.id, status: 'RUNNING' },
          { id: recent.id, status: 'RUNNING' },
          { id: queued.id, status: 'QUEUED' },
        ]);
        expect(await store.listActive(wf.id + 100)).toEqual([]);

        const failed = endedRun(recent, 'FAILED');
        expect(await store.saveRun(recent, failed)).toBe(true);
        expect(await store.saveRun(queued, endedRun(queued, 'CANCELLED'))).toBe(true);
        expect(await store.listActive(wf.id)).toEqual([{ id: old.id, status: 'RUNNING' }]);
        // A retried run is active again.
        expect(await store.saveRun(failed, retriedRun(failed))).toBe(true);
        expect(await store.listActive(wf.id)).toEqual([
          { id: old.id, status: 'RUNNING' },
          { id: recent.id, status: 'RUNNING' },
        ]);
      });

      it('lists the active runs of every workflow that have not moved, by the 10 s they last moved in, oldest first', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const B = T0;
        const wf = await newWorkflow();
        const other = await newWorkflow();
        const at = (movedAt: number) => ({ createdAt: B - 120_000, movedAt });
        const r1 = await startRun(workflowRun(wf, 'wr-stl-1', at(B - 60_000)));
        const r2 = await startRun(workflowRun(other, 'wr-stl-2', at(B - 1)));
        const r3 = workflowRun(other, 'wr-stl-3', { status: 'QUEUED', ...at(B - 30_000) });
        await store.admit(r3, { as: 'buffer', expectNoBuffered: true });
        const r4 = await startRun(workflowRun(wf, 'wr-stl-4', at(B)));
        const r5 = await startRun(workflowRun(wf, 'wr-stl-5', at(B + 9_999)));
        const r6 = await startRun(workflowRun(wf, 'wr-stl-6', at(B - 50_000)));
        const r6Ended = endedRun(r6, 'FAILED', B - 50_000);
        expect(await store.saveRun(r6, r6Ended)).toBe(true);

        // A run is listed once the 10 s it moved in ended before `before`.
        expect(await store.listStalled(B, 100)).toEqual([r1.id, r3.id, r2.id]);
        expect(await store.listStalled(B + 9_999, 100)).toEqual([r1.id, r3.id, r2.id]);
        const later = await store.listStalled(B + 10_000, 100);
        expect(later.slice(0, 3)).toEqual([r1.id, r3.id, r2.id]);
        expect([...later.slice(3)].sort()).toEqual([r4.id, r5.id]);
        expect(await store.listStalled(B - 40_000, 100)).toEqual([r1.id]);
        expect(await store.listStalled(B - 60_000, 100)).toEqual([]);
        expect(await store.listStalled(B, 2)).toEqual([r1.id, r3.id]);
        expect(await store.listStalled(B, 1)).toEqual([r1.id]);

        // A touch (a sweep looked at it) or a save moves a run out; an end drops it.
        await store.touch(r1.id, B + 11_000);
        expect(await store.listStalled(B + 10_000, 100)).not.toContain(r1.id);
        expect(await store.listStalled(B + 20_000, 100)).toContain(r1.id);
        expect(await store.saveRun(r4, withNodeSucceeded(r4, 'extract', 'ok', B + 25_000))).toBe(true);
        expect(await store.listStalled(B + 20_000, 100)).not.toContain(r4.id);
        expect(await store.saveRun(r2, endedRun(r2, 'SUCCEEDED', B - 1))).toBe(true);
        expect(await store.listStalled(B + 20_000, 100)).not.toContain(r2.id);
        // A retried run is watched again.
        expect(await store.saveRun(r6Ended, retriedRun(r6Ended, B - 20_000))).toBe(true);
        expect(await store.listStalled(B, 100)).toEqual([r3.id, r6.id]);
      });

      it('touches a run without a new revision: a save from the read before the touch still lands', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const run = await startRun(workflowRun(wf, 'wr-touch-1', { createdAt: T0 - 60_000 }));
        await store.touch(run.id, T0 + 1_000);
        expect(await store.getRun(run.id)).toEqual({ ...run, movedAt: T0 + 1_000 });
        const next = withNodeSucceeded(run, 'extract', 'ok', T0 + 2_000);
        expect(await store.saveRun(run, next)).toBe(true);
        expect(await store.getRun(run.id)).toEqual(next);
        await store.touch('wr-nobody', T0); // a run that is gone: nothing
        expect(await store.getRun('wr-nobody')).toBeUndefined();
      });
    });

    describe('run lists', () => {
      it('lists runs newest first (all, of a workflow, by status, by group), each once at page sizes 1, 2, 3 and 100', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wfA = await newWorkflow('group-a');
        const wfB = await newWorkflow('group-b');
        const wfC = await newWorkflow('group-a');
        const runs: WorkflowRunRecord[] = [];
        const statuses: StoredRunStatus[] = ['SUCCEEDED', 'FAILED', 'RUNNING', 'CANCELLED', 'SUCCEEDED'];
        for (let i = 0; i < 15; i++) {
          const wf = [wfA, wfB, wfC][i % 3]!;
          // Four runs a millisecond: ties (of one workflow or of two) must not lose or repeat a run.
          const run = await startRun(
            workflowRun(wf, `wr-list-${String(i).padStart(2, '0')}`, { createdAt: T0 + Math.floor(i / 4) }),
          );
          const status = statuses[i % statuses.length]!;
          const stored =
            status === 'RUNNING' ? run : endedRun(run, status as 'SUCCEEDED' | 'FAILED' | 'CANCELLED');
          if (stored !== run) expect(await store.saveRun(run, stored)).toBe(true);
          runs.push(stored);
        }
        const queued = workflowRun(wfB, 'wr-list-q', { status: 'QUEUED', createdAt: T0 + 3 });
        await store.admit(queued, { as: 'buffer', expectNoBuffered: true });
        runs.push(queued);

        const cases: {
          name: string;
          query: {
            workflowId?: number;
            status?: StoredRunStatus;
            appNames?: string[];
            createdFrom?: number;
            createdBefore?: number;
          };
          keep: (r: WorkflowRunRecord) => boolean;
        }[] = [
          { name: 'all', query: {}, keep: () => true },
          { name: 'of A', query: { workflowId: wfA.id }, keep: (r) => r.workflowId === wfA.id },
          { name: 'of B', query: { workflowId: wfB.id }, keep: (r) => r.workflowId === wfB.id },
          { name: 'FAILED', query: { status: 'FAILED' }, keep: (r) => r.status === 'FAILED' },
          { name: 'QUEUED', query: { status: 'QUEUED' }, keep: (r) => r.status === 'QUEUED' },
          {
            name: 'of C, SUCCEEDED',
            query: { workflowId: wfC.id, status: 'SUCCEEDED' },
            keep: (r) => r.workflowId === wfC.id && r.status === 'SUCCEEDED',
          },
          { name: 'group-a', query: { appNames: ['group-a'] }, keep: (r) => r.appName === 'group-a' },
          {
            name: 'group-b, RUNNING',
            query: { appNames: ['group-b', 'nobody'], status: 'RUNNING' },
            keep: (r) => r.appName === 'group-b' && r.status === 'RUNNING',
          },
          {
            name: 'of A in group-b',
            query: { workflowId: wfA.id, appNames: ['group-b'] },
            keep: () => false,
          },
          { name: 'of nobody', query: { workflowId: wfC.id + 100 }, keep: () => false },
          {
            name: 'of A, created in [T0 + 1, T0 + 3)',
            query: { workflowId: wfA.id, createdFrom: T0 + 1, createdBefore: T0 + 3 },
            keep: (r) => r.workflowId === wfA.id && r.createdAt >= T0 + 1 && r.createdAt < T0 + 3,
          },
          {
            name: 'created from T0 + 2',
            query: { createdFrom: T0 + 2 },
            keep: (r) => r.createdAt >= T0 + 2,
          },
          {
            name: 'of B, created before T0 + 1',
            query: { workflowId: wfB.id, createdBefore: T0 + 1 },
            keep: (r) => r.workflowId === wfB.id && r.createdAt < T0 + 1,
          },
        ];
        const createdAt = new Map(runs.map((r) => [r.id, r.createdAt]));
        for (const limit of PAGE_SIZES) {
          for (const { name, query, keep } of cases) {
            const listed = (
              await walk(limit, (cursor) =>
                store.listRuns({ ...query, limit, ...(cursor ? { cursor } : {}) }),
              )
            ).map((r) => r.id);
            const expected = runs.filter(keep).map((r) => r.id);
            const what = `${name}, limit ${limit}`;
            expect(new Set(listed).size, `${what}: a run listed twice`).toBe(listed.length);
            expect([...listed].sort(), what).toEqual([...expected].sort());
            const times = listed.map((id) => createdAt.get(id)!);
            expect(times, `${what}: newest first`).toEqual([...times].sort((a, b) => b - a));
          }
        }
        expect(await store.listRuns({ appNames: [], limit: 100 })).toEqual({ items: [] });

        // The records as stored (these runs have no node results).
        const byId = (list: readonly WorkflowRunRecord[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(byId((await store.listRuns({ limit: 100 })).items)).toEqual(byId(runs));
      });

      it('a page of runs ends at its limit, and its cursor continues after its last run', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const wf = await newWorkflow();
        const runs = [];
        for (let i = 0; i < 5; i++)
          runs.push(await startRun(workflowRun(wf, `wr-pg-${i}`, { createdAt: T0 + i * 1_000 })));
        const newestFirst = runs.map((r) => r.id).reverse();
        for (const query of [{ workflowId: wf.id }, {}]) {
          const first = await store.listRuns({ ...query, limit: 2 });
          expect(first.items.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
          expect(first.nextCursor).toBeDefined();
          const second = await store.listRuns({ ...query, limit: 2, cursor: first.nextCursor });
          expect(second.items.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
          const rest = await walk(2, (cursor) =>
            store.listRuns({ ...query, limit: 2, cursor: cursor ?? second.nextCursor }),
          );
          expect(rest.map((r) => r.id)).toEqual(newestFirst.slice(4));
        }
      });
    });

    describe('broadcast shards', () => {
      it("records each shard's first outcome and answers all of the node's attempt, by index", async () => {
        const { store } = await setup();
        const link = { runId: 'wr-shard-1', node: 'fan', attempt: 1 };
        expect(await store.recordShard(link, { index: 1, ok: true, result: 'one' })).toEqual([
          { index: 1, ok: true, result: 'one' },
        ]);
        expect(await store.recordShard(link, { index: 1, ok: false, result: 'again' })).toEqual([
          { index: 1, ok: true, result: 'one' },
        ]);
        await store.recordShard({ ...link, attempt: 10 }, { index: 0, ok: true, result: 'other attempt' });
        await store.recordShard({ ...link, node: 'fan-out' }, { index: 0, ok: true, result: 'other node' });
        await store.recordShard(
          { ...link, runId: 'wr-shard-2' },
          { index: 0, ok: true, result: 'other run' },
        );
        expect(await store.recordShard(link, { index: 10, ok: false, result: 'ten' })).toEqual([
          { index: 1, ok: true, result: 'one' },
          { index: 10, ok: false, result: 'ten' },
        ]);
        expect(await store.recordShard(link, { index: 0, ok: true, result: '' })).toEqual([
          { index: 0, ok: true, result: '' },
          { index: 1, ok: true, result: 'one' },
          { index: 10, ok: false, result: 'ten' },
        ]);
        expect(
          await store.recordShard({ ...link, attempt: 10 }, { index: 0, ok: false, result: 'x' }),
        ).toEqual([{ index: 0, ok: true, result: 'other attempt' }]);
      });

      it('shards recorded at once: each answer holds its own, the first record of a shard stands', async () => {
        const { store } = await setup();
        const link = { runId: 'wr-shard-3', node: 'fan', attempt: 1 };
        const outcomes = Array.from({ length: 6 }, (_, index) => ({
          index,
          ok: index !== 4,
          result: `r${index}`,
        }));
        const answers = await Promise.all(outcomes.map((o) => store.recordShard(link, o)));
        for (const [i, answer] of answers.entries()) {
          expect(answer).toContainEqual(outcomes[i]);
          expect(answer.map((s) => s.index)).toEqual([...answer.map((s) => s.index)].sort((a, b) => a - b));
        }
        // Whoever records last sees every shard: the node finishes once all are in.
        expect(answers.some((a) => a.length === 6)).toBe(true);

        const same = { ...link, node: 'same' };
        const rivals = ['a', 'b', 'c', 'd'].map((result) => ({ index: 0, ok: true, result }));
        const seen = await Promise.all(rivals.map((o) => store.recordShard(same, o)));
        const [first] = seen;
        expect(first).toHaveLength(1);
        expect(rivals).toContainEqual(first![0]);
        for (const answer of seen) expect(answer).toEqual(first);
      });
    });

    // Last: a fresh store made by emptying the one before (DynamoDB Local's) has megabytes to clear after it.
    describe('capacity', () => {
      it('round-trips a run of 200 nodes with a 15,000-character result each', async () => {
        const { store, newWorkflow, startRun } = await setup();
        const { admitted, saves, lastNode } = largestRun(await newWorkflow('wf-big', ['root']));
        let run = await startRun(admitted);
        for (const next of saves) {
          expect(await store.saveRun(run, next)).toBe(true);
          run = next;
        }
        const read = await store.getRun(run.id);
        expect(read).toEqual(run);
        expect(read?.state.nodes[lastNode]?.result).toHaveLength(15_000);
      });
    });
  });
}
