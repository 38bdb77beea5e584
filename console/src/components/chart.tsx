import { useEffect, useRef } from 'preact/hooks';
import uPlot, { type AlignedData, type Options, type Series } from 'uplot';

export interface ChartSeries {
  readonly label: string;
  /** A CSS colour or custom property (`var(--tr-success)`), read at draw time so it follows the theme. */
  readonly color: string;
  /** Bars (counts) or a line (durations, percentiles). Default line. */
  readonly kind?: 'bars' | 'line';
  /** How a value is written in the legend and on hover. */
  readonly format?: (value: number) => string;
  /**
   * What the legend shows at each x when it differs from the value drawn (stacked bars draw running
   * sums; the legend names each layer's own count).
   */
  readonly shown?: readonly (number | null)[];
}

/**
 * A time chart (uPlot): x is epoch seconds, one array of values per series (null for a gap). Sized to
 * its container, redrawn when it resizes; the legend names every series (not colour alone).
 */
export function TimeChart({
  x,
  series,
  values,
  title,
  height = 220,
  yLabel,
  xIncrs,
}: {
  x: readonly number[];
  series: readonly ChartSeries[];
  values: readonly (readonly (number | null)[])[];
  /** The chart's accessible name. */
  title: string;
  height?: number;
  yLabel?: string;
  /** The x axis' tick steps in seconds (e.g. whole days for a chart per day); uPlot's own choice by default. */
  xIncrs?: readonly number[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const css = getComputedStyle(el);
    const resolve = (color: string) => {
      const match = /^var\((--[\w-]+)\)$/.exec(color);
      return match?.[1] ? css.getPropertyValue(match[1]).trim() || color : color;
    };
    const axisColor = css.getPropertyValue('--pico-muted-color').trim() || '#888';
    const gridColor = css.getPropertyValue('--pico-muted-border-color').trim() || '#ddd';
    const bars = uPlot.paths.bars?.({ size: [0.7, 40] });
    const options: Options = {
      width: Math.max(el.clientWidth, 200),
      height,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor },
          ...(xIncrs ? { incrs: [...xIncrs] } : {}),
        },
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor },
          ...(yLabel === undefined ? {} : { label: yLabel }),
          size: 56,
        },
      ],
      series: [
        {},
        ...series.map((s): Series => {
          const color = resolve(s.color);
          return {
            label: s.label,
            stroke: color,
            width: s.kind === 'bars' ? 0 : 2,
            ...(s.kind === 'bars' ? { fill: color, paths: bars } : {}),
            spanGaps: false,
            points: { show: false },
            ...(s.format || s.shown
              ? {
                  value: (_u: uPlot, drawn: number | null, _series: number, idx: number | null) => {
                    const v = s.shown && idx !== null ? (s.shown[idx] ?? null) : drawn;
                    if (v === null || v === undefined) return '—';
                    return s.format ? s.format(v) : String(v);
                  },
                }
              : {}),
          };
        }),
      ],
    };
    const data = [x as number[], ...values.map((v) => v as (number | null)[])] as AlignedData;
    plot.current?.destroy();
    plot.current = new uPlot(options, data, el);
    const observer = new ResizeObserver(() => {
      if (plot.current && el.clientWidth > 0) plot.current.setSize({ width: el.clientWidth, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = undefined;
    };
  }, [x, series, values, height, yLabel, xIncrs]);

  return <div class="chart" ref={host} role="img" aria-label={title} />;
}
