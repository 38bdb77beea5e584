import { ValidationError } from '@tickring/core/common';
import type { Job, JobQuery } from '@tickring/core/jobs';
import { makeJob } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoJobStore } from './job-store.js';

describe('DynamoJobStore list paging (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoJobStore;
  const jobs: Job[] = [];

  beforeAll(async () => {
    env = await isolatedResources('jobs');
    store = new DynamoJobStore({
      doc: env.clients.doc,
      jobsTable: env.resources.tables.jobs,
      controlTable: env.resources.tables.control,
      shardCount: 4,
    });
    for (let id = 1; id <= 12; id++) {
      const job = makeJob({ id, appName: id % 3 === 0 ? 'paging-b' : 'paging-a', triggerNextTime: null });
      await store.create(job);
      jobs.push(job);
    }
  });
  afterAll(() => env?.close());

  /** Every page of `query`, following the cursors. */
  async function allPages(query: Omit<JobQuery, 'cursor'>): Promise<number[]> {
    const found: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const page = await store.list({ ...query, cursor });
      found.push(...page.items.map((j) => j.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return found.sort((a, b) => a - b);
  }

  it("pages through an app's jobs and all jobs, each once, at any page size", async () => {
    const idsOf = (appName?: string) =>
      jobs.filter((j) => appName === undefined || j.appName === appName).map((j) => j.id);
    for (const limit of [1, 5, 100]) {
      expect(await allPages({ appName: 'paging-a', limit }), `limit ${limit}`).toEqual(idsOf('paging-a'));
      expect(await allPages({ limit }), `limit ${limit}`).toEqual(idsOf());
    }
  });

  it('rejects a cursor of another query as a bad cursor, not a database error', async () => {
    const ofA = (await store.list({ appName: 'paging-a', limit: 2 })).nextCursor;
    const ofAll = (await store.list({ limit: 2 })).nextCursor;
    expect(ofA).toBeDefined();
    expect(ofAll).toBeDefined();
    await expect(store.list({ appName: 'paging-b', limit: 2, cursor: ofA })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(store.list({ appName: 'paging-a', limit: 2, cursor: ofAll })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(store.list({ limit: 2, cursor: ofA })).rejects.toBeInstanceOf(ValidationError);
  });
});
