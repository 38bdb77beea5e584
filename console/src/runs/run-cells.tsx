import type { Run } from '@tickring/client';
import { Link } from 'wouter-preact';
import { StatusBadge, Time } from '../components/common';
import { duration, exactTime } from '../lib/format';
import { type RangeFields, rangeClockText, rangeCountText, skippedRange } from './skipped-range';
import { runTiming } from './timing';

/** A run's status badge; a skipped run standing for a range of fires says how many ("skipped ×12"). */
export function RunStatus({ run }: { run: RangeFields }) {
  const range = skippedRange(run);
  if (!range) return <StatusBadge status={run.status} />;
  return (
    <span
      title={`${range.count} fires of the job skipped, due ${exactTime(range.first)} to ${exactTime(range.last)}`}
    >
      <StatusBadge status={run.status} suffix={rangeCountText(range)} />
    </span>
  );
}

/**
 * When a run was due, relative; for a skipped range the first and last due times under it
 * ("11:58:00 – 11:58:11").
 */
export function RunDue({ run }: { run: RangeFields }) {
  const range = skippedRange(run);
  return (
    <>
      <Time at={run.scheduledTime} />
      {range && (
        <>
          <br />
          <span class="muted small nowrap">{rangeClockText(range)}</span>
        </>
      )}
    </>
  );
}

/** A run's duration ("12.3 s"; "4.0 s so far" while it runs). */
export function RunDuration({
  run,
  now,
}: {
  run: Pick<Run, 'status' | 'scheduledTime' | 'dispatchedAt' | 'handleTime'>;
  now?: number;
}) {
  const timing = runTiming(run, now);
  if (timing.durationMs === undefined) return <span class="muted">—</span>;
  return (
    <span class="nowrap">
      {duration(timing.durationMs)}
      {timing.ongoing && <span class="muted"> so far</span>}
    </span>
  );
}

/** How late a run started (started − scheduled). */
export function RunLateness({
  run,
}: {
  run: Pick<Run, 'status' | 'scheduledTime' | 'dispatchedAt' | 'handleTime'>;
}) {
  const { latenessMs } = runTiming(run);
  if (latenessMs === undefined) return <span class="muted">—</span>;
  return <span class="nowrap">{duration(latenessMs)}</span>;
}

/** A link to a run by its logId. */
export function RunLink({ logId }: { logId: number }) {
  return (
    <Link href={`/runs/${logId}`} class="mono">
      {logId}
    </Link>
  );
}

/** An executor address in short (scheme dropped), the whole one on hover. */
export function ExecutorAddress({ address }: { address: string | null }) {
  if (!address) return <span class="muted">none</span>;
  return (
    <span class="mono" title={address}>
      {address.replace(/^https?:\/\//, '').replace(/\/$/, '')}
    </span>
  );
}
