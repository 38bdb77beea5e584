import {
  FakeClock,
  MemoryCalendarStore,
  MemoryGroupStore,
  MemoryJobStore,
  MemoryWorkflowStore,
  makeJob,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { Calendar } from '../calendars/calendar.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { problemsOf, type ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { type AdminWorkflowsDeps, createWorkflow, updateWorkflow } from './admin-workflows.js';

// Thursday 26 September 2030, 00:00 in Shanghai.
const NOW = Date.parse('2030-09-25T16:00:00Z');

const cn: Calendar = {
  id: 'cn',
  ...parseCalendarSpec({
    name: 'China',
    timeZone: 'Asia/Shanghai',
    excluded: [{ from: '2030-09-26', to: '2030-10-07', label: 'Closed' }],
  }),
  version: 1,
  createdAt: NOW,
  updatedAt: NOW,
  updatedBy: 'ana',
};

async function setUp(): Promise<AdminWorkflowsDeps & { jobs: MemoryJobStore }> {
  const calendars = new MemoryCalendarStore();
  await calendars.create(cn);
  const groups = new MemoryGroupStore();
  await groups.create({
    appName: 'etl-app',
    title: 'ETL',
    addressType: 'AUTO',
    addressList: [],
    createdAt: NOW,
    updatedAt: NOW,
  });
  const jobs = new MemoryJobStore({ shardCount: 1 });
  await jobs.create(makeJob({ id: 1, appName: 'etl-app' }));
  const never = async () => {
    throw new Error('not used here');
  };
  return {
    workflows: new MemoryWorkflowStore(),
    engine: { start: never, cancel: never, retry: never, definition: never },
    jobs,
    groups,
    calendars,
    clock: new FakeClock(NOW),
    logger: silentLogger,
  };
}

const body = (extra: Record<string, unknown>) => ({
  name: 'nightly etl',
  appName: 'etl-app',
  scheduleType: 'CRON',
  scheduleConf: '0 0 9 * * ?',
  timeZone: 'Asia/Shanghai',
  nodes: [{ key: 'extract', jobId: 1 }],
  ...extra,
});

describe('a scheduled workflow’s calendars', () => {
  it('reach its schedule job, whose next fire is the first they allow; a change of them re-plans it', async () => {
    const deps = await setUp();
    const workflow = await createWorkflow(
      deps,
      body({ triggerStatus: 'RUNNING', calendars: { only: ['cn'] } }),
    );
    expect(workflow.definition.calendars).toEqual({ only: ['cn'] });
    const starter = await deps.jobs.get(workflow.starterJobId ?? 0);
    expect(starter?.calendars).toEqual({ only: ['cn'] });
    expect(new Date(starter?.triggerNextTime ?? 0).toISOString()).toBe('2030-10-08T01:00:00.000Z');

    await updateWorkflow(deps, workflow.id, body({ calendars: null }));
    const after = await deps.jobs.get(workflow.starterJobId ?? 0);
    expect(after?.calendars).toBeUndefined();
    expect(new Date(after?.triggerNextTime ?? 0).toISOString()).toBe('2030-09-26T01:00:00.000Z');
    expect(after?.scheduleRevision).toBe((starter?.scheduleRevision ?? 0) + 1);
  });

  it('refuses calendars that do not exist and a malformed list with the definition’s other problems, saving nothing', async () => {
    const deps = await setUp();
    const err = await createWorkflow(
      deps,
      body({ calendars: { only: ['nope'] }, overlapPolicy: 'SOMETIMES' }),
    ).catch((e: ValidationError) => e);
    expect(problemsOf(err as ValidationError).map((p) => p.field)).toEqual([
      'overlapPolicy',
      'calendars.only',
    ]);
    const missing = await createWorkflow(
      deps,
      body({ calendars: { only: ['nope'], exclude: ['cn'] } }),
    ).catch((e: ValidationError) => e);
    expect(problemsOf(missing as ValidationError)).toEqual([
      {
        field: 'calendars.only',
        message:
          'calendars.only names calendars that do not exist: nope; create them first (POST /v1/calendars)',
      },
    ]);
    const malformed = await createWorkflow(deps, body({ calendars: { only: 'cn' } })).catch(
      (e: ValidationError) => e,
    );
    expect(problemsOf(malformed as ValidationError)).toEqual([
      { field: 'calendars.only', message: 'calendars.only must be an array of calendar ids; got "cn"' },
    ]);
    expect((await deps.workflows.list({ limit: 10 })).items).toEqual([]);
  });
});
