import { describe, expect, it } from 'vitest';
import { makeJob } from '../../test/jobs.js';
import type { Principal, RouteAccess } from '../domain/access.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../domain/errors.js';
import { authorize } from './authorize.js';

const jobInA = makeJob({ id: 7, appName: 'a' });
const deps = {
  jobs: { get: async (id: number) => (id === jobInA.id ? jobInA : undefined) },
  runs: { get: async () => undefined },
};
const operatorOf = (...groups: string[]): Principal => ({
  kind: 'token',
  id: 't1',
  name: 'token:t1',
  grant: { role: 'operator', groups, glue: false },
});
const createJob: RouteAccess = { kind: 'operate', target: 'bodyGroup' };
const updateJob: RouteAccess = { kind: 'operate', target: 'jobPath' };

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
});
