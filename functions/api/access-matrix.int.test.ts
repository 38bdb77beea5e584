import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_ROUTES } from '@tickring/api/contract';
import type { RouteAccess } from '@tickring/core/identity';
import { createExecutor, type Executor, silentLogger } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedLocalStack, startLocal } from '../../local/start-local.js';
import { callApi, type ApiReply as Reply } from '../../test/api-call.js';
import { CHEAP_PASSWORD_HASHING } from '../../test/password-hashing.js';
import { waitFor } from '../../test/stand-ins.js';

/**
 * Every /v1 route × every kind of caller: the status each gets, from the route's access in the
 * route table. A route added without a case here fails the first test; a route whose access does
 * not hold for some caller fails its own. Callers: an admin, an operator and a viewer of the
 * request's group (A), an operator and a viewer of another group (B), an expired and a revoked API
 * token, a disabled user's session, and no token. Sessions and API tokens are mixed across the
 * roles so both kinds of credential are checked.
 */

const suffix = randomUUID().slice(0, 8);
const A = `matrix-a-${suffix}`;
const B = `matrix-b-${suffix}`;
const PASSWORD = 'a long enough passphrase 1';
const YEARLY = '0 0 0 1 1 ?';

const CALLERS = [
  'admin',
  'operatorA',
  'viewerA',
  'operatorB',
  'viewerB',
  'expiredToken',
  'revokedToken',
  'disabledUser',
  'noToken',
] as const;
type CallerName = (typeof CALLERS)[number];
/** Callers whose credential is an API token (no session: no sign-out, no password). */
const TOKEN_CALLERS: ReadonlySet<CallerName> = new Set(['operatorB', 'viewerA']);

interface Request {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** The status when the caller is allowed (per caller when it differs). */
  readonly allowed: number | ((caller: CallerName) => number);
}

let stack: EmbeddedLocalStack;
let bootstrap: string;
let executor: Executor;
let logRoot: string;
/** Each caller's bearer token; null: none sent. */
const credentials = new Map<CallerName, string | null>();
/** The user behind each session caller, and their current password. */
const users = new Map<CallerName, { username: string; password: string }>();
let jobA: number;
/** A job of A that finishes at once, for workflow nodes. */
let quickJobA: number;
let workflowA: number;
let workflowRunA: string;

function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = bootstrap,
): Promise<Reply> {
  return callApi(stack.urls.api, method, path, body, { token });
}

async function admin(
  method: string,
  path: string,
  body?: unknown,
  expected = [200, 201, 202, 204],
): Promise<Reply> {
  const reply = await call(method, path, body);
  expect(expected, `${method} ${path}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
  return reply;
}

let serial = 0;
const unique = (prefix: string) => `${prefix}-${suffix}-${++serial}`;

async function newUser(
  role: string,
  groups: string[] | '*',
): Promise<{ username: string; password: string }> {
  const username = unique('u');
  await admin('POST', '/v1/users', { username, password: PASSWORD, role, groups, displayName: username });
  return { username, password: PASSWORD };
}

async function signIn(user: { username: string; password: string }): Promise<string> {
  const reply = await call('POST', '/v1/sessions', user, null);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.token;
}

async function newToken(
  role: string,
  groups: string[] | '*',
  expiry: Record<string, unknown> = { expiresInDays: 1 },
) {
  const reply = await admin('POST', '/v1/tokens', { name: unique('t'), role, groups, ...expiry });
  return { id: reply.body.id as string, secret: reply.body.token as string };
}

/** A running hourly job of group A and the scheduled time of its second fire (well past the 15 s lead). */
async function hourlyJob(): Promise<{ id: number; time: string }> {
  const id = await newJob(A, { scheduleType: 'CRON', scheduleConf: '0 0 * * * ?', triggerStatus: 'RUNNING' });
  const job = (await admin('GET', `/v1/jobs/${id}`)).body;
  return { id, time: new Date(Date.parse(job.triggerNextTime) + 3_600_000).toISOString() };
}

async function newJob(appName = A, fields: Record<string, unknown> = {}): Promise<number> {
  const reply = await admin('POST', '/v1/jobs', {
    appName,
    name: unique('job'),
    author: 'matrix',
    executorHandler: 'waitForKill',
    ...fields,
  });
  return reply.body.id;
}

/** A run of a job in A, running on the executor (it waits to be killed). */
async function runningRun(): Promise<number> {
  const fire = await admin('POST', `/v1/jobs/${jobA}/trigger`);
  const logId = fire.body.logId as number;
  await waitFor(
    async () => {
      const run = await call('GET', `/v1/logs/${logId}`);
      return run.status === 200 && run.body.status === 'running' && run.body.triggerCode === 200;
    },
    { what: `run ${logId} running`, timeoutMs: 20_000, intervalMs: 100 },
  );
  return logId;
}

/** A workflow of group A (NONE schedule unless `fields` say otherwise) whose one node runs `jobId`. */
async function newWorkflow(fields: Record<string, unknown> = {}, jobId = quickJobA): Promise<number> {
  const reply = await admin('POST', '/v1/workflows', {
    name: unique('wf'),
    appName: A,
    nodes: [{ key: 'only', jobId }],
    ...fields,
  });
  return reply.body.id;
}

/** A run of a workflow of A: RUNNING (its node waits to be killed), or FAILED (its node's parameter cannot be rendered). */
async function newWorkflowRun(outcome: 'RUNNING' | 'FAILED'): Promise<string> {
  const id =
    outcome === 'RUNNING'
      ? await newWorkflow({}, jobA)
      : await newWorkflow({
          nodes: [{ key: 'only', jobId: quickJobA, executorParam: '{{ input.missing }}' }],
        });
  const run = await admin('POST', `/v1/workflows/${id}/trigger`);
  await waitFor(async () => (await call('GET', `/v1/workflow-runs/${run.body.id}`)).body.status === outcome, {
    what: `workflow run ${run.body.id} ${outcome}`,
    timeoutMs: 10_000,
  });
  return run.body.id;
}

/** A calendar (it belongs to no group); its id. */
async function newCalendar(): Promise<string> {
  const id = unique('cal').toLowerCase();
  await admin('POST', '/v1/calendars', { id, name: 'matrix', excluded: [{ from: '2030-10-01' }] });
  return id;
}
/** A RUNNING backfill of a fresh hourly job of A (its first fire waits to be killed); its id. */
async function newBackfill(): Promise<string> {
  const jobId = await newJob(A, { scheduleType: 'CRON', scheduleConf: HOURLY });
  const reply = await admin('POST', `/v1/jobs/${jobId}/backfill`, lastHours(2));
  return reply.body.id;
}
/** An alert channel (the deployment's, admin only); its id. */
async function newAlertChannel(
  body: Record<string, unknown> = {
    name: 'matrix',
    kind: 'slack',
    url: 'https://hooks.slack.com/services/T/B/X',
  },
): Promise<string> {
  const reply = await admin('POST', '/v1/alert-channels', body);
  return reply.body.id;
}
/** A silence of the alerts of a job of A for an hour; its id. */
async function newAlertSilence(): Promise<string> {
  const reply = await admin('POST', '/v1/alert-silences', silenceBody());
  return reply.body.id;
}
const silenceBody = () => ({
  jobId: jobA,
  kind: 'runFailed',
  to: new Date(Date.now() + 3_600_000).toISOString(),
  reason: 'matrix',
});
const HOURLY = '0 0 * * * ?';
const lastHours = (hours: number) => ({
  from: new Date(Date.now() - hours * 3_600_000).toISOString(),
  to: new Date().toISOString(),
});
const ICS = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//matrix//EN', 'END:VCALENDAR', ''].join('\r\n');

const newGroup = async () => {
  const appName = unique('g');
  await admin('POST', '/v1/groups', { appName, title: 'matrix', addressType: 'AUTO' });
  return appName;
};
const signedInOnly = (ok: number) => (caller: CallerName) => (TOKEN_CALLERS.has(caller) ? 400 : ok);

/** How each route is called: a fresh target where the call changes or removes it. */
const CASES: Readonly<Record<string, (caller: CallerName) => Promise<Request>>> = {
  listGroups: async () => ({ method: 'GET', path: '/v1/groups', allowed: 200 }),
  createGroup: async () => ({
    method: 'POST',
    path: '/v1/groups',
    body: { appName: unique('g'), title: 'matrix', addressType: 'AUTO' },
    allowed: 201,
  }),
  getGroup: async () => ({ method: 'GET', path: `/v1/groups/${A}`, allowed: 200 }),
  updateGroup: async () => ({
    method: 'PUT',
    path: `/v1/groups/${await newGroup()}`,
    body: { title: 'renamed' },
    allowed: 200,
  }),
  deleteGroup: async () => ({ method: 'DELETE', path: `/v1/groups/${await newGroup()}`, allowed: 204 }),
  setGroupAccessToken: async () => ({
    method: 'PUT',
    path: `/v1/groups/${await newGroup()}/access-token`,
    body: {},
    allowed: 200,
  }),
  clearGroupAccessToken: async () => ({
    method: 'DELETE',
    path: `/v1/groups/${await newGroup()}/access-token`,
    allowed: 204,
  }),
  listJobs: async () => ({ method: 'GET', path: '/v1/jobs', allowed: 200 }),
  createJob: async () => ({
    method: 'POST',
    path: '/v1/jobs',
    body: { appName: A, name: unique('job'), author: 'matrix', executorHandler: 'waitForKill' },
    allowed: 201,
  }),
  getJob: async () => ({ method: 'GET', path: `/v1/jobs/${jobA}`, allowed: 200 }),
  updateJob: async () => ({
    method: 'PUT',
    path: `/v1/jobs/${await newJob()}`,
    body: { author: 'edited' },
    allowed: 200,
  }),
  deleteJob: async () => ({ method: 'DELETE', path: `/v1/jobs/${await newJob()}`, allowed: 204 }),
  startJob: async () => ({
    method: 'POST',
    path: `/v1/jobs/${await newJob(A, { scheduleType: 'CRON', scheduleConf: YEARLY })}/start`,
    allowed: 200,
  }),
  stopJob: async () => ({ method: 'POST', path: `/v1/jobs/${await newJob()}/stop`, allowed: 200 }),
  triggerJob: async () => ({
    method: 'POST',
    path: `/v1/jobs/${await newJob(A, { executorHandler: 'quick' })}/trigger`,
    allowed: 202,
  }),
  listOccurrences: async () => ({ method: 'GET', path: `/v1/jobs/${jobA}/occurrences`, allowed: 200 }),
  skipOccurrence: async () => {
    const { id, time } = await hourlyJob();
    return { method: 'POST', path: `/v1/jobs/${id}/occurrences/${time}/skip`, body: {}, allowed: 200 };
  },
  moveOccurrence: async () => {
    const { id, time } = await hourlyJob();
    const to = new Date(Date.parse(time) + 60_000).toISOString();
    return { method: 'POST', path: `/v1/jobs/${id}/occurrences/${time}/move`, body: { to }, allowed: 200 };
  },
  restoreOccurrence: async () => {
    const { id, time } = await hourlyJob();
    await admin('POST', `/v1/jobs/${id}/occurrences/${time}/skip`, {});
    return { method: 'DELETE', path: `/v1/jobs/${id}/occurrences/${time}`, allowed: 200 };
  },
  previewBackfill: async () => ({
    method: 'POST',
    path: `/v1/jobs/${await newJob(A, { scheduleType: 'CRON', scheduleConf: HOURLY })}/backfill/preview`,
    body: lastHours(3),
    allowed: 200,
  }),
  // A yearly job has no fire in the last hour: the backfill ends at once, so a job may take many.
  startBackfill: async () => ({
    method: 'POST',
    path: `/v1/jobs/${await newJob(A, { scheduleType: 'CRON', scheduleConf: YEARLY })}/backfill`,
    body: lastHours(1),
    allowed: 202,
  }),
  listJobBackfills: async () => ({ method: 'GET', path: `/v1/jobs/${jobA}/backfills`, allowed: 200 }),
  previewWorkflowBackfill: async () => ({
    method: 'POST',
    path: `/v1/workflows/${await newWorkflow({ scheduleType: 'CRON', scheduleConf: HOURLY })}/backfill/preview`,
    body: lastHours(3),
    allowed: 200,
  }),
  // A yearly workflow has no fire in the last hour: the backfill ends at once.
  startWorkflowBackfill: async () => ({
    method: 'POST',
    path: `/v1/workflows/${await newWorkflow({ scheduleType: 'CRON', scheduleConf: YEARLY })}/backfill`,
    body: lastHours(1),
    allowed: 202,
  }),
  listWorkflowBackfills: async () => ({
    method: 'GET',
    path: `/v1/workflows/${workflowA}/backfills`,
    allowed: 200,
  }),
  getBackfill: async () => ({ method: 'GET', path: `/v1/backfills/${await newBackfill()}`, allowed: 200 }),
  cancelBackfill: async () => ({
    method: 'POST',
    path: `/v1/backfills/${await newBackfill()}/cancel`,
    allowed: 200,
  }),
  previewSchedule: async () => ({
    method: 'GET',
    path: '/v1/schedule/preview?scheduleType=CRON&scheduleConf=0+0+*+*+*+%3F&count=2',
    allowed: 200,
  }),
  listRuns: async () => ({ method: 'GET', path: '/v1/logs', allowed: 200 }),
  getRun: async () => ({ method: 'GET', path: `/v1/logs/${await runningRun()}`, allowed: 200 }),
  getRunOutput: async () => ({ method: 'GET', path: `/v1/logs/${await runningRun()}/output`, allowed: 200 }),
  killRun: async () => ({ method: 'POST', path: `/v1/logs/${await runningRun()}/kill`, allowed: 200 }),
  listExecutors: async () => ({ method: 'GET', path: '/v1/executors', allowed: 200 }),
  dashboard: async () => ({ method: 'GET', path: '/v1/dashboard', allowed: 200 }),
  getActivity: async () => ({ method: 'GET', path: `/v1/activity?window=6h&appName=${A}`, allowed: 200 }),
  getOpenApiDocument: async () => ({ method: 'GET', path: '/v1/openapi.json', allowed: 200 }),

  listWorkflows: async () => ({ method: 'GET', path: '/v1/workflows', allowed: 200 }),
  createWorkflow: async () => ({
    method: 'POST',
    path: '/v1/workflows',
    body: { name: unique('wf'), appName: A, nodes: [{ key: 'only', jobId: quickJobA }] },
    allowed: 201,
  }),
  getWorkflow: async () => ({ method: 'GET', path: `/v1/workflows/${workflowA}`, allowed: 200 }),
  updateWorkflow: async () => ({
    method: 'PUT',
    path: `/v1/workflows/${await newWorkflow()}`,
    body: { name: unique('wf'), appName: A, nodes: [{ key: 'renamed', jobId: quickJobA }] },
    allowed: 200,
  }),
  deleteWorkflow: async () => ({
    method: 'DELETE',
    path: `/v1/workflows/${await newWorkflow()}`,
    allowed: 204,
  }),
  startWorkflow: async () => ({
    method: 'POST',
    path: `/v1/workflows/${await newWorkflow({ scheduleType: 'CRON', scheduleConf: YEARLY })}/start`,
    allowed: 200,
  }),
  stopWorkflow: async () => ({
    method: 'POST',
    path: `/v1/workflows/${await newWorkflow({ scheduleType: 'CRON', scheduleConf: YEARLY, triggerStatus: 'RUNNING' })}/stop`,
    allowed: 200,
  }),
  triggerWorkflow: async () => ({
    method: 'POST',
    path: `/v1/workflows/${await newWorkflow()}/trigger`,
    body: { input: { from: 'matrix' } },
    allowed: 202,
  }),
  listWorkflowRuns: async () => ({ method: 'GET', path: `/v1/workflow-runs?appName=${A}`, allowed: 200 }),
  getWorkflowRun: async () => ({ method: 'GET', path: `/v1/workflow-runs/${workflowRunA}`, allowed: 200 }),
  retryWorkflowRun: async () => ({
    method: 'POST',
    path: `/v1/workflow-runs/${await newWorkflowRun('FAILED')}/retry`,
    allowed: 200,
  }),
  cancelWorkflowRun: async () => ({
    method: 'POST',
    path: `/v1/workflow-runs/${await newWorkflowRun('RUNNING')}/cancel`,
    allowed: 200,
  }),

  getJobLedger: async () => ({
    method: 'GET',
    path: `/v1/jobs/${jobA}/ledger?from=${encodeURIComponent(lastHours(1).from)}&to=${encodeURIComponent(lastHours(1).to)}`,
    allowed: 200,
  }),
  getWorkflowLedger: async () => ({
    method: 'GET',
    path: `/v1/workflows/${workflowA}/ledger?from=${encodeURIComponent(lastHours(1).from)}&to=${encodeURIComponent(lastHours(1).to)}`,
    allowed: 200,
  }),

  listAlertChannels: async () => ({ method: 'GET', path: '/v1/alert-channels', allowed: 200 }),
  createAlertChannel: async () => ({
    method: 'POST',
    path: '/v1/alert-channels',
    body: { name: 'matrix', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/Y' },
    allowed: 201,
  }),
  updateAlertChannel: async () => ({
    method: 'PATCH',
    path: `/v1/alert-channels/${await newAlertChannel()}`,
    body: { name: 'renamed' },
    allowed: 200,
  }),
  // An email channel: on the embedded engine its message is a log line, so the test reaches no network.
  testAlertChannel: async () => ({
    method: 'POST',
    path: `/v1/alert-channels/${await newAlertChannel({ name: 'matrix mail', kind: 'email' })}/test`,
    allowed: 200,
  }),
  deleteAlertChannel: async () => ({
    method: 'DELETE',
    path: `/v1/alert-channels/${await newAlertChannel()}`,
    allowed: 204,
  }),
  listAlertSilences: async () => ({ method: 'GET', path: '/v1/alert-silences', allowed: 200 }),
  createAlertSilence: async () => ({
    method: 'POST',
    path: '/v1/alert-silences',
    body: silenceBody(),
    allowed: 201,
  }),
  deleteAlertSilence: async () => ({
    method: 'DELETE',
    path: `/v1/alert-silences/${await newAlertSilence()}`,
    allowed: 204,
  }),
  listAlerts: async () => ({ method: 'GET', path: '/v1/alerts', allowed: 200 }),

  listCalendars: async () => ({ method: 'GET', path: '/v1/calendars', allowed: 200 }),
  createCalendar: async () => ({
    method: 'POST',
    path: '/v1/calendars',
    body: { id: unique('cal').toLowerCase(), name: 'matrix' },
    allowed: 201,
  }),
  importCalendar: async () => ({
    method: 'POST',
    path: '/v1/calendars/import',
    body: { id: unique('cal').toLowerCase(), ics: ICS },
    allowed: 201,
  }),
  getCalendar: async () => ({ method: 'GET', path: `/v1/calendars/${await newCalendar()}`, allowed: 200 }),
  updateCalendar: async () => ({
    method: 'PUT',
    path: `/v1/calendars/${await newCalendar()}`,
    body: { name: 'edited', expectedVersion: 1 },
    allowed: 200,
  }),
  deleteCalendar: async () => ({
    method: 'DELETE',
    path: `/v1/calendars/${await newCalendar()}`,
    allowed: 204,
  }),
  listCalendarDays: async () => ({
    method: 'GET',
    path: `/v1/calendars/${await newCalendar()}/days?from=2030-09-30&to=2030-10-02`,
    allowed: 200,
  }),
  exportCalendar: async () => ({
    method: 'GET',
    path: `/v1/calendars/${await newCalendar()}/export`,
    allowed: 200,
  }),

  getSignInOptions: async () => ({ method: 'GET', path: '/v1/sign-in-options', allowed: 200 }),
  login: async () => {
    const user = await newUser('viewer', '*');
    return { method: 'POST', path: '/v1/sessions', body: user, allowed: 201 };
  },
  // Last for a caller (see ORDER): their session ends.
  logout: async () => ({ method: 'DELETE', path: '/v1/sessions/current', allowed: signedInOnly(204) }),
  getMe: async () => ({ method: 'GET', path: '/v1/me', allowed: 200 }),
  changeOwnPassword: async (caller) => {
    const user = users.get(caller);
    const next = `${PASSWORD} ${++serial}`;
    if (user) {
      const before = user.password;
      user.password = next;
      return {
        method: 'PUT',
        path: '/v1/me/password',
        body: { currentPassword: before, newPassword: next },
        allowed: signedInOnly(200),
      };
    }
    return {
      method: 'PUT',
      path: '/v1/me/password',
      body: { currentPassword: PASSWORD, newPassword: next },
      allowed: signedInOnly(200),
    };
  },
  listUsers: async () => ({ method: 'GET', path: '/v1/users', allowed: 200 }),
  createUser: async () => ({
    method: 'POST',
    path: '/v1/users',
    body: { username: unique('u'), password: PASSWORD, role: 'viewer', groups: [A] },
    allowed: 201,
  }),
  getUser: async () => ({
    method: 'GET',
    path: `/v1/users/${(await newUser('viewer', [A])).username}`,
    allowed: 200,
  }),
  updateUser: async () => ({
    method: 'PUT',
    path: `/v1/users/${(await newUser('viewer', [A])).username}`,
    body: { displayName: 'edited' },
    allowed: 200,
  }),
  deleteUser: async () => ({
    method: 'DELETE',
    path: `/v1/users/${(await newUser('viewer', [A])).username}`,
    allowed: 204,
  }),
  listApiTokens: async () => ({ method: 'GET', path: '/v1/tokens', allowed: 200 }),
  createApiToken: async () => ({
    method: 'POST',
    path: '/v1/tokens',
    body: { name: unique('t'), role: 'viewer', groups: [A], expiresInDays: 1 },
    allowed: 201,
  }),
  revokeApiToken: async () => ({
    method: 'DELETE',
    path: `/v1/tokens/${(await newToken('viewer', [A])).id}`,
    allowed: 204,
  }),
  // Last of all (see ORDER): the admin's call replaces the bootstrap token this test creates fixtures with.
  rotateBootstrapToken: async () => ({ method: 'POST', path: '/v1/tokens/bootstrap/rotate', allowed: 200 }),
  listAudit: async () => ({ method: 'GET', path: '/v1/audit', allowed: 200 }),
};

/**
 * The policy, stated here a second time: who may call each route (`admin`, `signedIn`, `public`, or
 * `read`/`operate` with where the group is). The route table must say the same, so loosening a
 * route's access in the table alone fails this test.
 */
const POLICY: Readonly<Record<string, string>> = {
  listGroups: 'read:list',
  createGroup: 'admin',
  getGroup: 'read:groupPath',
  updateGroup: 'admin',
  deleteGroup: 'admin',
  setGroupAccessToken: 'admin',
  clearGroupAccessToken: 'admin',
  listJobs: 'read:list',
  createJob: 'operate:bodyGroup',
  getJob: 'read:jobPath',
  updateJob: 'operate:jobPath',
  deleteJob: 'operate:jobPath',
  startJob: 'operate:jobPath',
  stopJob: 'operate:jobPath',
  triggerJob: 'operate:jobPath',
  listOccurrences: 'read:jobPath',
  skipOccurrence: 'operate:jobPath',
  moveOccurrence: 'operate:jobPath',
  restoreOccurrence: 'operate:jobPath',
  previewSchedule: 'read:none',
  previewBackfill: 'read:jobPath',
  startBackfill: 'operate:jobPath',
  listJobBackfills: 'read:jobPath',
  previewWorkflowBackfill: 'read:workflowPath',
  startWorkflowBackfill: 'operate:workflowPath',
  listWorkflowBackfills: 'read:workflowPath',
  getBackfill: 'read:backfillPath',
  cancelBackfill: 'operate:backfillPath',
  listRuns: 'read:list',
  getRun: 'read:runPath',
  getRunOutput: 'read:runPath',
  killRun: 'operate:runPath',
  listExecutors: 'read:list',
  dashboard: 'read:list',
  getActivity: 'read:list',
  getOpenApiDocument: 'public',
  listWorkflows: 'read:list',
  createWorkflow: 'operate:bodyGroup',
  getWorkflow: 'read:workflowPath',
  updateWorkflow: 'operate:workflowPath',
  deleteWorkflow: 'operate:workflowPath',
  startWorkflow: 'operate:workflowPath',
  stopWorkflow: 'operate:workflowPath',
  triggerWorkflow: 'operate:workflowPath',
  listWorkflowRuns: 'read:list',
  getWorkflowRun: 'read:workflowRunPath',
  retryWorkflowRun: 'operate:workflowRunPath',
  cancelWorkflowRun: 'operate:workflowRunPath',
  listCalendars: 'signedIn',
  createCalendar: 'operate:none',
  importCalendar: 'operate:none',
  getCalendar: 'signedIn',
  updateCalendar: 'operate:none',
  deleteCalendar: 'operate:none',
  listCalendarDays: 'signedIn',
  exportCalendar: 'signedIn',
  getJobLedger: 'read:jobPath',
  getWorkflowLedger: 'read:workflowPath',
  listAlertChannels: 'admin',
  createAlertChannel: 'admin',
  updateAlertChannel: 'admin',
  testAlertChannel: 'admin',
  deleteAlertChannel: 'admin',
  listAlertSilences: 'admin',
  createAlertSilence: 'admin',
  deleteAlertSilence: 'admin',
  listAlerts: 'admin',
  getSignInOptions: 'public',
  login: 'public',
  logout: 'signedIn',
  getMe: 'signedIn',
  changeOwnPassword: 'signedIn',
  listUsers: 'admin',
  createUser: 'admin',
  getUser: 'admin',
  updateUser: 'admin',
  deleteUser: 'admin',
  listApiTokens: 'admin',
  createApiToken: 'admin',
  revokeApiToken: 'admin',
  rotateBootstrapToken: 'admin',
  listAudit: 'read:list',
};

const accessText = (access: RouteAccess) =>
  access.kind === 'read' || access.kind === 'operate' ? `${access.kind}:${access.target}` : access.kind;

/** What a caller gets from a route with this access, when the request is about group A. */
function expectedStatus(access: RouteAccess, caller: CallerName, allowed: number): number {
  if (access.kind === 'public') return allowed;
  if (['expiredToken', 'revokedToken', 'disabledUser', 'noToken'].includes(caller)) return 401;
  if (access.kind === 'signedIn') return allowed;
  if (access.kind === 'admin') return caller === 'admin' ? allowed : 403;
  // A change of what belongs to no group (a calendar): operators and admins, never viewers.
  if (access.kind === 'operate' && access.target === 'none')
    return caller === 'viewerA' || caller === 'viewerB' ? 403 : allowed;
  if (access.target === 'list' || access.target === 'none') return allowed;
  if (caller === 'operatorB' || caller === 'viewerB') return 404;
  if (access.kind === 'operate' && caller === 'viewerA') return 403;
  return allowed;
}

/** Routes that replace the bootstrap token or end the caller's session go last, in that order. */
const LAST = ['rotateBootstrapToken', 'logout'];
const ORDER = [...API_ROUTES].sort(
  (a, b) =>
    Number(LAST.includes(a.operationId)) - Number(LAST.includes(b.operationId)) ||
    LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId),
);

beforeAll(async () => {
  // The embedded engine: who may call what is the API's rule, the same over either store (the
  // DynamoDB principal, group and audit stores keep their contract suites and *.int.test.ts).
  stack = await startLocal({
    store: 'sqlite',
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    demo: false,
    tickPeriodMs: 3_600_000,
    settings: CHEAP_PASSWORD_HASHING,
  });
  bootstrap = stack.tokens.adminToken;
  logRoot = await mkdtemp(join(tmpdir(), 'tickring-matrix-'));
  for (const appName of [A, B])
    await admin('POST', '/v1/groups', { appName, title: 'matrix', addressType: 'AUTO' });
  executor = createExecutor({
    appName: A,
    adminAddresses: stack.urls.api,
    accessToken: stack.tokens.accessToken,
    host: '127.0.0.1',
    port: 0,
    logDir: logRoot,
    registryIntervalMs: 1_000,
    logger: silentLogger,
  });
  executor.register('quick', async () => 'done');
  executor.register('waitForKill', async (ctx) => {
    ctx.log('waiting to be killed');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return 'stopped';
  });
  await executor.start();
  await waitFor(async () => (await call('GET', `/v1/groups/${A}`)).body.addressList.length > 0, {
    what: 'the executor online',
    timeoutMs: 20_000,
  });
  jobA = await newJob();
  quickJobA = await newJob(A, { executorHandler: 'quick' });
  workflowA = await newWorkflow();
  workflowRunA = (await admin('POST', `/v1/workflows/${workflowA}/trigger`)).body.id;

  const adminUser = await newUser('admin', '*');
  users.set('admin', adminUser);
  credentials.set('admin', await signIn(adminUser));
  const operatorA = await newUser('operator', [A]);
  users.set('operatorA', operatorA);
  credentials.set('operatorA', await signIn(operatorA));
  credentials.set('operatorB', (await newToken('operator', [B])).secret);
  credentials.set('viewerA', (await newToken('viewer', [A])).secret);
  const viewerB = await newUser('viewer', [B]);
  users.set('viewerB', viewerB);
  credentials.set('viewerB', await signIn(viewerB));

  const expiring = await newToken('admin', '*', { expiresAt: new Date(Date.now() + 1_500).toISOString() });
  credentials.set('expiredToken', expiring.secret);
  const revoked = await newToken('admin', '*');
  await admin('DELETE', `/v1/tokens/${revoked.id}`);
  credentials.set('revokedToken', revoked.secret);
  const disabled = await newUser('admin', '*');
  credentials.set('disabledUser', await signIn(disabled));
  await admin('PUT', `/v1/users/${disabled.username}`, { disabled: true });
  credentials.set('noToken', null);
  await waitFor(
    async () =>
      (await call('GET', '/v1/me', undefined, credentials.get('expiredToken') ?? null)).status === 401,
    {
      what: 'the short-lived token expired',
      timeoutMs: 10_000,
    },
  );
}, 120_000);

afterAll(async () => {
  await executor?.stop();
  await stack?.stop();
  if (logRoot) await rm(logRoot, { recursive: true, force: true });
});

describe('access matrix: every /v1 route × every kind of caller', () => {
  it('has a case for every route of the table', () => {
    expect(API_ROUTES.map((r) => r.operationId).filter((id) => !(id in CASES))).toEqual([]);
  });

  it('finds in the route table the access this test states for each route', () => {
    const table = Object.fromEntries(API_ROUTES.map((r) => [r.operationId, accessText(r.access)]));
    expect(table).toEqual(POLICY);
  });

  for (const route of ORDER) {
    it(`${route.operationId} (${route.method} ${route.path}, ${JSON.stringify(route.access)})`, async () => {
      const build = CASES[route.operationId];
      if (!build) throw new Error(`no case for ${route.operationId}`);
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const caller of CALLERS) {
        const request = await build(caller);
        const allowed = typeof request.allowed === 'number' ? request.allowed : request.allowed(caller);
        want[caller] = expectedStatus(route.access, caller, allowed);
        const reply = await call(request.method, request.path, request.body, credentials.get(caller) ?? null);
        got[caller] = reply.status;
        if (route.operationId === 'rotateBootstrapToken' && reply.status === 200)
          bootstrap = reply.body.token;
      }
      expect(got).toEqual(want);
    }, 120_000);
  }
});
