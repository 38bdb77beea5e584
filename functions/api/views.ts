import { errorResult, type HttpRequest, type HttpResult } from '@tickring/api/http';
import { ACTIVITY_FAILURE_MSG_MAX, type Activity } from '@tickring/core/activity/use-cases';
import type { ScheduleCalendars } from '@tickring/core/calendars';
import type { Logger } from '@tickring/core/common';
import type { TriggerAccepted } from '@tickring/core/dispatch/use-cases';
import { REFUSAL_HINTS, type RefusedRegistration } from '@tickring/core/executors';
import type { GroupExecutors, GroupTokenSet } from '@tickring/core/executors/use-cases';
import type { DeadlineStatus, Group, Job } from '@tickring/core/jobs';
import { type ListedOccurrence, type SchedulePreview, specOf } from '@tickring/core/jobs/use-cases';
import { type Run, runStatus, truncateMessage } from '@tickring/core/runs';
import { ExecutorCallError } from '@tickring/core/runs/use-cases';
import type { OccurrenceException } from '@tickring/core/schedule';
import type { WorkflowRecord, WorkflowRunRecord } from '@tickring/core/workflows';
import {
  NODE_STATUSES,
  type NodeStatus,
  readNodeResult,
  type WorkflowDefinition,
} from '@tickring/core/workflows';
import { workflowDeadlineStatus } from '@tickring/core/workflows/use-cases';

/** Epoch ms as the API shows times: ISO-8601 UTC. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A schedule preview as the API shows it: times as ISO-8601 UTC (`times`: the scheduled ones alone). */
export function previewView(preview: SchedulePreview) {
  return {
    times: preview.fires.map((f) => iso(f.time)),
    fires: preview.fires.map((f) => ({
      time: iso(f.time),
      fireAt: f.fireAt === null ? null : iso(f.fireAt),
      exception: f.exception ? exceptionView(f.exception) : null,
      dst: f.dst ? { kind: f.dst.kind, note: f.dst.note } : null,
    })),
    skipped: preview.skipped.map((f) => ({
      time: iso(f.time),
      calendarId: f.calendarId,
      list: f.list,
      date: f.date,
      reason: f.reason,
      label: f.label ?? null,
    })),
    ends: preview.ends ?? null,
    dst: {
      policy: preview.dst.policy,
      transitions: preview.dst.transitions.map((t) => ({
        ...t,
        at: iso(t.at),
        firstMatches: [...t.firstMatches],
      })),
    },
  };
}

/** A schedule's state as a job (or a workflow's starter job) has it: its next fire, runs left, why it ended. */
function jobScheduleState(
  job: Pick<Job, 'triggerNextTime' | 'maxRuns' | 'scheduledFires' | 'scheduleEnded'>,
) {
  return {
    triggerNextTime: job.triggerNextTime,
    runsRemaining: job.maxRuns === undefined ? null : Math.max(0, job.maxRuns - (job.scheduledFires ?? 0)),
    scheduleEnded:
      job.scheduleEnded === undefined
        ? null
        : { reason: job.scheduleEnded.reason, at: iso(job.scheduleEnded.at) },
  };
}

/** A one-off exception of a job's schedule as the API shows it. */
export function exceptionView(e: OccurrenceException) {
  return {
    at: iso(e.at),
    action: e.action,
    to: e.to === undefined ? null : iso(e.to),
    reason: e.reason ?? null,
    by: e.by,
    createdAt: iso(e.createdAt),
  };
}

/** A job's upcoming occurrences as the API shows them. */
export function occurrencesView(listed: {
  job: Job;
  occurrences: readonly ListedOccurrence[];
  exceptions: readonly OccurrenceException[];
}) {
  return {
    jobId: listed.job.id,
    occurrences: listed.occurrences.map((o) => ({
      time: iso(o.time),
      fireAt: o.fireAt === null ? null : iso(o.fireAt),
      exception: o.exception ? exceptionView(o.exception) : null,
      changeable: o.changeable,
    })),
    exceptions: listed.exceptions.map(exceptionView),
  };
}

/** A schedule's calendars as the API shows them: both lists, empty when none. */
function calendarsView(calendars: ScheduleCalendars | undefined) {
  return { only: [...(calendars?.only ?? [])], exclude: [...(calendars?.exclude ?? [])] };
}

/** A job as the API shows it: times as ISO-8601 UTC strings, internal dispatch state left out. */
export function jobView(job: Job) {
  const schedule = jobScheduleState(job);
  return {
    id: job.id,
    ...specOf(job),
    // The bounds a job does not have are shown as null; its jitter as 0.
    startAt: job.startAt === undefined ? null : iso(job.startAt),
    endAt: job.endAt === undefined ? null : iso(job.endAt),
    maxRuns: job.maxRuns ?? null,
    jitterSeconds: job.jitterSeconds ?? 0,
    calendars: calendarsView(job.calendars),
    // Absent: the deployment's retention, every success kept.
    logRetentionDays: job.logRetentionDays ?? null,
    keepSuccessfulRuns: job.keepSuccessfulRuns ?? null,
    alertChannels: job.alertChannels ?? null,
    runsRemaining: schedule.runsRemaining,
    scheduleEnded: schedule.scheduleEnded,
    failurePolicy: job.failurePolicy ?? null,
    deadline: job.deadline ?? null,
    pausedBy:
      job.pausedBy === undefined
        ? null
        : {
            reason: job.pausedBy.reason,
            at: iso(job.pausedBy.at),
            failures: job.pausedBy.failures,
            ofLast: job.pausedBy.ofLast,
            resumeAt: job.pausedBy.resumeAt === undefined ? null : iso(job.pausedBy.resumeAt),
          },
    occurrenceExceptions: (job.occurrenceExceptions ?? []).map(exceptionView),
    triggerNextTime: job.triggerNextTime === null ? null : iso(job.triggerNextTime),
    triggerLastTime: job.triggerLastTime ? iso(job.triggerLastTime) : null,
    glueUpdatetime: iso(job.glueUpdatetime),
    scheduleRevision: job.scheduleRevision,
    version: job.version,
    workflowId: job.workflowId ?? null,
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
  };
}

/** A job's or a workflow's deadline status as the API shows it (see DeadlineStatus); null without a deadline. */
export function deadlineStatusView(status: DeadlineStatus | null) {
  if (status === null) return null;
  return {
    window: { from: iso(status.window.from), to: iso(status.window.to) },
    state: status.state,
    at: status.at === null ? null : iso(status.at),
  };
}

/**
 * A workflow as the API shows it: its definition's fields (nodes as defined, so a workflow read can
 * be sent back), its head, and its schedule's state from its starter job (next fire, runs remaining,
 * why it ended; none without one), times as ISO-8601 UTC.
 */
export function workflowView(
  workflow: WorkflowRecord,
  starter: Pick<Job, 'triggerNextTime' | 'maxRuns' | 'scheduledFires' | 'scheduleEnded'> | undefined,
  now: number,
) {
  const def = workflow.definition;
  const schedule = starter === undefined ? undefined : jobScheduleState(starter);
  return {
    id: workflow.id,
    version: workflow.version,
    name: def.name,
    appName: def.appName,
    scheduleType: def.scheduleType,
    scheduleConf: def.scheduleConf,
    timeZone: def.timeZone,
    misfireStrategy: def.misfireStrategy,
    startAt: isoOrNullOf(def.startAt),
    endAt: isoOrNullOf(def.endAt),
    maxRuns: def.maxRuns ?? null,
    jitterSeconds: def.jitterSeconds ?? 0,
    calendars: calendarsView(def.calendars),
    overlapPolicy: def.overlapPolicy,
    deadline: def.deadline ?? null,
    nodes: def.nodes.map((node) => ({
      key: node.key,
      jobId: node.jobId,
      ...(node.executorParam === undefined ? {} : { executorParam: node.executorParam }),
      upstream: node.upstream.map((edge) => ({ key: edge.key, condition: edge.condition })),
    })),
    triggerStatus: workflow.triggerStatus,
    starterJobId: workflow.starterJobId ?? null,
    triggerNextTime: isoOrNullOf(schedule?.triggerNextTime ?? undefined),
    runsRemaining: def.maxRuns === undefined ? null : (schedule?.runsRemaining ?? def.maxRuns),
    scheduleEnded: schedule?.scheduleEnded ?? null,
    deadlineStatus: deadlineStatusView(workflowDeadlineStatus(workflow, now)),
    activeRuns: workflow.activeRuns,
    bufferedRunId: workflow.bufferedRunId ?? null,
    createdAt: iso(workflow.createdAt),
    updatedAt: iso(workflow.updatedAt),
  };
}

const isoOrNullOf = (ms: number | undefined): string | null => (ms === undefined ? null : iso(ms));

/** A workflow run's fields both views show. */
function workflowRunHead(run: WorkflowRunRecord) {
  return {
    id: run.id,
    workflowId: run.workflowId,
    version: run.version,
    workflowName: run.workflowName,
    appName: run.appName,
    status: run.status,
    input: run.state.input,
    trigger: {
      type: run.trigger.type,
      starterLogId: run.trigger.starterLogId ?? null,
      scheduledTime: isoOrNullOf(run.trigger.scheduledTime),
      by: run.trigger.by ?? null,
    },
    createdAt: iso(run.createdAt),
    startedAt: isoOrNullOf(run.startedAt),
    finishedAt: isoOrNullOf(run.finishedAt),
    failedNodes: [...run.state.failedNodes],
  };
}

/**
 * A workflow run with its nodes, in the definition order of the version it follows (`definition`);
 * a node the run has no state for yet (a QUEUED run) is PENDING. Its job runs are those of its
 * current attempt (none before a dispatcher claimed them); a result that is JSON is shown parsed
 * too (`resultJson`, as templates read it).
 */
export function workflowRunView(run: WorkflowRunRecord, definition: WorkflowDefinition) {
  return {
    ...workflowRunHead(run),
    nodes: definition.nodes.map((node) => {
      const state = Object.hasOwn(run.state.nodes, node.key) ? run.state.nodes[node.key] : undefined;
      const attempt = state?.attempt ?? 0;
      const claimed = Object.hasOwn(run.nodeRuns, node.key) ? run.nodeRuns[node.key] : undefined;
      const times = Object.hasOwn(run.nodeTimes, node.key) ? run.nodeTimes[node.key] : undefined;
      const status = state?.status ?? 'PENDING';
      const result = state?.result ?? null;
      const parsed = result === null ? undefined : readNodeResult(result);
      // A node made PENDING again by a retry keeps its last attempt's times: not shown.
      const pending = status === 'PENDING';
      return {
        key: node.key,
        jobId: node.jobId,
        status,
        attempt,
        upstream: node.upstream.map((edge) => ({ key: edge.key, condition: edge.condition })),
        result,
        resultJson: parsed?.json ? parsed.value : null,
        reason: state?.reason ?? null,
        logIds: claimed && claimed.attempt === attempt && attempt > 0 ? [...claimed.logIds] : [],
        firedAt: pending ? null : isoOrNullOf(times?.firedAt),
        finishedAt: pending || status === 'RUNNING' ? null : isoOrNullOf(times?.finishedAt),
      };
    }),
  };
}

/** A workflow run as lists show it: its nodes counted by status (lists read no definitions). */
export function workflowRunSummaryView(run: WorkflowRunRecord) {
  const nodeCounts = Object.fromEntries(NODE_STATUSES.map((status) => [status, 0])) as Record<
    NodeStatus,
    number
  >;
  for (const node of Object.values(run.state.nodes)) nodeCounts[node.status] += 1;
  return { ...workflowRunHead(run), nodeCounts };
}

export function groupView(group: Group) {
  return {
    appName: group.appName,
    title: group.title,
    addressType: group.addressType,
    addressList: group.addressList,
    /** When the group got its own access token; null: its executors use the global token. */
    accessTokenSetAt: group.accessTokenSetAt === undefined ? null : iso(group.accessTokenSetAt),
    /** Its jobs' default alert channels; [] when none. */
    alertChannels: [...(group.alertChannels ?? [])],
    createdAt: iso(group.createdAt),
    updatedAt: iso(group.updatedAt),
  };
}

/** The answer to setting a group's token: the token, this once. */
export function groupTokenView(set: GroupTokenSet) {
  return {
    appName: set.appName,
    accessToken: set.accessToken,
    accessTokenSetAt: iso(set.accessTokenSetAt),
    note: "This token is shown once. Configure it on the group's executors (XXL-JOB-ACCESS-TOKEN); the global token no longer works for them.",
  };
}

export function isoTimes(times: readonly number[]): string[] {
  return times.map(iso);
}

const isoOrNull = (ms: number): string | null => (ms > 0 ? iso(ms) : null);

const ALARM_STATUS_NAMES: Readonly<Record<number, string>> = {
  0: 'DEFAULT',
  1: 'NOT_NEEDED',
  2: 'SENT',
  3: 'FAILED',
};

/**
 * A run (XXL-JOB's log row) as the API shows it: trigger and handle info, times as ISO-8601 UTC
 * strings (null for "not yet"), the shard as "index/total", and the status computed by XXL-JOB's
 * report rule (running = triggered or triggering and not handled, success = handled 200, else fail),
 * or skipped: a scheduled fire recorded as a misfire and never sent (why is in its triggerMsg).
 */
export function runView(run: Run) {
  return {
    logId: run.logId,
    jobId: run.jobId,
    jobName: run.jobName,
    appName: run.appName,
    status: runStatus(run),
    triggerType: run.triggerType,
    dedupKey: run.dedupKey,
    scheduledTime: iso(run.scheduledTime),
    triggerTime: iso(run.triggerTime),
    executorAddress: run.executorAddress === '' ? null : run.executorAddress,
    executorHandler: run.executorHandler,
    executorParam: run.executorParam,
    executorRouteStrategy: run.executorRouteStrategy,
    executorTimeout: run.executorTimeout,
    shard: `${run.shardIndex}/${run.shardTotal}`,
    attempt: run.attempt,
    retriesLeft: run.retriesLeft,
    parentLogId: run.parentLogId ?? null,
    workflow: run.workflow
      ? { runId: run.workflow.runId, node: run.workflow.node, attempt: run.workflow.attempt }
      : null,
    triggerCode: run.triggerCode,
    triggerMsg: run.triggerMsg,
    dispatchedAt: isoOrNull(run.dispatchedAt),
    handleCode: run.handleCode,
    handleMsg: run.handleMsg,
    handleTime: isoOrNull(run.handleTime),
    alarmStatus: ALARM_STATUS_NAMES[run.alarmStatus] ?? String(run.alarmStatus),
    ...skippedRange(run),
  };
}

/**
 * The fires a skipped run stands for (the dispatcher records a range of a job's skipped fires as one
 * run): shown on every skipped run, defaults filled in (one fire, due at its scheduledTime); null on
 * the others.
 */
function skippedRange(run: Run): { skippedCount: number | null; skippedUntil: string | null } {
  if (runStatus(run) !== 'skipped') return { skippedCount: null, skippedUntil: null };
  return { skippedCount: run.skippedCount ?? 1, skippedUntil: iso(run.skippedUntil ?? run.scheduledTime) };
}

/** Recent activity as the API shows it: times as ISO-8601 UTC, each last failure in a few fields. */
export function activityView(activity: Activity) {
  return {
    window: activity.window,
    bucketMs: activity.bucketMs,
    from: iso(activity.from),
    to: iso(activity.to),
    buckets: activity.buckets.map((b) => ({ ...b, start: iso(b.start) })),
    inProgress: activity.inProgress,
    lastFailures: activity.lastFailures.map((run) => ({
      logId: run.logId,
      jobId: run.jobId,
      jobName: run.jobName,
      appName: run.appName,
      handleMsg: truncateMessage(run.handleMsg, ACTIVITY_FAILURE_MSG_MAX),
      handleTime: isoOrNull(run.handleTime),
      scheduledTime: iso(run.scheduledTime),
    })),
    sampled: activity.sampled,
    truncated: activity.truncated,
  };
}

export function triggerView(accepted: TriggerAccepted) {
  return { ...accepted, scheduledTime: iso(accepted.scheduledTime) };
}

export function executorsView(groups: readonly GroupExecutors[], refused: readonly RefusedRegistration[]) {
  return {
    items: groups.map((group) => ({
      ...group,
      executors: group.executors.map((e) => ({
        address: e.address,
        online: e.online,
        lastHeartbeat: e.lastHeartbeat === null ? null : iso(e.lastHeartbeat),
      })),
      refusedRegistrations: refused.filter((r) => r.appName === group.appName).length,
    })),
    refused: refused.map((r) => ({
      appName: r.appName,
      address: r.address,
      reason: r.reason,
      hint: REFUSAL_HINTS[r.reason],
      request: r.request,
      detail: r.detail,
      count: r.count,
      firstSeen: iso(r.firstSeen),
      lastSeen: iso(r.lastSeen),
    })),
  };
}

/** 202: the request was taken and is carried out asynchronously. */
export const accepted = (body: unknown): HttpResult => ({ status: 202, body });

/**
 * The API's error mapping: as `errorResult` (4xx with `{error, message}`, a generic 500 otherwise),
 * plus ExecutorCallError as a 502 whose message is shown, since it names the executor and its answer.
 */
export function apiErrorResult(err: unknown, req: HttpRequest, logger: Logger): HttpResult {
  if (err instanceof ExecutorCallError) {
    logger.warn('executor call failed', { method: req.method, path: req.path, error: err.message });
    return { status: err.status, body: { error: err.name, message: err.message } };
  }
  return errorResult(err, req, logger);
}
