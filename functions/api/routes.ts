import { ValidationError } from '../../shared/domain/errors.js';
import { TRIGGER_STATUSES } from '../../shared/domain/job.js';
import { RUN_STATUSES } from '../../shared/domain/run.js';
import { SCHEDULE_TYPES } from '../../shared/domain/schedule/index.js';
import {
  created,
  enumParam,
  intParam,
  isoTimeParam,
  noContent,
  ok,
  Router,
} from '../../shared/http/index.js';
import { DASHBOARD_DAYS, dashboard } from '../../shared/use-cases/admin-dashboard.js';
import { listExecutors } from '../../shared/use-cases/admin-executors.js';
import {
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  updateGroup,
} from '../../shared/use-cases/admin-groups.js';
import {
  createJob,
  deleteJob,
  getJob,
  listJobs,
  previewSchedule,
  startJob,
  stopJob,
  updateJob,
} from '../../shared/use-cases/admin-jobs.js';
import { getRun, killRun, listRuns, readRunOutput } from '../../shared/use-cases/admin-runs.js';
import { triggerJob } from '../../shared/use-cases/admin-trigger.js';
import { clearGroupAccessToken, setGroupAccessToken } from '../../shared/use-cases/group-access-tokens.js';
import type { ApiDeps } from './deps.js';
import {
  accepted,
  executorsView,
  groupTokenView,
  groupView,
  isoTimes,
  jobView,
  runView,
  triggerView,
} from './views.js';

const jobId = (value: string) => intParam(value, 'id', { min: 1 });
const logId = (value: string) => intParam(value, 'logId', { min: 1 });

/** The admin API, `/v1/...`: one line per route. */
export function apiRoutes(deps: ApiDeps): Router {
  const { groups: g, jobs: j } = deps;
  return (
    new Router()
      .get('/v1/groups', async () => ok({ items: (await listGroups(g)).map(groupView) }))
      .post('/v1/groups', async (req) => created(groupView(await createGroup(g, req.body))))
      .get('/v1/groups/{appName}', async (req) => ok(groupView(await getGroup(g, req.params.appName))))
      .put('/v1/groups/{appName}', async (req) =>
        ok(groupView(await updateGroup(g, req.params.appName, req.body))),
      )
      .delete('/v1/groups/{appName}', async (req) => noContent(await deleteGroup(g, req.params.appName)))
      // The group's own executor token (XXL-JOB 3.5): shown in this answer only.
      .put('/v1/groups/{appName}/access-token', async (req) =>
        ok(groupTokenView(await setGroupAccessToken(deps.groupTokens, req.params.appName, req.body))),
      )
      .delete('/v1/groups/{appName}/access-token', async (req) =>
        noContent(await clearGroupAccessToken(deps.groupTokens, req.params.appName)),
      )

      .get('/v1/jobs', async (req) => {
        const page = await listJobs(j, {
          appName: req.query.appName || undefined,
          triggerStatus: enumParam(req.query.triggerStatus, 'triggerStatus', TRIGGER_STATUSES),
          limit: intParam(req.query.limit, 'limit', { min: 1, max: 100, default: 20 }),
          cursor: req.query.cursor || undefined,
        });
        return ok({ items: page.items.map(jobView), nextCursor: page.nextCursor ?? null });
      })
      .post('/v1/jobs', async (req) => created(jobView(await createJob(j, req.body))))
      .get('/v1/jobs/{id}', async (req) => ok(jobView(await getJob(j, jobId(req.params.id)))))
      .put('/v1/jobs/{id}', async (req) => ok(jobView(await updateJob(j, jobId(req.params.id), req.body))))
      .delete('/v1/jobs/{id}', async (req) => noContent(await deleteJob(j, jobId(req.params.id))))
      .post('/v1/jobs/{id}/start', async (req) => ok(jobView(await startJob(j, jobId(req.params.id)))))
      .post('/v1/jobs/{id}/stop', async (req) => ok(jobView(await stopJob(j, jobId(req.params.id)))))
      .post('/v1/jobs/{id}/trigger', async (req) =>
        accepted(triggerView(await triggerJob(deps.trigger, jobId(req.params.id), req.body))),
      )

      .get('/v1/logs', async (req) => {
        const page = await listRuns(deps.runs, {
          jobId: req.query.jobId ? intParam(req.query.jobId, 'jobId', { min: 1 }) : undefined,
          appName: req.query.appName || undefined,
          status: enumParam(req.query.status, 'status', RUN_STATUSES),
          from: isoTimeParam(req.query.from, 'from'),
          to: isoTimeParam(req.query.to, 'to'),
          limit: intParam(req.query.limit, 'limit', { min: 1, max: 100, default: 20 }),
          cursor: req.query.cursor || undefined,
        });
        return ok({ items: page.items.map(runView), nextCursor: page.nextCursor ?? null });
      })
      .get('/v1/logs/{logId}', async (req) => ok(runView(await getRun(deps.runs, logId(req.params.logId)))))
      .get('/v1/logs/{logId}/output', async (req) => {
        const from = intParam(req.query.fromLineNum, 'fromLineNum', { min: 1, default: 1 });
        return ok(await readRunOutput(deps.runs, logId(req.params.logId), from));
      })
      .post('/v1/logs/{logId}/kill', async (req) => {
        const { run, executorMsg } = await killRun(deps.runs, logId(req.params.logId));
        return ok({ ...runView(run), executorMsg });
      })

      .get('/v1/executors', async (req) =>
        ok(executorsView(await listExecutors(deps.executors, deps.settings, req.query.appName || undefined))),
      )
      .get('/v1/dashboard', async (req) => {
        const days = intParam(req.query.days, 'days', { ...DASHBOARD_DAYS });
        return ok({ days, ...(await dashboard(deps.dashboard, deps.settings, days)) });
      })

      .get('/v1/schedule/preview', (req) => {
        const type = enumParam(req.query.scheduleType, 'scheduleType', SCHEDULE_TYPES);
        if (!type) throw new ValidationError('scheduleType is required', 'scheduleType');
        const schedule = { type, conf: req.query.scheduleConf ?? '', timeZone: req.query.timeZone || 'UTC' };
        const from = isoTimeParam(req.query.from, 'from') ?? deps.clock.now();
        const count = intParam(req.query.count, 'count', { min: 1, max: 100, default: 5 });
        return ok({ times: isoTimes(previewSchedule(schedule, from, count)) });
      })
  );
}
