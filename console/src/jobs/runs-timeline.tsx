import type { OccurrenceException, Run } from '@tickring/client';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';
import { exactTime, viewerTimeZone } from '../lib/format';
import { rangeClockText, rangeCountText, skippedRange } from '../runs/skipped-range';
import { exceptionMarks, moveOf } from './occurrences';
import { offsetMinutes } from './time-zones';
import { LANES, layoutTimeline, type RunStatus, timeTicks } from './timeline';
import './jobs.css';

// The timeline is a small SVG drawn here rather than a uPlot chart: each run is its own mark, a
// link to the run with a title (time, status, logId) that the keyboard reaches (one tab stop, arrow
// keys between marks), which a canvas chart cannot offer.

const LANE_HEIGHT = 26;
const TOP = 6;
const AXIS = 24;
const LEFT = 70;
const RIGHT = 10;

/** The shape of a status (colour is never the only sign: lane, shape and the legend's words too). */
function Shape({ status, x, y }: { status: RunStatus; x: number; y: number }) {
  switch (status) {
    case 'success':
      return <circle class="tl-shape" cx={x} cy={y} r={4.5} />;
    case 'fail':
      return <path class="tl-shape" d={`M${x} ${y - 6}L${x + 6} ${y}L${x} ${y + 6}L${x - 6} ${y}Z`} />;
    case 'running':
      return <circle class="tl-shape" cx={x} cy={y} r={4.5} />;
    default:
      return <rect class="tl-shape" x={x - 4} y={y - 4} width={8} height={8} />;
  }
}

const STATUS_WORDS: Record<RunStatus, string> = {
  success: 'success',
  fail: 'failed',
  running: 'running',
  skipped: 'skipped',
};

export function TimelineLegend({ counts }: { counts: Record<RunStatus, number> }) {
  return (
    <ul class="tl-legend" aria-label="Legend">
      {LANES.map((lane) => (
        <li key={lane.status} class={`tl-${lane.status}`}>
          <svg viewBox="0 0 14 14" aria-hidden="true">
            <Shape status={lane.status} x={7} y={7} />
          </svg>
          {lane.label} ({counts[lane.status]})
        </li>
      ))}
    </ul>
  );
}

/**
 * The runs on a time axis, one lane per status; each mark a link to its run. The job's one-off
 * exceptions in its span are drawn on the skipped lane: a skipped occurrence (no run) as a cross, a
 * moved one as an arrow from its scheduled time to where it fired.
 */
export function RunsTimeline({
  runs,
  now,
  exceptions = [],
}: {
  runs: readonly Run[];
  now: number;
  exceptions?: readonly OccurrenceException[];
}) {
  const host = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState<number | undefined>();
  const [, navigate] = useLocation();

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const zone = viewerTimeZone();
  const layout = useMemo(
    () => (width > 0 ? layoutTimeline(runs, width, now, { left: LEFT, right: RIGHT }) : undefined),
    [runs, width, now],
  );
  const height = TOP + LANES.length * LANE_HEIGHT + AXIS;
  const laneY = (lane: number) => TOP + lane * LANE_HEIGHT + LANE_HEIGHT / 2;
  const axisY = TOP + LANES.length * LANE_HEIGHT;

  const ticks = useMemo(() => {
    if (!layout) return undefined;
    const offset = (offsetMinutes(layout.to, zone) ?? 0) * 60_000;
    const { ticks, step } = timeTicks(
      layout.from,
      layout.to,
      Math.max(2, Math.floor((width - LEFT) / 90)),
      offset,
    );
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      ...(step >= 86_400_000
        ? { month: 'short', day: 'numeric' }
        : step < 60_000
          ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }
          : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    });
    return ticks.map((t) => ({ t, x: layout.xOf(t), label: format.format(t) }));
  }, [layout, zone, width]);

  const marks = layout?.marks ?? [];
  const changed = useMemo(
    () => (layout ? exceptionMarks(exceptions, layout.from, layout.to) : []),
    [layout, exceptions],
  );
  const skippedLane = LANES.findIndex((l) => l.status === 'skipped');
  // One tab stop for the whole timeline: the newest run, or the one last focused.
  const focusIndex = active !== undefined && active < marks.length ? active : marks.length - 1;

  const moveTo = (index: number) => {
    const clamped = Math.max(0, Math.min(marks.length - 1, index));
    setActive(clamped);
    host.current?.querySelectorAll<SVGAElement>('a.tl-mark')[clamped]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowRight: focusIndex + 1,
      ArrowDown: focusIndex + 1,
      ArrowLeft: focusIndex - 1,
      ArrowUp: focusIndex - 1,
      Home: 0,
      End: marks.length - 1,
    };
    const to = moves[event.key];
    if (to !== undefined && marks.length > 0) {
      event.preventDefault();
      moveTo(to);
    }
  };

  return (
    <figure class="timeline" ref={host}>
      <figcaption class="visually-hidden">
        Timeline of the last {marks.length} runs, oldest on the left. Arrow keys move between runs, Enter
        opens one.
      </figcaption>
      {layout && (
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} onKeyDown={onKeyDown}>
          <title>Runs on a time axis, by status</title>
          {LANES.map((lane, i) => (
            <g key={lane.status}>
              <line class="tl-lane-line" x1={LEFT} x2={width - RIGHT} y1={laneY(i)} y2={laneY(i)} />
              <text class="tl-lane-label" x={0} y={laneY(i) + 4}>
                {lane.label}
              </text>
            </g>
          ))}
          {layout.gaps.map((gap) => (
            <rect
              key={gap.from}
              class="tl-gap"
              x={gap.x1 + 6}
              width={Math.max(gap.x2 - gap.x1 - 12, 2)}
              y={TOP}
              height={LANES.length * LANE_HEIGHT}
            >
              <title>
                No scheduled fire from {exactTime(gap.from)} to {exactTime(gap.to)}
              </title>
            </rect>
          ))}
          {(ticks ?? []).map((tick) => (
            <g key={tick.t}>
              <line class="tl-tick" x1={tick.x} x2={tick.x} y1={axisY} y2={axisY + 4} />
              <text class="tl-tick-label" x={tick.x} y={axisY + 16} text-anchor="middle">
                {tick.label}
              </text>
            </g>
          ))}
          {changed.map((mark) => {
            const y = laneY(skippedLane);
            const x = layout.xOf(mark.at);
            const why = mark.exception.reason ? ` (${mark.exception.reason})` : '';
            if (mark.exception.action === 'skip') {
              return (
                <g key={`x${mark.at}`} class="tl-exception tl-exception-skip">
                  <title>{`${exactTime(mark.at)}: skipped by a one-off exception${why}, by ${mark.exception.by}`}</title>
                  <path
                    class="tl-cross"
                    d={`M${x - 5} ${y - 5}L${x + 5} ${y + 5}M${x + 5} ${y - 5}L${x - 5} ${y + 5}`}
                  />
                </g>
              );
            }
            const x2 = layout.xOf(mark.to);
            return (
              <g key={`m${mark.at}`} class="tl-exception tl-exception-move">
                <title>{`${exactTime(mark.at)}: moved to ${exactTime(mark.to)} by a one-off exception${why}, by ${mark.exception.by}`}</title>
                <line class="tl-move" x1={x} x2={x2} y1={y - 9} y2={y - 9} />
                <circle class="tl-move-end" cx={x2} cy={y - 9} r={2.5} />
              </g>
            );
          })}
          {marks.map((mark, i) => {
            const href = `/runs/${mark.run.logId}`;
            const range = skippedRange(mark.run);
            const status = range
              ? `${STATUS_WORDS[mark.run.status]} ${rangeCountText(range)} (${rangeClockText(range, zone)})`
              : STATUS_WORDS[mark.run.status];
            const moved = moveOf(exceptions, mark.run.scheduledTime);
            const movedText = moved?.to ? `, moved to ${exactTime(moved.to)}` : '';
            const label = `${exactTime(mark.at)}: ${status}${movedText}, ${mark.run.triggerType.toLowerCase()} run, logId ${mark.run.logId}`;
            const y = laneY(mark.lane);
            return (
              <a
                key={mark.run.logId}
                href={href}
                class={`tl-mark tl-${mark.run.status}`}
                tabIndex={i === focusIndex ? 0 : -1}
                aria-label={label}
                onFocus={() => setActive(i)}
                onClick={(event: MouseEvent) => {
                  if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  navigate(href);
                }}
              >
                <title>{label}</title>
                <circle class="tl-ring" cx={mark.x} cy={y} r={8.5} />
                <Shape status={mark.run.status} x={mark.x} y={y} />
              </a>
            );
          })}
        </svg>
      )}
    </figure>
  );
}
