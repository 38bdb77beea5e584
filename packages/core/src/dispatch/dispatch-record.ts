import { isAppError } from '../common/errors.js';
import type { DispatchEntry } from '../runs/run-store.js';
import type { DispatchDeps } from './dispatch-deps.js';

/** How long a sent run waits for others sent about then to share its dispatch-record write. */
export const RECORD_LINGER_MS = 50;
const RECORD_WRITE_ATTEMPTS = 3;

/**
 * The runs one ring batch (or one fire dispatched alone) sends, under one claim token. Each is
 * written to the record (`RunStore.recordDispatch`) within {@link RECORD_LINGER_MS} of being sent,
 * together with the others sent meanwhile (the fires of a batch mostly share their millisecond: one
 * write for the batch, not one per ring message): a run sent but not yet written could be taken over
 * and sent again by a duplicate delivery, so that window stays short. Nothing is sent after `sendBy`
 * (the invocation's deadline less a margin): a run is then left for the redelivery rather than sent
 * by an invocation about to be cut off before writing it down.
 */
export class DispatchRecord {
  readonly claimToken: string;
  private readonly claimed = new Set<string>();
  private unwritten: DispatchEntry[] = [];
  private readonly writes: Promise<void>[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: unknown;

  constructor(
    private readonly deps: Pick<DispatchDeps, 'runs' | 'logger' | 'clock'>,
    nowMs: number,
    readonly sendBy: number = Number.POSITIVE_INFINITY,
  ) {
    this.claimToken = deps.runs.newClaimToken(nowMs);
  }

  /**
   * True the first time a fire (its dedupKey) comes to be claimed under this record. A second copy
   * in the same batch (a redelivery, a re-plan) would find the first one's claim under the same
   * token and take it for its own write whose answer was lost: it is a duplicate, and claims nothing.
   */
  firstClaim(dedupKey: string): boolean {
    if (this.claimed.has(dedupKey)) return false;
    this.claimed.add(dedupKey);
    return true;
  }

  add(entry: DispatchEntry): void {
    this.unwritten.push(entry);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, RECORD_LINGER_MS);
  }

  /** Writes what is not written yet and waits for every write; rejects if one failed. */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
    await Promise.all(this.writes);
    if (this.failure !== undefined) throw this.failure;
  }

  private write(): void {
    const entries = this.unwritten.splice(0);
    if (entries.length === 0) return;
    // Tried again on an infrastructure error: without it a sent run could be sent again.
    const written = withRetries(this.deps, this.claimToken, () =>
      this.deps.runs.recordDispatch(this.claimToken, entries),
    ).catch((err: unknown) => {
      this.failure ??= err;
    });
    this.writes.push(written);
  }
}

/**
 * Recording a fire, tried again on an infrastructure error or a store that cannot take writes for now
 * (a full disk, where a later small write may fit); the write is idempotent.
 */
export async function withRetries<R>(
  deps: Pick<DispatchDeps, 'logger' | 'clock'>,
  dedupKey: string,
  write: () => Promise<R>,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((isAppError(err) && !err.retryable) || attempt >= RECORD_WRITE_ATTEMPTS) throw err;
      deps.logger.warn('recording the fire failed, trying again', { dedupKey, attempt, error: String(err) });
      await deps.clock.sleep(50 * 2 ** attempt);
    }
  }
}
