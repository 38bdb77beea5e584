/** The routes of workflows (DAGs of jobs of one group) and their runs. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import {
  Workflow,
  WorkflowIdParam,
  WorkflowListQuery,
  WorkflowPage,
  WorkflowRequest,
  WorkflowRun,
  WorkflowRunIdParam,
  WorkflowRunListQuery,
  WorkflowRunPage,
  WorkflowTriggerRequest,
} from './schemas-workflows.js';

const workflowIdParams = Type.Object({ id: WorkflowIdParam });
const runIdParams = Type.Object({ runId: WorkflowRunIdParam });

// Examples, shown by the document (a test checks each against its schema).
const T0 = '2030-01-01T02:00:00.000Z';
const definition = {
  name: 'Nightly ETL',
  appName: 'my-app',
  scheduleType: 'CRON',
  scheduleConf: '0 0 2 * * ?',
  timeZone: 'Europe/Berlin',
  misfireStrategy: 'DO_NOTHING',
  calendars: { only: ['de-workdays'], exclude: [] },
  overlapPolicy: 'SKIP',
  deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
  nodes: [
    { key: 'extract', jobId: 7, executorParam: '{{ input.date }}', upstream: [] },
    {
      key: 'load',
      jobId: 8,
      executorParam: '{{ nodes.extract.result.file }}',
      upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
    },
    { key: 'cleanup', jobId: 9, upstream: [{ key: 'load', condition: 'ALWAYS' }] },
  ],
};
const exampleWorkflow = {
  id: 3,
  version: 2,
  ...definition,
  startAt: null,
  endAt: '2030-12-31T23:59:59.000Z',
  maxRuns: null,
  jitterSeconds: 0,
  triggerStatus: 'RUNNING',
  starterJobId: 12,
  triggerNextTime: '2030-01-02T01:00:00.000Z',
  runsRemaining: null,
  scheduleEnded: null,
  deadlineStatus: {
    window: { from: '2030-01-01T05:00:00.000Z', to: '2030-01-02T05:00:00.000Z' },
    state: 'pending',
    at: null,
  },
  activeRuns: 0,
  bufferedRunId: null,
  createdAt: T0,
  updatedAt: T0,
};
const runHead = {
  id: 'wr-m5x8k2a1-3f9c1d2e6b8a',
  workflowId: 3,
  version: 2,
  workflowName: 'Nightly ETL',
  appName: 'my-app',
  status: 'RUNNING',
  input: { date: '2030-01-01' },
  trigger: { type: 'MANUAL', starterLogId: null, scheduledTime: null, by: 'ana' },
  createdAt: T0,
  startedAt: T0,
  finishedAt: null,
  failedNodes: [],
};
const exampleRun = {
  ...runHead,
  nodes: [
    {
      key: 'extract',
      jobId: 7,
      status: 'SUCCEEDED',
      attempt: 1,
      upstream: [],
      result: '{"file": "s3://etl/2030-01-01.csv"}',
      resultJson: { file: 's3://etl/2030-01-01.csv' },
      reason: null,
      logIds: [30064771073 + 2 ** 31],
      firedAt: T0,
      finishedAt: '2030-01-01T02:00:41.200Z',
    },
    {
      key: 'load',
      jobId: 8,
      status: 'RUNNING',
      attempt: 1,
      upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
      result: null,
      resultJson: null,
      reason: null,
      logIds: [34359738369 + 2 ** 31],
      firedAt: '2030-01-01T02:00:41.300Z',
      finishedAt: null,
    },
    {
      key: 'cleanup',
      jobId: 9,
      status: 'PENDING',
      attempt: 0,
      upstream: [{ key: 'load', condition: 'ALWAYS' }],
      result: null,
      resultJson: null,
      reason: null,
      logIds: [],
      firedAt: null,
      finishedAt: null,
    },
  ],
};
const exampleCancelled = {
  ...exampleRun,
  status: 'CANCELLED',
  finishedAt: '2030-01-01T02:01:00.000Z',
  nodes: exampleRun.nodes.map((node) =>
    node.status === 'PENDING'
      ? {
          ...node,
          status: 'CANCELLED',
          reason: 'the run was cancelled',
          finishedAt: '2030-01-01T02:01:00.000Z',
        }
      : node,
  ),
};

const body = {
  schema: WorkflowRequest,
  required: true,
  checkedBy: 'use-case',
  examples: {
    scheduled: {
      summary: 'Every night at 02:00, Berlin time: extract, then load, then clean up',
      value: definition,
    },
    triggered: {
      summary: 'Run by hand only, with a failure handler',
      value: {
        name: 'Backfill',
        appName: 'my-app',
        overlapPolicy: 'BUFFER_ONE',
        nodes: [
          { key: 'backfill', jobId: 7, executorParam: '{{ input.from }}..{{ input.to }}' },
          { key: 'page', jobId: 10, upstream: [{ key: 'backfill', condition: 'ON_FAILURE' }] },
        ],
      },
    },
  },
} as const;

const WORKFLOW_NOT_FOUND = 'No workflow has this id.';
const RUN_NOT_FOUND = 'No workflow run has this id (or it expired).';

export const WORKFLOW_ROUTES = {
  listWorkflows: defineRoute({
    operationId: 'listWorkflows',
    method: 'GET',
    path: '/v1/workflows',
    tags: ['workflows'],
    access: { kind: 'read', target: 'list' },
    query: WorkflowListQuery,
    summary: 'List workflows',
    description: 'Workflows page by page, optionally of one group; only the groups the caller sees.',
    responses: {
      200: {
        description: 'A page of workflows.',
        schema: WorkflowPage,
        example: { items: [exampleWorkflow], nextCursor: null },
      },
    },
  }),
  createWorkflow: defineRoute({
    operationId: 'createWorkflow',
    method: 'POST',
    path: '/v1/workflows',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'bodyGroup' },
    audit: { action: 'workflow.create', target: 'workflow', idFrom: 'result' },
    summary: 'Create a workflow',
    description:
      'A workflow with a new id, version 1; STOPPED unless the body says RUNNING. A schedule other than NONE gets a schedule job in the group (`starterJobId`), which the workflow manages. The body is checked as a whole and every problem is answered at once (400): fields, keys, upstream keys, each cycle named, templates, the group, and every node’s job (it must exist and be of the group).',
    body: { ...body, description: 'The workflow.' },
    responses: {
      201: {
        description: 'Created.',
        schema: Workflow,
        example: { ...exampleWorkflow, version: 1, triggerStatus: 'STOPPED', triggerNextTime: null },
      },
    },
  }),
  getWorkflow: defineRoute({
    operationId: 'getWorkflow',
    method: 'GET',
    path: '/v1/workflows/{id}',
    tags: ['workflows'],
    access: { kind: 'read', target: 'workflowPath' },
    params: workflowIdParams,
    summary: 'Read a workflow',
    description: 'One workflow: its current definition, schedule and runs in progress.',
    responses: { 200: { description: 'The workflow.', schema: Workflow, example: exampleWorkflow } },
    errors: { 404: WORKFLOW_NOT_FOUND },
  }),
  updateWorkflow: defineRoute({
    operationId: 'updateWorkflow',
    method: 'PUT',
    path: '/v1/workflows/{id}',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.update', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Change a workflow',
    description:
      'Replaces the definition with the body’s: a new version (runs in progress keep theirs). A `version` in the body must be the workflow’s (409 otherwise); `triggerStatus` may come along (absent: unchanged). Checked as on create, every problem at once. Its schedule job follows the new schedule.',
    body: { ...body, description: 'The whole definition (a workflow read with GET, changed, is fine).' },
    responses: {
      200: { description: 'The workflow as changed.', schema: Workflow, example: exampleWorkflow },
    },
    errors: {
      404: WORKFLOW_NOT_FOUND,
      409: 'The body’s version is not the workflow’s: read it again and retry.',
    },
  }),
  deleteWorkflow: defineRoute({
    operationId: 'deleteWorkflow',
    method: 'DELETE',
    path: '/v1/workflows/{id}',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.delete', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Delete a workflow',
    description:
      'Deletes the workflow and its schedule job. Refused while a run of it is running or waiting: cancel them first. Its ended runs stay readable until they expire.',
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: WORKFLOW_NOT_FOUND, 409: 'A run of the workflow is running or waiting (QUEUED).' },
  }),
  startWorkflow: defineRoute({
    operationId: 'startWorkflow',
    method: 'POST',
    path: '/v1/workflows/{id}/start',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.start', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Start a workflow’s schedule',
    description:
      'Its schedule fires from now on (the first fire after now + 5 s); a running one is left as it is. A NONE schedule, or one that never fires again, cannot be started (400).',
    responses: { 200: { description: 'The workflow, RUNNING.', schema: Workflow, example: exampleWorkflow } },
    errors: { 404: WORKFLOW_NOT_FOUND },
  }),
  stopWorkflow: defineRoute({
    operationId: 'stopWorkflow',
    method: 'POST',
    path: '/v1/workflows/{id}/stop',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.stop', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Stop a workflow’s schedule',
    description:
      'Its schedule fires no more (fires already planned are dropped); runs in progress go on, and it can still be triggered.',
    responses: {
      200: {
        description: 'The workflow, STOPPED.',
        schema: Workflow,
        example: { ...exampleWorkflow, triggerStatus: 'STOPPED', triggerNextTime: null },
      },
    },
    errors: { 404: WORKFLOW_NOT_FOUND },
  }),
  triggerWorkflow: defineRoute({
    operationId: 'triggerWorkflow',
    method: 'POST',
    path: '/v1/workflows/{id}/trigger',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.trigger', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Run a workflow once, now',
    description:
      'Starts a run of the current version with the body’s input, whatever the schedule’s status, as the overlap policy allows: started (RUNNING, its root nodes fired), or QUEUED (BUFFER_ONE, while another runs); under SKIP while another runs, or BUFFER_ONE with one waiting already, it is not started (409, naming the policy).',
    body: {
      schema: WorkflowTriggerRequest,
      required: false,
      description: 'The run’s input; no body for `{}`.',
      examples: {
        plain: { summary: 'No input', value: {} },
        input: { summary: 'An input the templates read', value: { input: { date: '2030-01-01' } } },
      },
    },
    responses: {
      202: {
        description: 'Accepted: the run is started (or waits), its nodes run asynchronously.',
        schema: WorkflowRun,
        example: {
          ...exampleRun,
          nodes: exampleRun.nodes.map((node) =>
            node.key === 'extract'
              ? { ...node, status: 'RUNNING', result: null, resultJson: null, logIds: [], finishedAt: null }
              : { ...node, status: 'PENDING', attempt: 0, logIds: [], firedAt: null },
          ),
        },
      },
    },
    errors: {
      404: WORKFLOW_NOT_FOUND,
      409: 'The overlap policy did not start it (SKIP while a run is running; BUFFER_ONE with a run waiting already).',
    },
  }),

  listWorkflowRuns: defineRoute({
    operationId: 'listWorkflowRuns',
    method: 'GET',
    path: '/v1/workflow-runs',
    tags: ['workflows'],
    access: { kind: 'read', target: 'list' },
    query: WorkflowRunListQuery,
    summary: 'List workflow runs',
    description:
      'Runs of workflows, newest first, page by page, optionally of one workflow or group or in one status; only the groups the caller sees. Each run with its nodes counted by status (GET a run for its nodes). A page may come back short, with a cursor.',
    responses: {
      200: {
        description: 'A page of runs.',
        schema: WorkflowRunPage,
        example: {
          items: [
            {
              ...runHead,
              nodeCounts: { PENDING: 1, RUNNING: 1, SUCCEEDED: 1, FAILED: 0, SKIPPED: 0, CANCELLED: 0 },
            },
          ],
          nextCursor: null,
        },
      },
    },
  }),
  getWorkflowRun: defineRoute({
    operationId: 'getWorkflowRun',
    method: 'GET',
    path: '/v1/workflow-runs/{runId}',
    tags: ['workflows'],
    access: { kind: 'read', target: 'workflowRunPath' },
    params: runIdParams,
    summary: 'Read a workflow run',
    description:
      'One run with every node of its definition version, in definition order: status, attempt, result, and the job runs of its current attempt (GET /v1/logs/{logId} for each).',
    responses: { 200: { description: 'The run.', schema: WorkflowRun, example: exampleRun } },
    errors: { 404: RUN_NOT_FOUND },
  }),
  retryWorkflowRun: defineRoute({
    operationId: 'retryWorkflowRun',
    method: 'POST',
    path: '/v1/workflow-runs/{runId}/retry',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowRunPath' },
    audit: { action: 'workflowRun.retry', target: 'workflowRun' },
    params: runIdParams,
    summary: 'Resume a failed or cancelled workflow run',
    description:
      'Runs again, as a new attempt each, the nodes whose failure was not handled, the cancelled ones and those skipped because of them; succeeded nodes keep their results and do not run again. The run is RUNNING again.',
    responses: { 200: { description: 'The run, RUNNING again.', schema: WorkflowRun, example: exampleRun } },
    errors: {
      404: RUN_NOT_FOUND,
      409: 'The run is not FAILED or CANCELLED (it is QUEUED, RUNNING or SUCCEEDED), or a node of it is still running (a cancelled run whose node has not finished yet).',
    },
  }),
  cancelWorkflowRun: defineRoute({
    operationId: 'cancelWorkflowRun',
    method: 'POST',
    path: '/v1/workflow-runs/{runId}/cancel',
    tags: ['workflows'],
    access: { kind: 'operate', target: 'workflowRunPath' },
    audit: { action: 'workflowRun.cancel', target: 'workflowRun' },
    params: runIdParams,
    summary: 'Cancel a workflow run',
    description:
      'Nothing more of the run is fired: its pending nodes are CANCELLED and the job runs of its running nodes are killed (their outcomes are still recorded when they come); a QUEUED run is dropped. The run is CANCELLED at once; it can be resumed (retry) once no node runs.',
    responses: {
      200: { description: 'The run, CANCELLED.', schema: WorkflowRun, example: exampleCancelled },
    },
    errors: { 404: RUN_NOT_FOUND, 409: 'The run has ended already.' },
  }),
} as const;
