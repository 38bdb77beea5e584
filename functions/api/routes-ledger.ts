import { API } from '@tickring/api/contract';
import { ok } from '@tickring/api/http';
import type { LedgerEntry } from '@tickring/core/runs';
import { type JobLedger, type JobLedgerDeps, jobFireLedger } from '@tickring/core/runs/use-cases';
import {
  type WorkflowLedger,
  type WorkflowLedgerDeps,
  type WorkflowLedgerEntry,
  workflowFireLedger,
} from '@tickring/core/workflows/use-cases';
import type { GuardedRouter } from './authorize.js';
import { iso } from './views.js';

/** The fire ledgers of jobs and workflows: each handler calls one use-case and answers its view. */
export function addLedgerRoutes(r: GuardedRouter, deps: JobLedgerDeps & WorkflowLedgerDeps): void {
  r.route(API.getJobLedger, async (req) =>
    ok(ledgerView(await jobFireLedger(deps, req.params.id, windowOf(req.query)))),
  ).route(API.getWorkflowLedger, async (req) =>
    ok(workflowLedgerView(await workflowFireLedger(deps, req.params.id, windowOf(req.query)))),
  );
}

function windowOf(query: { from: string; to: string }) {
  return { from: epochOrIso(query.from), to: epochOrIso(query.to) };
}

/** An instant of the query: epoch milliseconds when all digits, else the text (the use-case checks it). */
function epochOrIso(value: string): string | number {
  return /^\d+$/.test(value) ? Number(value) : value;
}

export function ledgerView(ledger: JobLedger) {
  return { jobId: ledger.jobId, ...windowView(ledger), entries: ledger.entries.map(entryView) };
}

export function workflowLedgerView(ledger: WorkflowLedger) {
  return {
    workflowId: ledger.workflowId,
    starterJobId: ledger.starterJobId ?? null,
    ...windowView(ledger),
    workflowRunsRead: ledger.workflowRunsRead,
    entries: ledger.entries.map((e: WorkflowLedgerEntry) => ({
      ...entryView(e),
      runId: e.runId ?? null,
      runStatus: e.runStatus ?? null,
    })),
  };
}

/** What a job's and a workflow's ledger both say of the window. */
function windowView(ledger: Omit<JobLedger, 'jobId' | 'entries'>) {
  return {
    from: iso(ledger.from),
    to: iso(ledger.to),
    summary: ledger.summary,
    definitionChangedInWindow: ledger.definitionChangedInWindow,
    history: ledger.history,
    calendars: ledger.calendars,
    calendarsChangedInWindow: ledger.calendarsChangedInWindow,
    runsRead: ledger.runsRead,
  };
}

function entryView(e: LedgerEntry) {
  return {
    scheduledTime: iso(e.scheduledTime),
    until: e.until === undefined ? null : iso(e.until),
    count: e.count,
    outcome: e.outcome,
    logId: e.logId ?? null,
    status: e.status ?? null,
    rule: e.rule ?? null,
    fireAt: e.fireAt === undefined ? null : iso(e.fireAt),
    calendar: e.calendar
      ? {
          calendarId: e.calendar.calendarId,
          list: e.calendar.list,
          date: e.calendar.date,
          reason: e.calendar.reason,
          label: e.calendar.label ?? null,
        }
      : null,
    exception: e.exception
      ? {
          action: e.exception.action,
          to: e.exception.to === undefined ? null : iso(e.exception.to),
          by: e.exception.by,
          reason: e.exception.reason ?? null,
        }
      : null,
    stoppedBy: e.stoppedBy ?? null,
  };
}
