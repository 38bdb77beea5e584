import { API, openApiDocument } from '@tickring/api/contract';
import { created, noContent, ok, Router } from '@tickring/api/http';
import { activity, dashboard } from '@tickring/core/activity/use-cases';
import { triggerJob } from '@tickring/core/dispatch/use-cases';
import {
  clearGroupAccessToken,
  createGroup,
  deleteGroup,
  getGroup,
  listExecutors,
  listGroups,
  listRefusedRegistrations,
  setGroupAccessToken,
  updateGroup,
} from '@tickring/core/executors/use-cases';
import { ALL_GROUPS } from '@tickring/core/identity';
import {
  createJob,
  deleteJob,
  getDeadlineStatus,
  getJob,
  getRetentionEstimate,
  listJobs,
  listOccurrences,
  moveOccurrence,
  previewSchedule,
  removeOccurrenceException,
  requireCalendars,
  skipOccurrence,
  startJob,
  stopJob,
  updateJob,
} from '@tickring/core/jobs/use-cases';
import { getRun, killRun, listRuns, readRunOutput } from '@tickring/core/runs/use-cases';
import { type Caller, GuardedRouter } from './authorize.js';
import type { ApiDeps } from './deps.js';
import { addAlertRoutes } from './routes-alerts.js';
import { addAuditRoutes } from './routes-audit.js';
import { addBackfillRoutes } from './routes-backfills.js';
import { addCalendarRoutes } from './routes-calendars.js';
import { addIdentityRoutes } from './routes-identity.js';
import { addLedgerRoutes } from './routes-ledger.js';
import { addWorkflowRoutes } from './routes-workflows.js';
import {
  accepted,
  activityView,
  deadlineStatusView,
  executorsView,
  groupTokenView,
  groupView,
  jobView,
  occurrencesView,
  previewView,
  runView,
  triggerView,
} from './views.js';

/** Who a change is recorded as made by (on an exception, beside the audit log's own record). */
const by = (caller: Caller) => caller.principal?.name ?? 'anonymous';

/** An ISO-8601 instant (checked by the route's schema) as epoch ms. */
const epochMs = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/**
 * The admin API, `/v1/...`: one line per route, each bound to its contract in the route table
 * (`shared/schema/api`), which checks the request (every problem at once), then its access (one
 * authorisation step, see GuardedRouter) before the handler runs; lists show the caller's groups.
 */
export function apiRoutes(deps: ApiDeps): Router {
  const { groups: g, jobs: j } = deps;
  const router = new Router();
  const r = new GuardedRouter(router, deps.guard);
  r.route(API.listGroups, async (_req, caller) =>
    ok({ items: (await listGroups(g, caller.visible)).map(groupView) }),
  )
    .route(API.createGroup, async (req) => created(groupView(await createGroup(g, req.body))))
    .route(API.getGroup, async (req) => ok(groupView(await getGroup(g, req.params.appName))))
    .route(API.updateGroup, async (req) => ok(groupView(await updateGroup(g, req.params.appName, req.body))))
    .route(API.deleteGroup, async (req) => noContent(await deleteGroup(g, req.params.appName)))
    // The group's own executor token (XXL-JOB 3.5): shown in this answer only.
    .route(API.setGroupAccessToken, async (req) =>
      ok(groupTokenView(await setGroupAccessToken(deps.groupTokens, req.params.appName, req.body))),
    )
    .route(API.clearGroupAccessToken, async (req) =>
      noContent(await clearGroupAccessToken(deps.groupTokens, req.params.appName)),
    )

    .route(API.listJobs, async (req, caller) =>
      ok(page(await listJobs(j, req.query, caller.visible), jobView)),
    )
    .route(API.createJob, async (req) => created(jobView(await createJob(j, req.body))))
    .route(API.getJob, async (req) => {
      const job = await getJob(j, req.params.id);
      return ok({
        ...jobView(job),
        deadlineStatus: deadlineStatusView(await getDeadlineStatus(j, job)),
        retention: getRetentionEstimate(j, job),
      });
    })
    .route(API.updateJob, async (req) => ok(jobView(await updateJob(j, req.params.id, req.body))))
    .route(API.deleteJob, async (req) => noContent(await deleteJob(j, req.params.id)))
    .route(API.startJob, async (req) => ok(jobView(await startJob(j, req.params.id))))
    .route(API.stopJob, async (req) => ok(jobView(await stopJob(j, req.params.id))))
    .route(API.triggerJob, async (req, caller) =>
      accepted(
        triggerView(
          await triggerJob(deps.trigger, req.params.id, req.body, {
            anyAddress: caller.principal?.grant.role === 'admin',
          }),
        ),
      ),
    )

    .route(API.listRuns, async ({ query }, caller) => {
      const runs = await listRuns(
        deps.runs,
        { ...query, from: epochMs(query.from), to: epochMs(query.to) },
        caller.visible,
      );
      return ok(page(runs, runView));
    })
    .route(API.getRun, async (req) => ok(runView(await getRun(deps.runs, req.params.logId))))
    .route(API.getRunOutput, async (req) =>
      ok(await readRunOutput(deps.runs, req.params.logId, req.query.fromLineNum)),
    )
    .route(API.killRun, async (req) => {
      const { run, executorMsg } = await killRun(deps.runs, req.params.logId);
      return ok({ ...runView(run), executorMsg });
    })

    .route(API.listExecutors, async (req, caller) => {
      const [groups, refused] = await Promise.all([
        listExecutors(deps.executors, deps.settings, req.query.appName, caller.visible),
        listRefusedRegistrations(deps.refusals, req.query.appName, caller.visible),
      ]);
      return ok(executorsView(groups, refused));
    })
    .route(API.dashboard, async ({ query: { days } }, caller) =>
      ok({ days, ...(await dashboard(deps.dashboard, deps.settings, days, caller.visible)) }),
    )
    .route(API.getActivity, async ({ query }, caller) =>
      ok(activityView(await activity(deps.runs, query, caller.visible))),
    )

    .route(API.listOccurrences, async (req) =>
      ok(
        occurrencesView(
          await listOccurrences(j, req.params.id, {
            from: epochMs(req.query.from),
            to: epochMs(req.query.to),
            limit: req.query.limit,
          }),
        ),
      ),
    )
    .route(API.skipOccurrence, async (req, caller) =>
      ok(jobView(await skipOccurrence(j, req.params.id, { ...req.body, time: req.params.time }, by(caller)))),
    )
    .route(API.moveOccurrence, async (req, caller) =>
      ok(jobView(await moveOccurrence(j, req.params.id, { ...req.body, time: req.params.time }, by(caller)))),
    )
    .route(API.restoreOccurrence, async (req) =>
      ok(jobView(await removeOccurrenceException(j, req.params.id, req.params.time))),
    )

    .route(API.previewSchedule, async ({ query }, caller) => {
      const schedule = {
        type: query.scheduleType,
        conf: query.scheduleConf ?? '',
        timeZone: query.timeZone ?? 'UTC',
      };
      const from = epochMs(query.from) ?? deps.clock.now();
      const bounds = {
        ...(query.startAt === undefined ? {} : { startAt: Date.parse(query.startAt) }),
        ...(query.endAt === undefined ? {} : { endAt: Date.parse(query.endAt) }),
        ...(query.maxRuns === undefined ? {} : { maxRuns: query.maxRuns }),
      };
      // The job's skips and moves are marked for a caller who may read it (others see plain fires).
      const job = query.jobId === undefined ? undefined : await j.jobs.get(query.jobId);
      const seen = job !== undefined && (caller.visible === ALL_GROUPS || caller.visible.has(job.appName));
      const gate = await requireCalendars(j, {
        ...(query.onlyCalendars ? { only: query.onlyCalendars.split(',') } : {}),
        ...(query.excludeCalendars ? { exclude: query.excludeCalendars.split(',') } : {}),
      });
      const preview = previewSchedule(schedule, from, query.count, {
        bounds,
        ...(query.jitterSeconds === undefined ? {} : { jitterSeconds: query.jitterSeconds }),
        ...(query.jobId === undefined ? {} : { jobId: query.jobId }),
        ...(seen && job.occurrenceExceptions ? { exceptions: job.occurrenceExceptions } : {}),
        ...(gate === undefined ? {} : { calendars: gate }),
      });
      return ok(previewView(preview));
    })

    // The contract itself, open to anyone (no token).
    .route(API.openApi, () => ok(openApiDocument()));
  addWorkflowRoutes(r, deps.workflows);
  addCalendarRoutes(r, deps.calendars);
  addBackfillRoutes(r, deps.backfills);
  addLedgerRoutes(r, deps.ledger);
  addAlertRoutes(r, deps.alerts);
  addIdentityRoutes(r, deps.identity);
  addAuditRoutes(r, deps.audit);
  return router;
}

/** A page as the list routes answer it: `{items, nextCursor}` (null at the end). */
function page<T, V>(found: { items: readonly T[]; nextCursor?: string }, view: (item: T) => V) {
  return { items: found.items.map(view), nextCursor: found.nextCursor ?? null };
}
