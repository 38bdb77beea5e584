import { type FireMessage, parseRingMessage } from '@tickring/core/dispatch';
import { LOG_ID_JOB_FACTOR } from '@tickring/core/runs';
import { ACCESS_TOKEN_HEADER } from '@tickring/executor';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { HandlerWrapper } from '../local/functions.js';
import type { LambdaHandler } from '../local/lambda-host.js';
import type { Fire, TimeWindow } from './fire-count.js';
import type { RunNotice } from './fleet-protocol.js';

/** Deliberate faults, to show the bench's counting catches them. Off unless asked for. */
export interface FaultOptions {
  /**
   * The dispatcher acknowledges one ring record of a window fire without dispatching it (it is
   * taken out of the batch before the real handler runs, so the poller deletes it): the fire never runs.
   */
  readonly dropOneFire?: boolean;
  /**
   * One window fire's trigger is sent again, straight to the executor that ran it (`/run`, fresh
   * logId), right after its first run: the executor really runs it twice.
   */
  readonly duplicateOneFire?: boolean;
}

/** Real logIds start at job 1's range; the re-sent copy takes one below it, which no run has. */
const isResent = (logId: number) => logId < LOG_ID_JOB_FACTOR;
const resentLogId = (logId: number) => 1 + (logId % (LOG_ID_JOB_FACTOR - 1));
const SCHEDULED_TRIGGER_TYPES = new Set(['CRON', 'FIX_RATE', 'ONCE']);

/**
 * Carries out {@link FaultOptions} once `arm()` says which fires qualify: those scheduled at least a
 * second inside the window, so neither fault can touch the warm-up or the drain.
 */
export class FaultInjector {
  private target: TimeWindow | undefined;
  private droppedFire: Fire | undefined;
  private duplicatedFire: Fire | undefined;

  constructor(
    private readonly options: FaultOptions,
    private readonly accessToken: string,
  ) {}

  get enabled(): boolean {
    return Boolean(this.options.dropOneFire || this.options.duplicateOneFire);
  }

  /** What was done: the fire dropped and the fire duplicated, if any. */
  get done(): { readonly dropped?: Fire; readonly duplicated?: Fire } {
    return { dropped: this.droppedFire, duplicated: this.duplicatedFire };
  }

  arm(window: TimeWindow): void {
    this.target = { start: window.start + 1000, end: window.end - 1000 };
  }

  /**
   * For `startLocal({ wrapHandler })`: the dispatcher, minus one qualifying fire when asked to. A
   * ring record carries one fire or a JSON array of them: the fire is cut out of its record (the
   * record goes on without it), or the record is left out of the batch when it was its only fire;
   * either way the poller deletes the record as handled.
   */
  readonly wrapHandler: HandlerWrapper = (functionName, handler) => {
    if (functionName !== 'dispatcher' || !this.options.dropOneFire) return handler;
    const dispatch = handler as LambdaHandler<SQSEvent, SQSBatchResponse>;
    return (async (event: SQSEvent, context) => {
      if (this.droppedFire) return dispatch(event, context);
      const records = event.Records.flatMap((r) => this.withoutTarget(r));
      if (!this.droppedFire) return dispatch(event, context);
      return records.length > 0
        ? dispatch({ ...event, Records: records }, context)
        : { batchItemFailures: [] };
    }) as LambdaHandler;
  };

  /** The record, without the fire to drop if it carries it (nothing when that was its only fire). */
  private withoutTarget(record: SQSRecord): SQSRecord[] {
    if (this.droppedFire) return [record];
    let fires: FireMessage[];
    try {
      ({ fires } = parseRingMessage(record.body));
    } catch {
      return [record]; // not a ring message: the dispatcher deals with it
    }
    const index = fires.findIndex((f) => this.qualifies(f));
    if (index < 0) return [record];
    const [dropped] = fires.splice(index, 1) as [FireMessage];
    this.droppedFire = { jobId: dropped.jobId, scheduledTime: dropped.scheduledTime };
    return fires.length === 0 ? [] : [{ ...record, body: JSON.stringify(fires) }];
  }

  /** For the executors' handler: re-sends the first qualifying run's trigger when asked to. */
  onRun(run: RunNotice): void {
    if (!this.options.duplicateOneFire || this.duplicatedFire || isResent(run.logId)) return;
    const fire = { jobId: run.jobId, scheduledTime: run.logDateTime };
    if (!this.qualifies(fire)) return;
    this.duplicatedFire = fire;
    void fetch(new URL('run', run.address), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [ACCESS_TOKEN_HEADER]: this.accessToken },
      body: JSON.stringify({ ...run.trigger, logId: resentLogId(run.logId) }),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
  }

  private qualifies(fire: Fire & { readonly triggerType?: string }): boolean {
    const target = this.target;
    if (!target) return false;
    if (fire.triggerType !== undefined && !SCHEDULED_TRIGGER_TYPES.has(fire.triggerType)) return false;
    return fire.scheduledTime >= target.start && fire.scheduledTime < target.end;
  }
}
