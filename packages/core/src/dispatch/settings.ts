/** How the dispatcher waits, claims and sends (functions/dispatcher/deps.ts sets them from its config). */
export interface DispatchSettings {
  /** Registry entries older than this are offline (XXL-JOB's DEAD_TIMEOUT, 90 s). */
  readonly registryDeadSeconds: number;
  /** A recorded, never-dispatched run whose claim is older than this is taken over (the dispatcher's timeout). */
  readonly claimStaleMs: number;
  /** Longest wait for a fire's time inside one invocation; a fire further out goes back on the ring. */
  readonly maxWaitMs: number;
  /**
   * How long before its time a fire is routed and recorded. A record's fires arrive together up to
   * a second early; claiming each just ahead of its own time, rather than all on arrival, spreads
   * their writes (and the CPU they cost) over the second instead of stalling the sends due meanwhile.
   */
  readonly claimLeadMs: number;
  /**
   * Nothing is sent when less than this is left of the invocation (see `DispatchRecord.sendBy`):
   * the executor call's timeout and the record's write must fit in what is left.
   */
  readonly sendMarginMs: number;
}

export const DISPATCH_DEFAULTS: DispatchSettings = {
  registryDeadSeconds: 90,
  // The dispatcher's timeout (15 s, FUNCTIONS.dispatcher) and a margin, as functions/dispatcher/config.ts.
  claimStaleMs: 20_000,
  maxWaitMs: 5_000,
  claimLeadMs: 250,
  sendMarginMs: 5_000,
};
