/**
 * Counts slow dispatches (route + send over 500 ms) per job and wall-clock minute, across dispatcher
 * instances; XXL-JOB keeps the same counter in one admin's memory (`jobTimeoutCountMap`).
 */
export interface SlowTracker {
  /** Adds one slow dispatch of `jobId` to the minute of `nowMs`; resolves to that minute's count so far. */
  countSlowDispatch(jobId: number, nowMs: number): Promise<number>;
}
