/** What became of one fire. */
export type DispatchOutcome =
  | { readonly kind: 'deferred'; readonly delaySeconds: number }
  | { readonly kind: 'dropped'; readonly reason: string }
  /** A duplicate delivery: every run was triggered already, or is being triggered by a live dispatcher. */
  | { readonly kind: 'duplicate'; readonly logIds: readonly number[] }
  | { readonly kind: 'dispatched'; readonly runs: readonly DispatchedRun[]; readonly reclaimed: boolean }
  /** A scheduled fire recorded as a misfire (TRIGGER_CODE.skipped) and not sent: see `misfireOf`. */
  | { readonly kind: 'skipped'; readonly logIds: readonly number[]; readonly reason: string };

export interface DispatchedRun {
  readonly logId: number;
  readonly address: string;
  readonly triggerCode: number;
  /** Route + send, ms. */
  readonly dispatchMs: number;
}
