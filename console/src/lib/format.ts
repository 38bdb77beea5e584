// How the console writes times and durations: relative for reading at a glance, the exact instant
// (in the viewer's zone, with its offset) for the hover title.

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "3 minutes ago", "in 12 seconds", "now". */
export function relativeTime(instant: string | number | Date, now: number = Date.now()): string {
  const at = new Date(instant).getTime();
  if (Number.isNaN(at)) return '—';
  const delta = at - now;
  if (Math.abs(delta) < 1000) return 'now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size || unit === 'second') {
      return RELATIVE.format(Math.trunc(delta / size), unit);
    }
  }
  return 'now';
}

/** The exact instant in a zone: "2030-01-04 10:15:00.000 GMT+1" (the viewer's zone by default). */
export function exactTime(instant: string | number | Date, timeZone?: string): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '—';
  const parts = new Intl.DateTimeFormat('en-CA', {
    ...(timeZone === undefined ? {} : { timeZone }),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}.${get('fractionalSecond')} ${get('timeZoneName')}`;
}

/** "850 ms", "12.3 s", "4 min 05 s", "2 h 10 min". */
export function duration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 2 : 1)} s`;
  if (abs < 3600_000) {
    const minutes = Math.floor(abs / 60_000);
    const seconds = Math.floor((abs % 60_000) / 1000);
    return `${sign}${minutes} min ${String(seconds).padStart(2, '0')} s`;
  }
  const hours = Math.floor(abs / 3600_000);
  const minutes = Math.floor((abs % 3600_000) / 60_000);
  return `${sign}${hours} h ${String(minutes).padStart(2, '0')} min`;
}

/** The viewer's own time zone (the browser's). */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input's value, in the viewer's zone, to the minute ("" when not an instant). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** A `datetime-local` input's value (the viewer's zone) as an ISO instant; undefined when empty or not a time. */
export function fromLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
