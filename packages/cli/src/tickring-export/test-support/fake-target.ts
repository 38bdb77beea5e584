/**
 * For tests: a tickring server in memory, as much of it as the import uses: it lists its groups, jobs
 * and workflows as the API shows them, takes the import's writes (numbering jobs and workflows as the
 * server does, a workflow with a schedule getting its schedule job), and refuses what `refuse` says.
 */
import type { Group, Job, Workflow } from '@tickring/client';
import type { ImportTarget, JobCreateBody, WorkflowCreateBody } from '../apply.js';
import type { ExistingState } from '../plan.js';

export interface FakeTarget extends ImportTarget {
  readonly groups: Group[];
  readonly jobs: Job[];
  readonly workflows: Workflow[];
  /** Every write, in order (`createJob #5`, `setChildJobs #5 [6,7]`, ...). */
  readonly calls: string[];
  /** Throws this message instead of doing the call when it returns one. */
  refuse: (call: string) => string | undefined;
  state(): ExistingState;
}

const AT = '2030-01-01T00:00:00.000Z';

export function fakeTarget(
  seed: { groups?: Group[]; jobs?: Job[]; workflows?: Workflow[] } = {},
): FakeTarget {
  const groups = [...(seed.groups ?? [])];
  const jobs = [...(seed.jobs ?? [])];
  const workflows = [...(seed.workflows ?? [])];
  let nextJobId = Math.max(0, ...jobs.map((j) => j.id)) + 1;
  let nextWorkflowId = Math.max(0, ...workflows.map((w) => w.id)) + 1;
  const calls: string[] = [];
  const target: FakeTarget = {
    groups,
    jobs,
    workflows,
    calls,
    refuse: () => undefined,
    state: () => structuredClone({ groups, jobs, workflows }),
    async createGroup(body) {
      write(`createGroup ${body.appName}`);
      groups.push(group(body));
      return {};
    },
    async createJob(body) {
      write(`createJob ${body.name}`);
      const created = job(nextJobId++, body);
      jobs.push(created);
      return { id: created.id };
    },
    async setChildJobs(id, childJobIds) {
      write(`setChildJobs #${id} [${childJobIds.join(',')}]`);
      const found = jobs.find((j) => j.id === id);
      if (!found) throw new Error(`job ${id} not found`);
      found.childJobIds = [...childJobIds];
      return {};
    },
    async createWorkflow(body) {
      write(`createWorkflow ${body.name}`);
      const id = nextWorkflowId++;
      let starterJobId: number | null = null;
      if (body.scheduleType !== 'NONE') {
        const starter = job(nextJobId++, { ...starterFields, appName: body.appName, name: `workflow ${id}` });
        starter.workflowId = id;
        jobs.push(starter);
        starterJobId = starter.id;
      }
      workflows.push(workflow(id, starterJobId, body));
      return { id, starterJobId };
    },
    async startJob(id) {
      write(`startJob #${id}`);
      const found = jobs.find((j) => j.id === id);
      if (found) found.triggerStatus = 'RUNNING';
      return {};
    },
    async startWorkflow(id) {
      write(`startWorkflow #${id}`);
      const found = workflows.find((w) => w.id === id);
      if (found) found.triggerStatus = 'RUNNING';
      return {};
    },
  };
  function write(call: string): void {
    const refusal = target.refuse(call);
    if (refusal !== undefined) throw new Error(refusal);
    calls.push(call);
  }
  return target;
}

const starterFields: Omit<JobCreateBody, 'appName' | 'name'> = {
  author: 'workflow',
  alarmEmail: '',
  alarmWebhook: '',
  scheduleType: 'CRON',
  scheduleConf: '0 0 2 * * ?',
  timeZone: 'UTC',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: null,
  maxRuns: null,
  jitterSeconds: 0,
  calendars: { only: [], exclude: [] },
  executorRouteStrategy: 'FIRST',
  executorHandler: '',
  executorParam: '',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  executorFailRetryCount: 0,
  retryBackoffSeconds: 10,
  glueType: 'BEAN',
  glueSource: '',
  childJobIds: [],
  triggerStatus: 'STOPPED',
};

export function group(body: {
  appName: string;
  title: string;
  addressType: 'AUTO' | 'MANUAL';
  addressList?: string[];
}): Group {
  return {
    appName: body.appName,
    title: body.title,
    addressType: body.addressType,
    addressList: body.addressList ?? [],
    alertChannels: [],
    accessTokenSetAt: null,
    createdAt: AT,
    updatedAt: AT,
  };
}

export function job(id: number, body: JobCreateBody | (Omit<Job, 'id'> & Record<string, unknown>)): Job {
  return {
    runsRemaining: null,
    scheduleEnded: null,
    failurePolicy: null,
    deadline: null,
    pausedBy: null,
    occurrenceExceptions: [],
    logRetentionDays: null,
    keepSuccessfulRuns: null,
    ...(body as JobCreateBody),
    id,
    childJobIds: [...body.childJobIds],
    triggerNextTime: null,
    triggerLastTime: null,
    glueUpdatetime: AT,
    scheduleRevision: 1,
    version: 1,
    workflowId: null,
    createdAt: AT,
    updatedAt: AT,
  };
}

export function workflow(
  id: number,
  starterJobId: number | null,
  body:
    | WorkflowCreateBody
    | (Omit<WorkflowCreateBody, 'triggerStatus'> & { triggerStatus: 'RUNNING' | 'STOPPED' }),
): Workflow {
  return {
    startAt: null,
    endAt: null,
    maxRuns: null,
    jitterSeconds: 0,
    runsRemaining: null,
    scheduleEnded: null,
    deadline: null,
    ...body,
    deadlineStatus: null,
    // As the API answers: both lists, empty when not named.
    calendars: { only: [...(body.calendars?.only ?? [])], exclude: [...(body.calendars?.exclude ?? [])] },
    id,
    version: 1,
    nodes: body.nodes.map((n) => ({ ...n, upstream: n.upstream.map((e) => ({ ...e })) })),
    starterJobId,
    triggerNextTime: null,
    activeRuns: 0,
    bufferedRunId: null,
    createdAt: AT,
    updatedAt: AT,
  };
}
