import { isAppError } from '../common/errors.js';
import type { Job } from '../jobs/job.js';
import { BatchReads } from './batch-reads.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { dispatchFire } from './dispatch-fire.js';
import { DispatchRecord } from './dispatch-record.js';
import { SCHEDULED_TRIGGERS } from './drop-rules.js';
import type { JobTurn, JobTurns } from './job-turns.js';
import type { RingLane } from './ring-queue.js';
import type { DispatchSettings } from './settings.js';
import { type LateFire, lateFireOf, recordSkipRanges } from './skip-ranges.js';
import { type FireMessage, parseRingMessage } from './trigger.js';

/** One message of the ring as its consumer received it (an SQS record, an SQLite ring delivery). */
export interface RingRecord {
  /** The consumer's id of the message: what a failed record is reported as. */
  readonly id: string;
  readonly lane: RingLane;
  readonly body: string;
}

export interface RingBatchDeps extends DispatchDeps {
  readonly settings: DispatchSettings;
  /** The turns of the jobs' scheduled fires in this process, shared by its batches (one per process). */
  readonly jobTurns: JobTurns;
  /** Writes the batch's summed daily counters (once per batch and day). */
  readonly flushReports: () => Promise<void>;
  readonly flushMetrics: () => void;
}

/**
 * Dispatches one batch of ring records: each record carries the fires of one lane and second, all
 * dispatched concurrently with the rest of the batch, except that a job's scheduled fires claim and
 * send one after another in schedule order, with those of the other batches in flight in this
 * process (see JobTurns: a backlog, after a pause or a restart, brings several seconds of a job at
 * once, and sent side by side they would race each other's order check and reach the executor in
 * either order). Late DO_NOTHING fires are not claimed one by one: each job's are recorded in its
 * skip ranges once the batch's other fires are done (see skip-ranges.ts). What the batch's fires
 * sent is recorded under one claim token (one `DispatchRecord` for the batch, not one per record:
 * at a few fires per ring message that was most of its writes). Answers the ids of the records to
 * deliver again: those with an infrastructure failure in any of their fires (their fires already
 * dispatched are then recognised as duplicates). A malformed body or fire, or a permanent error, is
 * logged and dropped.
 *
 * `deadline`: when the consumer's time runs out (epoch ms); nothing is sent within the send margin of it.
 */
export async function dispatchRingBatch(
  deps: RingBatchDeps,
  records: readonly RingRecord[],
  deadline: number,
  requestId?: string,
): Promise<string[]> {
  const batch: BatchRecord[] = records.map((record) => ({ record, fires: firesOf(deps, record, requestId) }));
  // What the batch's fires send is written down as they go (see DispatchRecord).
  const sent = new DispatchRecord(deps, deps.clock.now(), deadline - deps.settings.sendMarginMs);
  // The batch's fires share their reads (jobs in one BatchGet, groups, online executors).
  const reads = new BatchReads(deps);
  reads.preloadJobs(batch.flatMap(({ fires }) => fires.map((f) => f.jobId)));
  try {
    // Every scheduled fire takes its place in its job's line before any of them asks for the turn.
    const turns = batch.map(({ fires }) =>
      fires.map((fire) =>
        SCHEDULED_TRIGGERS.has(fire.triggerType)
          ? deps.jobTurns.enter(fire.jobId, fire.scheduledTime)
          : undefined,
      ),
    );
    const late = await lateFires(deps, reads, batch, turns);
    const isLate = new Set(late.map(({ r, i }) => `${r}/${i}`));
    const dispatched = batch.map(({ record, fires }, r) =>
      Promise.all(
        fires.map(async (fire, i) => {
          if (isLate.has(`${r}/${i}`)) return false;
          const turn = turns[r]?.[i];
          try {
            return await dispatchOne(deps, record, fire, reads, sent, turn, requestId);
          } finally {
            turn?.leave();
          }
        }),
      ),
    );
    // Each job's late fires are written in its turn (see recordLateFires), beside the other fires.
    const skipsFailed =
      late.length === 0
        ? Promise.resolve(new Set<number>())
        : recordLateFires(deps, batch, late, reads, sent, requestId);
    const failed = await Promise.all(
      batch.map(async ({ record }, r) => {
        const retry = (await dispatched[r]) ?? [];
        const skipRetry = late.some((l) => l.r === r) && (await skipsFailed).has(r);
        return retry.some(Boolean) || skipRetry ? record.id : undefined;
      }),
    );
    try {
      await sent.save();
    } catch (err) {
      // Its runs were sent: redelivering the records cannot help. They are missing from the app
      // lists and the lost-run watch, and a duplicate of one may send it again.
      deps.logger.error('recording what was sent failed', {
        messageIds: records.map((record) => record.id),
        claimToken: sent.claimToken,
        error: String(err),
      });
    }
    return failed.filter((id): id is string => id !== undefined);
  } finally {
    await deps.flushReports();
    deps.flushMetrics();
  }
}

interface BatchRecord {
  readonly record: RingRecord;
  readonly fires: FireMessage[];
}

/** A late fire of the batch, with its place: record `r`, fire `i`, and its place in its job's line. */
interface PlacedLateFire {
  readonly r: number;
  readonly i: number;
  readonly job: Job;
  readonly late: LateFire;
  readonly turn: JobTurn | undefined;
}

/** The batch's late fires that join their jobs' skip ranges (see `lateFireOf`). */
async function lateFires(
  deps: RingBatchDeps,
  reads: BatchReads,
  batch: readonly BatchRecord[],
  turns: readonly (readonly (JobTurn | undefined)[])[],
): Promise<PlacedLateFire[]> {
  const placed = await Promise.all(
    batch.flatMap(({ fires }, r) =>
      fires.map(async (fire, i): Promise<PlacedLateFire | undefined> => {
        if (fire.logId === undefined || !SCHEDULED_TRIGGERS.has(fire.triggerType)) return undefined;
        // A job that cannot be read leaves the fire to its own path, which reports the failure.
        const job = await reads.job(fire.jobId).catch(() => undefined);
        const late = lateFireOf(job, fire, deps.clock.now());
        return job && late ? { r, i, job, late, turn: turns[r]?.[i] } : undefined;
      }),
    ),
  );
  return placed.filter((p): p is PlacedLateFire => p !== undefined);
}

/**
 * Records the late fires in their jobs' skip ranges, and sends those left to their own path (see
 * `recordSkipRanges`) down it. Answers the records to deliver again (a store failure).
 *
 * A job's late fires are written in the turn of the earliest of them (see JobTurns), so the batches
 * in flight in this process write a job's skips in schedule order: each then extends the range the
 * one before wrote, where two batches writing at once made a range each. They are the job's
 * earliest fires of the batch (lateness only grows), and its later fires wait for the one write.
 */
async function recordLateFires(
  deps: RingBatchDeps,
  batch: readonly BatchRecord[],
  late: readonly PlacedLateFire[],
  reads: BatchReads,
  sent: DispatchRecord,
  requestId: string | undefined,
): Promise<Set<number>> {
  const byJob = new Map<number, PlacedLateFire[]>();
  for (const fire of late) byJob.set(fire.job.id, [...(byJob.get(fire.job.id) ?? []), fire]);
  const retry = new Set<number>();
  await Promise.all(
    [...byJob.values()].map(async (fires) => {
      const job = fires[0]?.job;
      if (!job) return;
      const earliest = fires.reduce((a, b) =>
        b.late.message.scheduledTime < a.late.message.scheduledTime ? b : a,
      );
      let ownPath: readonly LateFire[];
      try {
        await earliest.turn?.take();
        ownPath = await recordSkipRanges(
          deps,
          job,
          fires.map((f) => f.late),
        );
      } catch (err) {
        const drop = isAppError(err) && !err.retryable;
        deps.logger.error(
          drop ? 'late fires dropped' : 'recording late fires failed; their messages will be redelivered',
          {
            messageIds: [...new Set(fires.map((f) => batch[f.r]?.record.id))],
            requestId,
            jobId: job.id,
            error: String(err),
          },
        );
        if (!drop) for (const f of fires) retry.add(f.r);
        for (const f of fires) f.turn?.leave();
        return;
      }
      try {
        await Promise.all(
          ownPath.map(async (late) => {
            const placed = fires.find((f) => f.late === late);
            const from = placed && batch[placed.r];
            if (!placed || !from) return;
            // Late: it can only be recorded as skipped (or found recorded), never sent; it is in the job's turn.
            if (await dispatchOne(deps, from.record, late.message, reads, sent, undefined, requestId)) {
              retry.add(placed.r);
            }
          }),
        );
      } finally {
        for (const f of fires) f.turn?.leave();
      }
    }),
  );
  return retry;
}

function firesOf(deps: RingBatchDeps, record: RingRecord, requestId: string | undefined): FireMessage[] {
  const keys = { messageId: record.id, requestId };
  try {
    const { fires, rejected } = parseRingMessage(record.body);
    for (const err of rejected) deps.logger.error('malformed fire dropped', { ...keys, error: err.message });
    return fires;
  } catch (err) {
    deps.logger.error('fire message dropped', {
      ...keys,
      error: String(err),
      body: record.body.slice(0, 500),
    });
    return [];
  }
}

/** True when the fire must be tried again (its record is then reported as failed). */
async function dispatchOne(
  deps: RingBatchDeps,
  record: RingRecord,
  fire: FireMessage,
  reads: BatchReads,
  sent: DispatchRecord,
  turn: JobTurn | undefined,
  requestId: string | undefined,
): Promise<boolean> {
  try {
    await dispatchFire(deps, deps.settings, fire, record.lane, reads, sent, turn);
    return false;
  } catch (err) {
    const drop = isAppError(err) && !err.retryable; // permanent: redelivery cannot help
    deps.logger.error(drop ? 'fire dropped' : 'dispatch failed; the message will be redelivered', {
      messageId: record.id,
      requestId,
      jobId: fire.jobId,
      scheduledTime: fire.scheduledTime,
      error: String(err),
    });
    return !drop;
  }
}
