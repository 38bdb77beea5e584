import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { GRACEFUL_SHARE, type RampFile } from './ramp-result.js';
import { num } from './table.js';

const WIDTH = 560;
const HEIGHT = 240;

/**
 * The overload curve as a Vega-Lite spec, from one ramp's file or several (e.g. one per store): executed
 * fires/s against offered fires/s per series (with the line where all that is offered runs, and
 * each series' 90 % of its sustained rate), and each step's lateness p99 (log scale) below; the
 * commands, machine and load in the subtitle.
 */
export function rampChartSpec(files: readonly RampFile[]): TopLevelSpec {
  // tickring's stores first, the peers after them, as the runs go.
  const all = files
    .flatMap((file) => file.series)
    .sort((a, b) => Number(a.system === 'bullmq') - Number(b.system === 'bullmq'));
  const points = all.flatMap((series) =>
    series.steps.map((step) => ({
      series: series.name,
      offered: step.offered,
      // The log scale has no 0: a step that ran nothing is drawn at 1/s (the subtitle says so).
      executed: Math.max(1, step.executedPerSecond),
      ranNothing: step.executedPerSecond < 1,
      // The log scale needs a positive value; a step with nothing run has no p99 to draw.
      p99: Number.isFinite(step.latenessMs.p99) ? Math.max(1, step.latenessMs.p99) : null,
    })),
  );
  // Through every offered rate: on the log axis a line between two points would not be executed = offered.
  const diagonal = [...new Set(points.map((p) => p.offered))]
    .sort((a, b) => a - b)
    .map((offered) => ({ offered, executed: offered }));
  const floors = all
    .filter((s) => Number.isFinite(s.overload.sustainedPerSecond))
    .map((s) => ({ series: s.name, floor: s.overload.sustainedPerSecond * GRACEFUL_SHARE }));
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    scale: { domain: all.map((s) => s.name) },
  } as const;
  // Log: the steps grow by half again each, from 50 to thousands, and the stores' knees are far apart.
  const x = {
    field: 'offered',
    type: 'quantitative',
    title: 'offered fires/s (log)',
    scale: { type: 'log', nice: false },
  } as const;
  const executedY = {
    type: 'quantitative',
    title: 'executed fires/s (log)',
    scale: { type: 'log', nice: false },
  } as const;
  const loads = files.flatMap((f) => [f.loadAverage.min, f.loadAverage.max]).filter(Number.isFinite);
  const days = [...new Set(files.map((f) => f.startedAt.slice(0, 10)))].join(', ');
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Overload ramp: executed fires/s and lateness p99 as the offered rate grows',
      subtitle: [
        ...files.map((f) => `npm run bench -- ${f.command}`),
        files[0]?.machine ?? '',
        `${days}, 1-minute load ${num(Math.min(...loads), 1)}–${num(Math.max(...loads), 1)} over the steps`,
        "dashed: executed = offered; dotted: 90 % of each series' highest clean rate" +
          (points.some((p) => p.ranNothing) ? '; a step that ran nothing is drawn at 1/s' : ''),
      ],
      anchor: 'start',
    },
    // No ARIA roles on every mark: the document's own title describes it (and the lint reads SVGs).
    config: { legend: { orient: 'right', labelLimit: 300 }, font: 'sans-serif', aria: false },
    vconcat: [
      {
        width: WIDTH,
        height: HEIGHT,
        layer: [
          {
            data: { values: diagonal },
            mark: { type: 'line', color: '#999', strokeDash: [4, 4] },
            encoding: { x, y: { ...executedY, field: 'executed' } },
          },
          {
            data: { values: floors },
            mark: { type: 'rule', strokeDash: [2, 3], opacity: 0.6 },
            encoding: { y: { ...executedY, field: 'floor' }, color },
          },
          {
            data: { values: points },
            mark: { type: 'line', point: true },
            encoding: {
              x,
              y: { ...executedY, field: 'executed' },
              color,
            },
          },
        ],
      },
      {
        width: WIDTH,
        height: HEIGHT,
        data: { values: points.filter((p) => p.p99 !== null) },
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'p99', type: 'quantitative', scale: { type: 'log' }, title: 'lateness p99, ms (log)' },
          color,
        },
      },
    ],
  } as TopLevelSpec;
}

/** The chart as an SVG document (rendered in Node: no canvas, no browser). */
export async function renderRampChart(files: readonly RampFile[]): Promise<string> {
  const view = new View(parse(compile(rampChartSpec(files)).spec), { renderer: 'none' });
  try {
    return withTitle(await view.toSVG(), chartTitle(files));
  } finally {
    view.finalize();
  }
}

/** What the chart shows, in words: its SVG's title (read by screen readers and required by the lint). */
export function chartTitle(files: readonly RampFile[]): string {
  const names = files.flatMap((f) => f.series.map((s) => s.name));
  return `Overload ramp: executed fires/s and lateness p99 against offered fires/s for ${names.join(', ')}`;
}

/**
 * The SVG as one image: `title` as its first child and its label, and none of the ARIA roles Vega
 * still puts on its groups and axes (which the lint refuses on SVG elements).
 */
function withTitle(svg: string, title: string): string {
  const text = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return svg
    .replace(/ (role|aria-[a-z]+)="[^"]*"/g, '')
    .replace(/^<svg([^>]*)>/, `<svg$1 role="img" aria-label="${text}"><title>${text}</title>`);
}

/** Reads ramps' JSON files (`.bench/ramp.json`, one per invocation) and writes their chart, all series in one. */
export async function writeRampChart(from: readonly string[], to: string): Promise<void> {
  const files: RampFile[] = [];
  for (const path of from) {
    const file = JSON.parse(await readFile(path, 'utf8')) as RampFile;
    if (file.mode !== 'ramp' || !Array.isArray(file.series)) {
      throw new Error(`${path} is not a ramp's JSON (npm run bench -- --ramp writes one)`);
    }
    files.push(file);
  }
  await writeChart(files, to);
}

export async function writeChart(files: readonly RampFile[], to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await writeFile(to, `${await renderRampChart(files)}\n`);
}
