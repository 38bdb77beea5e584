import { API } from '@tickring/api/contract';
import { type HttpResult, ok } from '@tickring/api/http';
import type { Backfill } from '@tickring/core/backfills';
import {
  type AdminWorkflowBackfillsDeps,
  type BackfillPreview,
  cancelBackfill,
  getBackfill,
  listJobBackfills,
  listWorkflowBackfills,
  previewBackfill,
  previewWorkflowBackfill,
  startBackfill,
  startWorkflowBackfill,
} from '@tickring/core/backfills/use-cases';
import type { Caller, GuardedRouter } from './authorize.js';
import { iso } from './views.js';

/** Backfills: each handler calls one use-case and answers its view. */
export function addBackfillRoutes(r: GuardedRouter, deps: AdminWorkflowBackfillsDeps): void {
  r.route(API.previewBackfill, async (req) =>
    ok(previewView(await previewBackfill(deps, req.params.id, req.body))),
  )
    .route(API.startBackfill, async (req, caller): Promise<HttpResult> => {
      const backfill = await startBackfill(deps, req.params.id, req.body, by(caller));
      return { status: 202, body: backfillView(backfill) };
    })
    .route(API.listJobBackfills, async (req) => {
      const page = await listJobBackfills(deps, req.params.id, req.query);
      return ok({ items: page.items.map(backfillView), nextCursor: page.nextCursor ?? null });
    })
    .route(API.previewWorkflowBackfill, async (req) =>
      ok(previewView(await previewWorkflowBackfill(deps, req.params.id, req.body))),
    )
    .route(API.startWorkflowBackfill, async (req, caller): Promise<HttpResult> => {
      const backfill = await startWorkflowBackfill(deps, req.params.id, req.body, by(caller));
      return { status: 202, body: backfillView(backfill) };
    })
    .route(API.listWorkflowBackfills, async (req) => {
      const page = await listWorkflowBackfills(deps, req.params.id, req.query);
      return ok({ items: page.items.map(backfillView), nextCursor: page.nextCursor ?? null });
    })
    .route(API.getBackfill, async (req) => ok(backfillView(await getBackfill(deps, req.params.id))))
    .route(API.cancelBackfill, async (req, caller) =>
      ok(backfillView(await cancelBackfill(deps, req.params.id, by(caller)))),
    );
}

function previewView(preview: BackfillPreview) {
  return {
    ...preview,
    workflowId: preview.workflowId ?? null,
    from: iso(preview.from),
    to: iso(preview.to),
    first: preview.first === undefined ? null : iso(preview.first),
    last: preview.last === undefined ? null : iso(preview.last),
  };
}

const by = (caller: Caller) => caller.principal?.name ?? 'anonymous';
const isoOrNull = (ms: number | undefined) => (ms === undefined ? null : iso(ms));

/** A backfill as the API shows it: times as ISO-8601 UTC, the running fires counted and listed. */
export function backfillView(backfill: Backfill) {
  return {
    id: backfill.id,
    jobId: backfill.jobId,
    workflowId: backfill.workflowId ?? null,
    appName: backfill.appName,
    from: iso(backfill.from),
    to: iso(backfill.to),
    parallelism: backfill.parallelism,
    ratePerMinute: backfill.ratePerMinute ?? null,
    scheduleType: backfill.schedule.type,
    scheduleConf: backfill.schedule.conf,
    timeZone: backfill.schedule.timeZone,
    state: backfill.state,
    total: backfill.total,
    dispatched: backfill.dispatched,
    succeeded: backfill.succeeded,
    failed: backfill.failed,
    running: backfill.running.length,
    runningFires: backfill.running.map((f) => ({ scheduledTime: iso(f.scheduledTime), logId: f.logId })),
    failures: backfill.failures.map(iso),
    nextFireTime: isoOrNull(backfill.nextFireTime),
    createdAt: iso(backfill.createdAt),
    createdBy: backfill.createdBy,
    cancelledAt: isoOrNull(backfill.cancelledAt),
    cancelledBy: backfill.cancelledBy ?? null,
    stopReason: backfill.stopReason ?? null,
    endedAt: isoOrNull(backfill.endedAt),
  };
}
