// Time zones for the job editor's fire-time preview: a zone's UTC offset at an instant, and where it
// changes between two fires (daylight saving). Pure and Intl-based: no tz database of our own.

import { exactTime } from '../lib/format';

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter that names the zone's offset ("GMT+02:00"); null for a zone Intl does not know. */
function offsetFormatter(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    } catch {
      formatter = null;
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the IANA zone (`Europe/Berlin`, `UTC`); an empty name is not a zone. */
export function isValidTimeZone(zone: string): boolean {
  return zone.trim() !== '' && offsetFormatter(zone) !== null;
}

function toMs(instant: string | number | Date): number {
  return typeof instant === 'number' ? instant : new Date(instant).getTime();
}

/**
 * The zone's offset from UTC at the instant, in minutes east of Greenwich (Berlin in summer: 120);
 * undefined for an unknown zone or an invalid instant.
 */
export function offsetMinutes(instant: string | number | Date, zone: string): number | undefined {
  const formatter = offsetFormatter(zone);
  const ms = toMs(instant);
  if (!formatter || !Number.isFinite(ms)) return undefined;
  const name = formatter.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
  // "GMT", "GMT+02:00", "GMT-03:30", "GMT+5:30" (engines differ in padding).
  const match = /^(?:GMT|UTC)(?:([+-−])(\d{1,2})(?::?(\d{2}))?)?$/.exec(name);
  if (!match) return undefined;
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '+' ? minutes : -minutes;
}

/** An offset as exactTime writes it: "GMT", "GMT+1", "GMT-5", "GMT+5:30". */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'GMT';
  const sign = minutes > 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  return `GMT${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

/** A change of a zone's offset between two instants: the clocks went forward or back. */
export interface OffsetChange {
  readonly fromMinutes: number;
  readonly toMinutes: number;
  /** "clocks change: GMT+1 → GMT+2" */
  readonly text: string;
  /** Forward (spring: an hour is skipped) or back (autumn: an hour repeats). */
  readonly direction: 'forward' | 'back';
  /** The first instant (epoch ms, to the second) with the new offset. */
  readonly at: number;
}

/**
 * Where the zone's offset differs between the instants `a` and `b` (a before b), and when it changed;
 * undefined when it is the same (or the zone is unknown).
 */
export function offsetChange(
  a: string | number | Date,
  b: string | number | Date,
  zone: string,
): OffsetChange | undefined {
  const from = offsetMinutes(a, zone);
  const to = offsetMinutes(b, zone);
  if (from === undefined || to === undefined || from === to) return undefined;
  // The first second with the later offset (binary search: offsets change at most a few times a year).
  let lo = toMs(a);
  let hi = toMs(b);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (mid <= lo) break;
    if (offsetMinutes(mid, zone) === from) lo = mid;
    else hi = mid;
  }
  return {
    fromMinutes: from,
    toMinutes: to,
    text: `clocks change: ${offsetLabel(from)} → ${offsetLabel(to)}`,
    direction: to > from ? 'forward' : 'back',
    at: hi,
  };
}

/** One row of the fire-time preview: the instant in the job's zone and in the viewer's. */
export interface FireRow {
  readonly at: string;
  /** exactTime in the job's zone; undefined when the zone is not valid. */
  readonly inJobZone: string | undefined;
  readonly inViewerZone: string;
  /** The job zone's offset changed since the fire before (or since `before`, for the first). */
  readonly change: OffsetChange | undefined;
}

/**
 * The rows of a fire-time preview: each fire in both zones, and the fires that come after a change of
 * the job zone's offset (a DST transition) flagged with it.
 */
export function fireRows(
  times: readonly string[],
  jobZone: string,
  viewerZone: string,
  before?: string | number | Date,
): FireRow[] {
  const valid = isValidTimeZone(jobZone);
  return times.map((at, i) => {
    const previous = i === 0 ? before : times[i - 1];
    return {
      at,
      inJobZone: valid ? exactTime(at, jobZone) : undefined,
      inViewerZone: exactTime(at, viewerZone),
      change: valid && previous !== undefined ? offsetChange(previous, at, jobZone) : undefined,
    };
  });
}

/** The zone's offsets over a year (January and July): one for a zone without DST, two for one with. */
export function yearOffsets(zone: string, year: number): number[] | undefined {
  const jan = offsetMinutes(Date.UTC(year, 0, 1), zone);
  const jul = offsetMinutes(Date.UTC(year, 6, 1), zone);
  if (jan === undefined || jul === undefined) return undefined;
  return jan === jul ? [jan] : [Math.min(jan, jul), Math.max(jan, jul)];
}

/** "GMT+1 / GMT+2 (daylight saving)", "GMT+5:30 all year"; undefined for an unknown zone. */
export function describeZone(zone: string, year: number = new Date().getUTCFullYear()): string | undefined {
  const offsets = yearOffsets(zone, year);
  if (!offsets) return undefined;
  if (offsets.length === 1) return `${offsetLabel(offsets[0]!)} all year`;
  return `${offsets.map(offsetLabel).join(' / ')} (daylight saving)`;
}

let zoneNames: readonly string[] | undefined;

/** Every IANA zone the browser knows (with UTC, which Intl's list leaves out), for a datalist. */
export function timeZoneNames(): readonly string[] {
  if (!zoneNames) {
    let names: string[] = [];
    try {
      names = [...Intl.supportedValuesOf('timeZone')];
    } catch {
      names = ['Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo'];
    }
    zoneNames = ['UTC', ...names.filter((n) => n !== 'UTC')];
  }
  return zoneNames;
}
