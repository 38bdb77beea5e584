import { isAppError } from '../common/errors.js';
import { BatchReads } from './batch-reads.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { dispatchFire } from './dispatch-fire.js';
import { DispatchRecord } from './dispatch-record.js';
import { SCHEDULED_TRIGGERS } from './drop-rules.js';
import type { JobTurn, JobTurns } from './job-turns.js';
import type { RingLane } from './ring-queue.js';
import type { DispatchSettings } from './settings.js';
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
 * either order). What a record's fires sent is recorded in one write (the record's
 * `DispatchRecord`). Answers the ids of the records to deliver again: those with an infrastructure
 * failure in any of their fires (their fires already dispatched are then recognised as duplicates).
 * A malformed body or fire, or a permanent error, is logged and dropped.
 *
 * `deadline`: when the consumer's time runs out (epoch ms); nothing is sent within the send margin of it.
 */
export async function dispatchRingBatch(
  deps: RingBatchDeps,
  records: readonly RingRecord[],
  deadline: number,
  requestId?: string,
): Promise<string[]> {
  const batch = records.map((record) => ({
    record,
    fires: firesOf(deps, record, requestId),
    // What the record's fires send is written down as they go (see DispatchRecord).
    sent: new DispatchRecord(deps, deps.clock.now(), deadline - deps.settings.sendMarginMs),
  }));
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
    const failed = await Promise.all(
      batch.map(async ({ record, fires, sent }, r) => {
        const retry = await Promise.all(
          fires.map(async (fire, i) => {
            const turn = turns[r]?.[i];
            try {
              return await dispatchOne(deps, record, fire, reads, sent, turn, requestId);
            } finally {
              turn?.leave();
            }
          }),
        );
        try {
          await sent.save();
        } catch (err) {
          // Its runs were sent: redelivering the record cannot help. They are missing from the app
          // lists and the lost-run watch, and a duplicate of one may send it again.
          deps.logger.error('recording what was sent failed', {
            messageId: record.id,
            claimToken: sent.claimToken,
            error: String(err),
          });
        }
        return retry.some(Boolean) ? record.id : undefined;
      }),
    );
    return failed.filter((id): id is string => id !== undefined);
  } finally {
    await deps.flushReports();
    deps.flushMetrics();
  }
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
