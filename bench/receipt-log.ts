import { type Fire, fireKey, type Receipt } from './fire-count.js';

/** Every run the executors' handlers received, in order, and which fires have run at all. */
export class ReceiptLog {
  private readonly list: Receipt[] = [];
  private readonly ran = new Set<string>();

  record(jobId: number, scheduledTime: number, receivedAt = Date.now()): void {
    this.list.push({ jobId, scheduledTime, receivedAt });
    this.ran.add(fireKey(jobId, scheduledTime));
  }

  get receipts(): readonly Receipt[] {
    return this.list;
  }

  /** How many of these fires have not run yet. */
  notYetRun(fires: readonly Fire[]): number {
    let n = 0;
    for (const f of fires) if (!this.ran.has(fireKey(f.jobId, f.scheduledTime))) n++;
    return n;
  }
}
