import { GRACEFUL_SHARE, type RampFile, type RampSeries } from './ramp-result.js';
import { num, table } from './table.js';

const STEP_HEADERS = [
  'offered/s',
  'executed/s',
  'expected',
  'executed',
  'skipped',
  'failed',
  'missed',
  'dup.',
  'out of order',
  'lateness p50 / p99 / max ms',
  'tick skips',
  'CPU cores: node (main / executors), store',
  'load',
  'setup s',
];

/** One series: where its knee came from, a row per step, and the graceful-overload verdict. */
export function rampSeriesSummary(series: RampSeries, stepSeconds: number): string {
  const { knee } = series;
  const searched =
    knee.search === undefined
      ? ''
      : ` (knee search: ${knee.search.map((s) => `${num(s.jobs)} ${s.clean ? 'clean' : `missed ${num(s.missed)}`}`).join(', ')})`;
  const rows = series.steps.map((s) => [
    num(s.offered),
    num(s.executedPerSecond, 1),
    num(s.expected),
    num(s.executed),
    num(s.skipped),
    num(s.failed),
    num(s.missed),
    num(s.duplicates),
    num(s.outOfOrder),
    `${num(s.latenessMs.p50)} / ${num(s.latenessMs.p99)} / ${num(s.latenessMs.max)}`,
    s.tickMisfireSkips === null ? '–' : num(s.tickMisfireSkips),
    `${num(s.cpuCores.node, 2)} (${num(s.cpuCores.main, 2)} / ${num(s.cpuCores.executors, 2)})` +
      (Number.isFinite(s.cpuCores.store) ? `, ${num(s.cpuCores.store, 2)}` : ''),
    num(s.loadAverage, 2),
    num(s.setupSeconds, 1),
  ]);
  return [
    `Overload ramp, ${series.name}: up to ${num(series.steps.at(-1)?.offered)} fires/s, ${knee.source === 'given' ? 'knee given' : 'knee searched'} ` +
      `${num(knee.rate)} fires/s${searched}; windows of ${stepSeconds} s`,
    table(STEP_HEADERS, rows),
    verdictLine(series),
  ].join('\n');
}

/** "Graceful overload: …": the sustained rate, the lowest executed/s beyond it, and the target. */
export function verdictLine(series: RampSeries): string {
  const o = series.overload;
  if (!Number.isFinite(o.sustainedPerSecond)) {
    return `Graceful overload: no step of ${series.name} was clean, so no sustained rate to hold to`;
  }
  if (!Number.isFinite(o.lowestBeyondPerSecond)) {
    return `Graceful overload: ${series.name} sustained ${num(o.sustainedPerSecond, 1)}/s and no step offered more`;
  }
  return (
    `Graceful overload: ${series.name} sustained ${num(o.sustainedPerSecond, 1)} fires/s (its highest clean step); ` +
    `offered up to ${num(o.offeredUpTo, 1)}× that, it executed at least ${num(o.lowestBeyondPerSecond, 1)}/s, ` +
    `${num(o.ratio * 100)} % of it: ${o.holds ? 'holds' : 'does not hold'} (target ≥ ${num(GRACEFUL_SHARE * 100)} %)`
  );
}

/** Everything after the per-series tables: the load and a verdict per series. */
export function rampSummary(file: RampFile): string {
  const l = file.loadAverage;
  return [
    `1-minute load average: ${num(l.start, 2)} at the start, ${num(l.min, 2)}–${num(l.max, 2)} over the steps, ${num(l.end, 2)} at the end`,
    ...file.series.map(verdictLine),
  ].join('\n');
}

/** The ramp's one JSON line: per series its verdict and, per step, the curve's figures. */
export function rampLine(file: RampFile): Record<string, unknown> {
  return {
    ramp: file.series.map((s) => ({
      name: s.name,
      system: s.system,
      knee: s.knee.rate,
      kneeSource: s.knee.source,
      sustainedPerSecond: s.overload.sustainedPerSecond,
      lowestBeyondPerSecond: s.overload.lowestBeyondPerSecond,
      ratio: s.overload.ratio,
      holds: s.overload.holds,
      steps: s.steps.map((step) => ({
        offered: step.offered,
        executedPerSecond: step.executedPerSecond,
        skipped: step.skipped,
        failed: step.failed,
        missed: step.missed,
        latenessP99Ms: step.latenessMs.p99,
      })),
    })),
    loadAverage: file.loadAverage,
  };
}

/** Flags whose values are this machine's paths: left out of the command the file and chart show. */
const PATH_FLAGS = new Set(['--out', '--chart']);

/** The command line's flags as the chart shows them: without where its files went. */
export function shownCommand(argv: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (PATH_FLAGS.has(arg)) i++;
    else if (!PATH_FLAGS.has(arg.split('=')[0] as string)) shown.push(arg);
  }
  return shown.join(' ');
}
