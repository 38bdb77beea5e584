import { describe, expect, it } from 'vitest';
import { JobTurns } from './job-turns.js';

/**
 * Enters the line, then (a macrotask later, as a batch's fires ask once all have entered) takes the
 * turn, notes the name, and holds the turn until `release` is called.
 */
function runner(turns: JobTurns, order: string[]) {
  return (jobId: number, time: number, name: string) => {
    const turn = turns.enter(jobId, time);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const done = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await turn.take();
      order.push(name);
      await held;
      turn.leave();
    })();
    return { turn, release, done };
  };
}

describe('JobTurns', () => {
  it('gives a job’s turn earliest scheduled time first, whatever order the fires entered in', async () => {
    const order: string[] = [];
    const run = runner(new JobTurns(), order);
    const late = run(1, 3000, 'third');
    const early = run(1, 1000, 'first');
    const middle = run(1, 2000, 'second');
    for (const r of [late, early, middle]) r.release();
    await Promise.all([late.done, early.done, middle.done]);
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it('lets one fire of a job hold the turn at a time, and never puts an earlier fire ahead of the holder', async () => {
    const turns = new JobTurns();
    const order: string[] = [];
    const run = runner(turns, order);
    const holder = run(1, 2000, 'holder');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['holder']);
    // An earlier fire arriving now waits: the holder may have claimed or sent already.
    const earlier = run(1, 1000, 'earlier');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['holder']);
    holder.release();
    earlier.release();
    await Promise.all([holder.done, earlier.done]);
    expect(order).toEqual(['holder', 'earlier']);
    expect(turns.inLine(1)).toBe(0);
  });

  it('passes the turn on when a fire leaves without taking it (dropped, deferred, failed)', async () => {
    const turns = new JobTurns();
    const order: string[] = [];
    const run = runner(turns, order);
    const dropped = turns.enter(1, 1000);
    const next = run(1, 2000, 'next');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    dropped.leave();
    dropped.leave();
    next.release();
    await next.done;
    expect(order).toEqual(['next']);
  });

  it('keeps the jobs apart: one job’s waiting fire never holds back another job', async () => {
    const turns = new JobTurns();
    const order: string[] = [];
    const run = runner(turns, order);
    turns.enter(1, 1000); // job 1's first fire, not yet asking
    const job1 = run(1, 2000, 'job 1');
    const job2 = run(2, 5000, 'job 2');
    job2.release();
    await job2.done;
    expect(order).toEqual(['job 2']);
    expect(turns.inLine(1)).toBe(2);
    job1.release();
  });
});
