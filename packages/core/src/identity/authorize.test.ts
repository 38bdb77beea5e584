import { makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../common/errors.js';
import type { WorkflowRecord, WorkflowRunRecord } from '../workflows/workflow-store.js';
import type { Principal, RouteAccess } from './access.js';
import { authorize } from './authorize.js';

const jobInA = makeJob({ id: 7, appName: 'a' });
const workflowInA: WorkflowRecord = {
  id: 3,
  version: 1,
  definition: {
    name: 'etl',
    appName: 'a',
    scheduleType: 'NONE',
    scheduleConf: '',
    timeZone: 'UTC',
    misfireStrategy: 'DO_NOTHING',
    overlapPolicy: 'SKIP',
    nodes: [{ key: 'x', jobId: 7, upstream: [] }],
  },
  triggerStatus: 'STOPPED',
  activeRuns: 0,
  createdAt: 0,
  updatedAt: 0,
};
const runInA: WorkflowRunRecord = {
  id: 'wr-1',
  workflowId: 3,
  version: 1,
  appName: 'a',
  workflowName: 'etl',
  status: 'RUNNING',
  state: { status: 'RUNNING', input: {}, nodes: {}, revision: 1, failedNodes: [] },
  trigger: { type: 'MANUAL', by: 'ana' },
  createdAt: 0,
  movedAt: 0,
  nodeRuns: {},
  nodeTimes: {},
};
const deps = {
  jobs: { get: async (id: number) => (id === jobInA.id ? jobInA : undefined) },
  runs: { get: async () => undefined },
  workflows: {
    get: async (id: number) => (id === workflowInA.id ? workflowInA : undefined),
    getRun: async (id: string) => (id === runInA.id ? runInA : undefined),
  },
};
const operatorOf = (...groups: string[]): Principal => ({
  kind: 'token',
  id: 't1',
  name: 'token:t1',
  grant: { role: 'operator', groups, glue: false },
});
const createJob: RouteAccess = { kind: 'operate', target: 'bodyGroup' };
const updateJob: RouteAccess = { kind: 'operate', target: 'jobPath' };
const updateWorkflow: RouteAccess = { kind: 'operate', target: 'workflowPath' };
const readWorkflowRun: RouteAccess = { kind: 'read', target: 'workflowRunPath' };

describe('authorize', () => {
  it('lets an operator create a job in their group, by appName or by XXL-JOB’s jobGroup', async () => {
    await expect(
      authorize(deps, createJob, operatorOf('a'), { params: {}, body: { appName: 'a' } }),
    ).resolves.toEqual({
      kind: 'group',
      appName: 'a',
    });
    await expect(
      authorize(deps, createJob, operatorOf('a'), { params: {}, body: { jobGroup: 'a' } }),
    ).resolves.toEqual({
      kind: 'group',
      appName: 'a',
    });
  });

  it('answers 404 for a job created in another group, whichever name carries the group', async () => {
    for (const body of [{ appName: 'a' }, { jobGroup: 'a' }, { appName: 'b', jobGroup: 'a' }]) {
      await expect(authorize(deps, createJob, operatorOf('b'), { params: {}, body })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    }
  });

  it('answers 404 for moving a job into a group the operator does not reach, by either name', async () => {
    for (const body of [{ appName: 'c' }, { jobGroup: 'c' }]) {
      await expect(authorize(deps, updateJob, operatorOf('a'), { params: { id: 7 }, body })).rejects.toThrow(
        new NotFoundError('group c does not exist'),
      );
    }
  });

  it('answers 404 worded as a missing job for a job outside the grant, 403 for a viewer of its group', async () => {
    await expect(
      authorize(deps, updateJob, operatorOf('b'), { params: { id: 7 }, body: {} }),
    ).rejects.toThrow(new NotFoundError('job 7 does not exist'));
    const viewer: Principal = { ...operatorOf('a'), grant: { role: 'viewer', groups: ['a'], glue: false } };
    await expect(authorize(deps, updateJob, viewer, { params: { id: 7 }, body: {} })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });

  it('asks for the glue grant to write a GLUE source, and 401s a request without a caller', async () => {
    const glue = { appName: 'a', glueType: 'GLUE_SHELL', glueSource: 'echo hi' };
    await expect(authorize(deps, createJob, operatorOf('a'), { params: {}, body: glue })).rejects.toThrow(
      new ForbiddenError('editing a GLUE source needs the glue grant'),
    );
    const withGlue: Principal = {
      ...operatorOf('a'),
      grant: { role: 'operator', groups: ['a'], glue: true },
    };
    await expect(authorize(deps, createJob, withGlue, { params: {}, body: glue })).resolves.toMatchObject({
      kind: 'group',
    });
    await expect(
      authorize(deps, createJob, undefined, { params: {}, body: { appName: 'a' } }),
    ).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('finds a workflow’s group (and the group a new definition moves it to), worded as a missing workflow', async () => {
    await expect(
      authorize(deps, updateWorkflow, operatorOf('a'), { params: { id: 3 }, body: { appName: 'a' } }),
    ).resolves.toEqual({ kind: 'workflow', workflow: workflowInA });
    await expect(
      authorize(deps, updateWorkflow, operatorOf('b'), { params: { id: 3 }, body: {} }),
    ).rejects.toThrow(new NotFoundError('workflow 3 does not exist'));
    await expect(
      authorize(deps, updateWorkflow, operatorOf('a'), { params: { id: 4 }, body: {} }),
    ).rejects.toThrow(new NotFoundError('workflow 4 does not exist'));
    await expect(
      authorize(deps, updateWorkflow, operatorOf('a'), { params: { id: 3 }, body: { appName: 'c' } }),
    ).rejects.toThrow(new NotFoundError('group c does not exist'));
    await expect(
      authorize(deps, updateWorkflow, operatorOf('a', 'c'), { params: { id: 3 }, body: { appName: 'c' } }),
    ).resolves.toMatchObject({ kind: 'workflow' });
  });

  it('finds a workflow run’s group: 404 outside the grant, as for a run that does not exist', async () => {
    const viewer: Principal = { ...operatorOf('a'), grant: { role: 'viewer', groups: ['a'], glue: false } };
    await expect(
      authorize(deps, readWorkflowRun, viewer, { params: { runId: 'wr-1' }, body: undefined }),
    ).resolves.toEqual({ kind: 'workflowRun', workflowRun: runInA });
    for (const runId of ['wr-1', 'wr-2']) {
      await expect(
        authorize(deps, readWorkflowRun, operatorOf('b'), { params: { runId }, body: undefined }),
      ).rejects.toThrow(new NotFoundError(`workflow run ${runId} does not exist (or it expired)`));
    }
  });
});
