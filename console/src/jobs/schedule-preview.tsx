import type { SchedulePreview } from '@tickring/client';
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
      /** Each fire with its real (jittered) time and its DST mark, why the schedule ends, the clock changes it meets. */
      readonly fires: SchedulePreview['fires'];
      readonly ends: SchedulePreview['ends'];
      readonly dst: SchedulePreview['dst'];
      /** The fires the calendars removed (the first of each run of days), and why. */
      readonly skipped: SchedulePreview['skipped'];
    }
  | { readonly kind: 'invalid'; readonly error: ShownError };

/** How many fire times the preview asks for. */
export const PREVIEW_COUNT = 10;

/** What bounds the previewed fires, as the form holds them (empty: none). */
export interface PreviewBounds {
  readonly startAt?: string;
  readonly endAt?: string;
  /** A new job's maxRuns, or an existing one's runs remaining. */
  readonly maxRuns?: string;
  readonly jitterSeconds?: string;
  readonly jobId?: number;
  /** The calendars the schedule follows (ids). */
  readonly calendars?: { readonly only: readonly string[]; readonly exclude: readonly string[] };
}

/** The preview's query for the bounds: only the well-formed ones (the form says what is wrong with the others). */
export function boundsQuery(bounds: PreviewBounds) {
  const text = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const whole = (v: string | undefined, min: number) =>
    text(v) !== undefined && /^\d+$/.test(text(v) ?? '') && Number(text(v)) >= min
      ? Number(text(v))
      : undefined;
  const query = {
    startAt: text(bounds.startAt),
    endAt: text(bounds.endAt),
    maxRuns: whole(bounds.maxRuns, 1),
    jitterSeconds: whole(bounds.jitterSeconds, 1),
    jobId: bounds.jobId,
    onlyCalendars: bounds.calendars?.only.length ? bounds.calendars.only.join(',') : undefined,
    excludeCalendars: bounds.calendars?.exclude.length ? bounds.calendars.exclude.join(',') : undefined,
  };
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Partial<
    typeof query
  >;
}

/**
 * The schedule as the server reads it, asked ~300 ms after the last change (GET /v1/schedule/preview):
 * its next fire times within its bounds, with their jitter and DST marks, or its refusal (the server's
 * own message).
 */
export function useSchedulePreview(
  type: ScheduleType,
  conf: string,
  zone: string,
  bounds: PreviewBounds = {},
): PreviewState {
  const extra = boundsQuery(bounds);
  const extraKey = JSON.stringify(extra);
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
            ...extra,
          },
        })
        .then(
          (preview) =>
            !cancelled &&
            setState({
              kind: 'valid',
              times: preview.times,
              from,
              zone: zone.trim(),
              fires: preview.fires,
              ends: preview.ends,
              dst: preview.dst,
              skipped: preview.skipped,
            }),
          (err: unknown) => !cancelled && setState({ kind: 'invalid', error: describeError(err) }),
        );
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [type, conf, zone, extraKey]);
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
  const ends = state.ends ? (
    <p class="muted">Then the schedule ends: {ENDS_TEXT[state.ends]}; the job stops itself.</p>
  ) : null;
  const skipped = <SkippedDays skipped={state.skipped} zone={state.zone || 'UTC'} />;
  if (rows.length === 0) {
    return (
      <>
        {skipped}
        {ends ?? <p class="muted">This schedule does not fire again.</p>}
      </>
    );
  }
  const jobZone = state.zone || 'UTC';
  const jittered = state.fires.some((f) => f.exception === null && f.fireAt !== f.time);
  // An existing job's one-off exceptions (the preview marks them when given its jobId).
  const excepted = state.fires.some((f) => f.exception !== null);
  return (
    <>
      <DstWarning dst={state.dst} />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section class="table-wrap" tabIndex={0} aria-label="The next fires (scrolls)">
        <table class="fire-table">
          <caption class="muted">
            The next {rows.length === 1 ? 'fire' : `${rows.length} fires`}
            {rows.some((r) => r.change) &&
              ' (rows marked “clocks change” come after a daylight-saving change)'}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                #
              </th>
              <th scope="col">In the job’s zone ({jobZone})</th>
              <th scope="col">In yours ({viewer})</th>
              {jittered && <th scope="col">Jitter</th>}
              {excepted && <th scope="col">One-off change</th>}
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
                  {state.fires[i]?.dst && (
                    <span class="clock-change-note" title={state.fires[i]?.dst?.note}>
                      ⚠ repeated hour: {state.fires[i]?.dst?.note}
                    </span>
                  )}
                </td>
                {jittered && <td>{state.fires[i]?.exception ? '' : jitterText(state.fires[i])}</td>}
                {excepted && <td>{exceptionText(state.fires[i], jobZone)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {skipped}
      {ends}
    </>
  );
}

const ENDS_TEXT = {
  maxRuns: 'its most scheduled runs are used up',
  endAt: 'its next fire would be after its end',
  noNextFire: 'it has no next fire',
  calendar: 'its calendars allow none of its fires in the next 5 years',
} as const;

/** The days the calendars took out of the preview's span: the first fire of each run of them, and why. */
export function SkippedDays({ skipped, zone }: { skipped: SchedulePreview['skipped']; zone: string }) {
  if (skipped.length === 0) return null;
  return (
    <div class="notice" role="note">
      <strong>Not fired (calendars):</strong>
      <ul>
        {skipped.map((s) => (
          <li key={s.time}>
            <time dateTime={s.time}>{formatInZone(s.time, zone)}</time> and the rest of {s.date}:{' '}
            {s.reason === 'WEEKEND' ? 'not a working day' : `excluded${s.label ? ` (${s.label})` : ''}`} in{' '}
            <span class="mono">{s.calendarId}</span> (
            {s.list === 'only' ? 'only on its working days' : 'not on its excluded dates'})
          </li>
        ))}
      </ul>
    </div>
  );
}

function formatInZone(iso: string, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso));
}

/** A fire's one-off exception: "skipped (why)" or "moved to … (why)"; empty without one. */
function exceptionText(fire: SchedulePreview['fires'][number] | undefined, zone: string): string {
  const exception = fire?.exception;
  if (!exception) return '';
  const why = exception.reason ? ` (${exception.reason})` : '';
  if (exception.action === 'skip') return `skipped${why}`;
  return `moved to ${exception.to ? formatInZone(exception.to, zone) : '?'}${why}`;
}

/** A fire's delay under jitter: "+12.345 s", or what is missing to know it. */
function jitterText(fire: SchedulePreview['fires'][number] | undefined): string {
  if (!fire) return '';
  if (fire.fireAt === null) return 'known once the job is saved';
  return `+${((Date.parse(fire.fireAt) - Date.parse(fire.time)) / 1000).toFixed(3)} s`;
}

/**
 * The clock changes the previewed fires meet where the schedule names a skipped or repeated local
 * time, and what the job does there (the server's words), with the policy.
 */
export function DstWarning({ dst }: { dst: SchedulePreview['dst'] }) {
  if (dst.transitions.length === 0) return null;
  return (
    <div class="notice warning" role="note">
      <strong>Daylight saving time:</strong>
      <ul>
        {dst.transitions.map((t) => (
          <li key={t.at}>
            {t.localFrom.replace('T', ' ')}–{t.localTo.slice(11)} (
            {t.kind === 'skippedHour' ? 'clocks spring forward' : 'clocks fall back'}, {t.offsetBefore} →{' '}
            {t.offsetAfter}): {t.note}
          </li>
        ))}
      </ul>
      <small class="muted">{dst.policy}</small>
    </div>
  );
}
