import { describe, expect, it } from 'vitest';
import type { ReportDelta, ReportStore } from './alarms.js';
import { BufferedReportStore } from './buffered-report-store.js';

/** The store behind the buffer: records each add; `failDays` reject, `gate` holds every add until opened. */
class RecordingStore implements ReportStore {
  readonly adds: { day: string; delta: ReportDelta }[] = [];
  readonly failDays = new Set<string>();
  gate: Promise<void> = Promise.resolve();

  async add(day: string, delta: ReportDelta): Promise<void> {
    await this.gate;
    if (this.failDays.has(day)) throw new Error('ProvisionedThroughputExceededException');
    this.adds.push({ day, delta });
  }

  async range(fromDay: string, toDay: string) {
    return [
      {
        day: fromDay === toDay ? fromDay : `${fromDay}..${toDay}`,
        running: 1,
        success: 2,
        fail: 3,
        skipped: 4,
      },
    ];
  }
}

describe('BufferedReportStore', () => {
  it('writes nothing on add, then one add per day with the summed deltas on flush', async () => {
    const inner = new RecordingStore();
    const store = new BufferedReportStore(inner);
    await store.add('2030-01-01', { running: 1 });
    await store.add('2030-01-01', { running: -1, success: 1 });
    await store.add('2030-01-02', { running: -1, fail: 1 });
    await store.add('2030-01-01', { running: -1, fail: 1 });
    expect(inner.adds).toEqual([]);
    expect(store.pendingDays).toBe(2);

    await store.flush();

    expect(inner.adds).toEqual([
      { day: '2030-01-01', delta: { running: -1, success: 1, fail: 1 } },
      { day: '2030-01-02', delta: { running: -1, fail: 1 } },
    ]);
    expect(store.pendingDays).toBe(0);
    await store.flush();
    expect(inner.adds).toHaveLength(2);
  });

  it('sums skipped fires with the other counters of their day: one add for all of them', async () => {
    const inner = new RecordingStore();
    const store = new BufferedReportStore(inner);
    await store.add('2030-01-01', { skipped: 1 });
    await store.add('2030-01-01', { running: 1 });
    await store.add('2030-01-01', { skipped: 2 });
    await store.add('2030-01-02', { skipped: 1 });
    await store.flush();
    expect(inner.adds).toEqual([
      { day: '2030-01-01', delta: { running: 1, skipped: 3 } },
      { day: '2030-01-02', delta: { skipped: 1 } },
    ]);
  });

  it('skips a day whose deltas cancel out', async () => {
    const inner = new RecordingStore();
    const store = new BufferedReportStore(inner);
    await store.add('2030-01-01', { running: 1 });
    await store.add('2030-01-01', { running: -1 });
    await store.flush();
    expect(inner.adds).toEqual([]);
  });

  it('keeps what is added during a flush for the next one, and a flush waits for the one in progress', async () => {
    const inner = new RecordingStore();
    const store = new BufferedReportStore(inner);
    let open = () => {};
    inner.gate = new Promise((resolve) => {
      open = resolve;
    });
    await store.add('2030-01-01', { success: 1 });
    const first = store.flush();
    await new Promise((r) => setTimeout(r, 0)); // the first flush is writing (held at the gate)
    await store.add('2030-01-01', { success: 5 });
    const second = store.flush();
    let secondDone = false;
    void second.then(() => {
      secondDone = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(secondDone).toBe(false);
    open();
    await Promise.all([first, second]);
    expect(inner.adds).toEqual([
      { day: '2030-01-01', delta: { success: 1 } },
      { day: '2030-01-01', delta: { success: 5 } },
    ]);
  });

  it('writes the other days when one fails, rejects naming it, and does not write it again', async () => {
    const inner = new RecordingStore();
    inner.failDays.add('2030-01-02');
    const store = new BufferedReportStore(inner);
    await store.add('2030-01-01', { success: 1 });
    await store.add('2030-01-02', { fail: 1 });
    await expect(store.flush()).rejects.toThrow('report counters of 2030-01-02 not written');
    expect(inner.adds).toEqual([{ day: '2030-01-01', delta: { success: 1 } }]);
    inner.failDays.clear();
    await store.flush();
    expect(inner.adds).toHaveLength(1);
    await store.add('2030-01-02', { fail: 1 });
    await store.flush(); // a failed flush does not block the next one
    expect(inner.adds).toEqual([
      { day: '2030-01-01', delta: { success: 1 } },
      { day: '2030-01-02', delta: { fail: 1 } },
    ]);
  });

  it('flushOrLog logs a failed flush instead of rejecting', async () => {
    const inner = new RecordingStore();
    inner.failDays.add('2030-01-01');
    const store = new BufferedReportStore(inner);
    const errors: { message: string; attributes?: Record<string, unknown> }[] = [];
    await store.add('2030-01-01', { success: 1 });
    await store.flushOrLog({ error: (message, attributes) => errors.push({ message, attributes }) });
    expect(errors).toEqual([
      {
        message: 'report counters not updated',
        attributes: { error: expect.stringContaining('report counters of 2030-01-01 not written') },
      },
    ]);
  });

  it('reads the counters from the store behind it', async () => {
    const store = new BufferedReportStore(new RecordingStore());
    expect(await store.range('2030-01-01', '2030-01-01')).toEqual([
      { day: '2030-01-01', running: 1, success: 2, fail: 3, skipped: 4 },
    ]);
  });
});
