import { METRIC } from '@tickring/core/common';
import type { MetricSink } from '../local/functions.js';
import type { TimeWindow } from './fire-count.js';
import { summarize } from './stats.js';

export interface TickLoad {
  /** Per wall-clock second of the window: the longest tick iteration started in it, ms. */
  readonly p50: number;
  readonly max: number;
  /** Tick iterations per second (one per live tick invocation: 2 to 4 as the minutes overlap). */
  readonly iterationsPerSecond: number;
  /** Seconds of the window in which no iteration started (one overran its second). */
  readonly secondsWithoutIteration: number;
}

/**
 * Records the tick's `TickDuration` metric (one per loop iteration, each starting on a whole second)
 * through `startLocal`'s metric sink. Every live tick invocation iterates each second, the one
 * holding the shard leases doing the work and the others only trying the leases, so each second
 * counts with its longest iteration: the work that must fit in the second, which should follow the
 * jobs due, not the jobs stored, nor how many invocations overlap.
 */
export class TickMeter {
  private readonly bySecond = new Map<number, { longestMs: number; iterations: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  readonly sink: MetricSink = (functionName, name, _unit, value) => {
    if (functionName !== 'scheduler-tick' || name !== METRIC.tickDuration) return;
    const second = Math.floor((this.now() - value) / 1000);
    const entry = this.bySecond.get(second) ?? { longestMs: 0, iterations: 0 };
    this.bySecond.set(second, {
      longestMs: Math.max(entry.longestMs, value),
      iterations: entry.iterations + 1,
    });
  };

  load(window: TimeWindow): TickLoad {
    const longest: number[] = [];
    let iterations = 0;
    let seconds = 0;
    for (let s = Math.ceil(window.start / 1000); s < Math.ceil(window.end / 1000); s++, seconds++) {
      const entry = this.bySecond.get(s);
      if (!entry) continue;
      longest.push(entry.longestMs);
      iterations += entry.iterations;
    }
    const summary = summarize(longest);
    return {
      p50: summary.p50,
      max: summary.max,
      iterationsPerSecond: seconds > 0 ? iterations / seconds : Number.NaN,
      secondsWithoutIteration: seconds - longest.length,
    };
  }
}
