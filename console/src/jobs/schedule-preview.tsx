import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, describeError, type ShownError } from '../lib/api';
import { viewerTimeZone } from '../lib/format';
import type { ScheduleType } from './job-form';
import { fireRows } from './time-zones';
import './jobs.css';

export type PreviewState =
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'checking' }
  | {
      readonly kind: 'valid';
      readonly times: readonly string[];
      readonly from: number;
      readonly zone: string;
    }
  | { readonly kind: 'invalid'; readonly error: ShownError };

/** How many fire times the preview asks for. */
export const PREVIEW_COUNT = 10;

/**
 * The schedule as the server reads it, asked ~300 ms after the last change (GET /v1/schedule/preview):
 * its next fire times, or its refusal (the server's own message).
 */
export function useSchedulePreview(type: ScheduleType, conf: string, zone: string): PreviewState {
  const [state, setState] = useState<PreviewState>({ kind: 'none' });
  useEffect(() => {
    if (type === 'NONE') {
      setState({ kind: 'none' });
      return;
    }
    if (conf.trim() === '') {
      setState({ kind: 'empty' });
      return;
    }
    let cancelled = false;
    setState((s) => (s.kind === 'valid' || s.kind === 'invalid' ? s : { kind: 'checking' }));
    const timer = setTimeout(() => {
      const from = Date.now();
      setState((s) => (s.kind === 'invalid' ? s : { kind: 'checking' }));
      api()
        .previewSchedule({
          query: {
            scheduleType: type,
            scheduleConf: conf.trim(),
            ...(zone.trim() === '' ? {} : { timeZone: zone.trim() }),
            from: new Date(from).toISOString(),
            count: PREVIEW_COUNT,
          },
        })
        .then(
          (preview) =>
            !cancelled && setState({ kind: 'valid', times: preview.times, from, zone: zone.trim() }),
          (err: unknown) => !cancelled && setState({ kind: 'invalid', error: describeError(err) }),
        );
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [type, conf, zone]);
  return state;
}

/** The next fire times in the job's zone and the viewer's, with changes of the clocks flagged. */
export function FireTimes({ state }: { state: PreviewState }) {
  const viewer = viewerTimeZone();
  const rows = useMemo(
    () => (state.kind === 'valid' ? fireRows(state.times, state.zone || 'UTC', viewer, state.from) : []),
    [state, viewer],
  );
  if (state.kind !== 'valid') return null;
  if (rows.length === 0) {
    return <p class="muted">This schedule does not fire again.</p>;
  }
  const jobZone = state.zone || 'UTC';
  return (
    <div class="table-wrap">
      <table class="fire-table">
        <caption class="muted">
          The next {rows.length === 1 ? 'fire' : `${rows.length} fires`}
          {rows.some((r) => r.change) && ' (rows marked “clocks change” come after a daylight-saving change)'}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">In the job’s zone ({jobZone})</th>
            <th scope="col">In yours ({viewer})</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={row.at} class={row.change ? 'clock-change' : undefined}>
              <td class="num">{i + 1}</td>
              <td>
                <time dateTime={row.at}>{row.inJobZone ?? '—'}</time>
                {row.change && (
                  <span
                    class="clock-change-note"
                    title={`The offset changes at ${new Date(row.change.at).toISOString()} (${row.change.direction === 'forward' ? 'an hour is skipped' : 'an hour repeats'})`}
                  >
                    ⚠ {row.change.text}
                  </span>
                )}
              </td>
              <td>
                <time dateTime={row.at}>{row.inViewerZone}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
