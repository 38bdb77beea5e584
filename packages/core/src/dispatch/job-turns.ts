/**
 * A job's scheduled fires in this process take turns, earliest scheduled time first: a fire claims
 * and sends only while it holds its job's turn. Two ring batches in flight at once (a local poller's
 * concurrent batches), or one batch with a backlog (after a pause or a restart), may hold several
 * seconds of the same job; without turns a later fire could be claimed first and the earlier then
 * skipped as overtaken, or both reach the executor in either order.
 *
 * A fire enters when its batch starts (so the batch's fires are all known before any asks), asks for
 * the turn when it is due to be claimed, and leaves when its dispatch is over, whatever became of it.
 * It waits only for fires of its job that are in this process and scheduled before it (or holding the
 * turn already), never for a message not yet received.
 */
export class JobTurns {
  private readonly jobs = new Map<number, Place[]>();

  /** A place in the job's line, by scheduled time (equal times in the order they entered). */
  enter(jobId: number, scheduledTime: number): JobTurn {
    let line = this.jobs.get(jobId);
    if (!line) {
      line = [];
      this.jobs.set(jobId, line);
    }
    const place: Place = { scheduledTime, holding: false };
    let i = line.length;
    // Never ahead of the place holding the turn: it is claiming or sending already.
    while (i > 0 && !(line[i - 1] as Place).holding && (line[i - 1] as Place).scheduledTime > scheduledTime)
      i--;
    line.splice(i, 0, place);
    return { take: () => this.take(jobId, place), leave: () => this.leave(jobId, place) };
  }

  /** Fires of the job in this process (holding, waiting or not yet asking). */
  inLine(jobId: number): number {
    return this.jobs.get(jobId)?.length ?? 0;
  }

  private take(jobId: number, place: Place): Promise<void> {
    if (this.jobs.get(jobId)?.[0] === place) {
      place.holding = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      place.wake = () => {
        place.holding = true;
        resolve();
      };
    });
  }

  private leave(jobId: number, place: Place): void {
    const line = this.jobs.get(jobId);
    const i = line?.indexOf(place) ?? -1;
    if (!line || i < 0) return;
    line.splice(i, 1);
    if (line.length === 0) {
      this.jobs.delete(jobId);
      return;
    }
    if (i === 0) (line[0] as Place).wake?.();
  }
}

/** A fire's place in its job's line. */
export interface JobTurn {
  /** Resolves when the fire is first in its job's line; it then holds the turn until it leaves. */
  take(): Promise<void>;
  /** Gives the place up (and the turn, if held). Safe to call more than once. */
  leave(): void;
}

interface Place {
  readonly scheduledTime: number;
  holding: boolean;
  /** Set while the fire waits for its turn. */
  wake?: () => void;
}
