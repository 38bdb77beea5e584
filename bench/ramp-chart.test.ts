import { describe, expect, it } from 'vitest';
import { rampChartSpec, renderRampChart } from './ramp-chart.js';
import { overloadVerdict } from './ramp-count.js';
import type { RampFile, RampSeries, RampStep } from './ramp-result.js';

function step(offered: number, executedPerSecond: number, p99: number): RampStep {
  const seconds = 20;
  const executed = executedPerSecond * seconds;
  return {
    offered,
    seconds,
    window: { start: '2026-11-27T12:00:00.000Z', end: '2026-11-27T12:00:20.000Z' },
    expected: offered * seconds,
    executed,
    skipped: offered * seconds - executed,
    failed: 0,
    missed: 0,
    duplicates: 0,
    outOfOrder: 0,
    executedPerSecond,
    latenessMs: { p50: p99 / 2, p90: p99, p99, max: p99 },
    tickMisfireSkips: null,
    skippedOverloadMetric: null,
    cpuCores: { node: 0.5, main: 0.3, executors: 0.1, store: Number.NaN },
    loadAverage: 2,
    setupSeconds: 1,
  };
}

function series(name: string, system: RampSeries['system'], steps: RampStep[]): RampSeries {
  return {
    name,
    system,
    knee: { rate: 100, source: 'given' },
    overload: overloadVerdict(steps),
    steps,
    details: {},
  };
}

const FILE: RampFile = {
  mode: 'ramp',
  command: '--ramp --ramp-max 100',
  startedAt: '2026-11-27T12:00:00.000Z',
  endedAt: '2026-11-27T12:10:00.000Z',
  machine: '2 × test CPU, 24 GiB, node v22',
  loadAverage: { start: 1, end: 2, min: 1.5, max: 3 },
  series: [
    series('tickring on SQLite', 'sqlite', [step(50, 50, 40), step(100, 100, 80), step(300, 280, 4000)]),
    series('tickring on DynamoDB Local', 'dynamodb-local', [step(50, 50, 90), step(150, 60, Number.NaN)]),
    series('BullMQ + Redis', 'bullmq', [step(50, 50, 120), step(300, 250, 900)]),
  ],
};

describe('the overload chart', () => {
  it('draws executed/s per offered/s and p99 per step, each series in both panels', () => {
    const spec = rampChartSpec([FILE]) as unknown as {
      vconcat: { layer?: { data: { values: unknown[] } }[]; data?: { values: { series: string }[] } }[];
    };
    expect(spec.vconcat).toHaveLength(2);
    const executed = spec.vconcat[0]?.layer?.at(-1)?.data.values ?? [];
    expect(executed).toHaveLength(7);
    // The step with nothing run has no p99 on the log scale.
    expect(spec.vconcat[1]?.data?.values).toHaveLength(6);
  });

  it('renders an SVG naming every series, the axes and the command', async () => {
    const svg = await renderRampChart([FILE]);

    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toMatch(/^<svg[^>]* role="img" aria-label="Overload ramp: [^"]+"><title>Overload ramp: /);
    for (const name of ['tickring on SQLite', 'tickring on DynamoDB Local', 'BullMQ + Redis']) {
      expect(svg).toContain(name);
    }
    expect(svg).toContain('offered fires/s (log)');
    expect(svg).toContain('executed fires/s (log)');
    expect(svg).toContain('lateness p99, ms (log)');
    expect(svg).toContain('npm run bench -- --ramp --ramp-max 100');
  });
});
