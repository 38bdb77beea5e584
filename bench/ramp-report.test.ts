import { describe, expect, it } from 'vitest';
import { fireOf } from './ramp-bullmq.js';
import { shownCommand, verdictLine } from './ramp-report.js';
import type { RampSeries } from './ramp-result.js';

describe('shownCommand', () => {
  it('leaves out where the files went, in either form', () => {
    expect(shownCommand(['--ramp', '--out', '/tmp/r.json', '--chart=docs/c.svg', '--store', 'sqlite'])).toBe(
      '--ramp --store sqlite',
    );
  });
});

describe('verdictLine', () => {
  const series = (overload: RampSeries['overload']): RampSeries => ({
    name: 'tickring on SQLite',
    system: 'sqlite',
    knee: { rate: 700, source: 'search' },
    overload,
    steps: [],
    details: {},
  });

  it('says whether executed/s held to 90 % of the sustained rate beyond it', () => {
    expect(
      verdictLine(
        series({
          sustainedPerSecond: 700,
          lowestBeyondPerSecond: 650,
          ratio: 650 / 700,
          offeredUpTo: 3,
          holds: true,
        }),
      ),
    ).toBe(
      'Graceful overload: tickring on SQLite sustained 700.0 fires/s (its highest clean step); offered up to 3.0× that, ' +
        'it executed at least 650.0/s, 93 % of it: holds (target ≥ 90 %)',
    );
    expect(
      verdictLine(
        series({
          sustainedPerSecond: 700,
          lowestBeyondPerSecond: 70,
          ratio: 0.1,
          offeredUpTo: 3,
          holds: false,
        }),
      ),
    ).toMatch(/10 % of it: does not hold/);
    expect(
      verdictLine(
        series({
          sustainedPerSecond: Number.NaN,
          lowestBeyondPerSecond: Number.NaN,
          ratio: Number.NaN,
          offeredUpTo: Number.NaN,
          holds: null,
        }),
      ),
    ).toMatch(/no step of tickring on SQLite was clean/);
  });
});

describe("fireOf (a BullMQ job scheduler's job)", () => {
  it('reads the scheduler from the data and the scheduled slot from the job id', () => {
    expect(fireOf('repeat:s-12:1795799059000', { scheduler: 12 })).toEqual({
      jobId: 12,
      scheduledTime: 1795799059000,
    });
  });

  it('is undefined for a job of no scheduler of the bench', () => {
    expect(fireOf('42', { scheduler: 1 })).toBeUndefined();
    expect(fireOf('repeat:s-1:1795799059000', {})).toBeUndefined();
    expect(fireOf(undefined, { scheduler: 1 })).toBeUndefined();
  });
});
