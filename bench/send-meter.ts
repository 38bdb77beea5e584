import { METRIC } from '@tickring/core/common';
import type { MetricSink } from '../local/functions.js';
import type { TimeWindow } from './fire-count.js';
import { type Summary, summarize } from './stats.js';

/**
 * Records the dispatcher's `Lateness` metric (send time − scheduled time, taken just before a run is
 * sent) through `startLocal`'s metric sink. Beside the lateness the executors see, it tells whether a
 * late run was late leaving the dispatcher or on its way to the executor.
 */
export class SendMeter {
  private readonly samples: { at: number; ms: number }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  readonly sink: MetricSink = (functionName, name, _unit, value) => {
    if (functionName === 'dispatcher' && name === METRIC.lateness)
      this.samples.push({ at: this.now(), ms: value });
  };

  /** The send lateness of runs sent inside the window. */
  load(window: TimeWindow): Summary {
    return summarize(this.samples.filter((s) => s.at >= window.start && s.at < window.end).map((s) => s.ms));
  }
}
