import { describe, expectTypeOf, it } from 'vitest';
import type {
  Group,
  Job,
  JobCreate,
  OperationInput,
  OperationResult,
  PagedOperationId,
  PageItem,
  Run,
  RunPage,
  TickringClient,
  TriggerAccepted,
  TriggerRequest,
} from './index.js';

// These assertions are types: `npm run typecheck` (tsc -p packages/client, which includes the tests)
// fails when one does not hold; at run time expectTypeOf does nothing.
describe('the types of the methods (checked by tsc, npm run typecheck)', () => {
  it('takes path, query and body as the document says: absent, optional or required', () => {
    expectTypeOf<OperationInput<'getJob'>>().toEqualTypeOf<{ path: { id: number } }>();
    expectTypeOf<OperationInput<'createJob'>>().toEqualTypeOf<{ body: JobCreate }>();
    expectTypeOf<OperationInput<'triggerJob'>>().toEqualTypeOf<{
      path: { id: number };
      body?: TriggerRequest;
    }>();
    expectTypeOf<keyof OperationInput<'getOpenApiDocument'>>().toEqualTypeOf<never>();
    expectTypeOf<OperationInput<'listRuns'>['query']>().toEqualTypeOf<
      | {
          jobId?: number;
          appName?: string;
          status?: 'running' | 'success' | 'fail' | 'skipped';
          from?: string;
          to?: string;
          limit?: number;
          cursor?: string;
        }
      | undefined
    >();
    expectTypeOf<OperationInput<'previewSchedule'>['query']['scheduleType']>().toEqualTypeOf<
      'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE'
    >();
  });

  it('resolves to the success body, undefined for 204', () => {
    expectTypeOf<OperationResult<'getJob'>>().toEqualTypeOf<Job>();
    expectTypeOf<OperationResult<'createGroup'>>().toEqualTypeOf<Group>();
    expectTypeOf<OperationResult<'listRuns'>>().toEqualTypeOf<RunPage>();
    expectTypeOf<OperationResult<'triggerJob'>>().toEqualTypeOf<TriggerAccepted>();
    expectTypeOf<OperationResult<'deleteJob'>>().toEqualTypeOf<undefined>();
    expectTypeOf<TickringClient['deleteGroup']>().returns.toEqualTypeOf<Promise<undefined>>();
  });

  it('makes the input optional only when nothing in it is required', () => {
    expectTypeOf<TickringClient['listGroups']>().parameters.toEqualTypeOf<
      [input?: OperationInput<'listGroups'>]
    >();
    expectTypeOf<keyof OperationInput<'listGroups'>>().toEqualTypeOf<never>();
    expectTypeOf<TickringClient['getRun']>().parameters.toEqualTypeOf<[input: { path: { logId: number } }]>();
  });

  it('pages listJobs and listRuns, not the other operations', () => {
    expectTypeOf<'listJobs' | 'listRuns'>().toExtend<PagedOperationId>();
    expectTypeOf<'listGroups'>().not.toExtend<PagedOperationId>();
    expectTypeOf<'listExecutors'>().not.toExtend<PagedOperationId>();
    expectTypeOf<'getJob'>().not.toExtend<PagedOperationId>();
    expectTypeOf<PageItem<'listRuns'>>().toEqualTypeOf<Run>();
    expectTypeOf<PageItem<'listJobs'>>().toEqualTypeOf<Job>();
  });
});
