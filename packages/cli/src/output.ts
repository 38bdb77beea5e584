/**
 * How results look: JSON for scripts (`--json`: the server's JSON, as it came), and for people
 * aligned tables, key/value details, times in the viewer's zone with "3 min ago" / "in 12 s", and
 * colour only on a terminal without `NO_COLOR`.
 */
import Table from 'cli-table3';
import picocolors from 'picocolors';
import type { Env, Io, OutStream } from './io.js';

export type Palette = ReturnType<typeof picocolors.createColors>;

/**
 * Colour on `stream`: only when it is a terminal, `NO_COLOR` is not set (https://no-color.org: any
 * non-empty value) and `TERM` is not `dumb`. picocolors alone would also colour pipes under `CI` or
 * `FORCE_COLOR`, so the decision is made here.
 */
export function colorEnabled(stream: OutStream, env: Env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

export function paletteFor(stream: OutStream, env: Env): Palette {
  return picocolors.createColors(colorEnabled(stream, env));
}

// ---------------------------------------------------------------------------------------------
// Times

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "now", "12 s ago", "3 min ago", "5 h ago", "2 d ago"; "in 12 s", ... for the future. */
export function relativeTime(at: number, now: number): string {
  const delta = at - now;
  const size = Math.abs(delta);
  if (size < SECOND) return 'now';
  const span = roughSpan(size);
  return delta < 0 ? `${span} ago` : `in ${span}`;
}

/** A span in its largest unit, rounded down: "12 s", "3 min", "5 h", "2 d". */
function roughSpan(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < 2 * DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} d`;
}

/** How long something took: "340 ms", "2.4 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < SECOND) return `${Math.round(ms)} ms`;
  if (ms < MINUTE) return `${(ms / SECOND).toFixed(1)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ${Math.floor((ms % MINUTE) / SECOND)} s`;
  return `${Math.floor(ms / HOUR)} h ${Math.floor((ms % HOUR) / MINUTE)} min`;
}

/** The viewer's time zone: `TZ` when it names one, else the system's. */
export function localTimeZone(env: Env = {}): string {
  const tz = env.TZ?.replace(/^:/, '');
  if (tz && isTimeZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether `zone` is an IANA time zone this node knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface ZonedParts {
  readonly weekday: string;
  /** YYYY-MM-DD */
  readonly date: string;
  /** HH:mm:ss */
  readonly time: string;
  /** +02:00, -05:30, +00:00 */
  readonly offset: string;
}

export function zonedParts(at: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(at))) parts[p.type] = p.value;
  const gmt = parts.timeZoneName ?? 'GMT';
  return {
    weekday: parts.weekday ?? '',
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    offset: gmt === 'GMT' ? '+00:00' : gmt.replace('GMT', ''),
  };
}

/** "2030-06-01 12:00:00 +02:00" in `timeZone`; with `weekday`: "Sat 2030-06-01 12:00:00 +02:00". */
export function formatInstant(at: number, timeZone: string, options: { weekday?: boolean } = {}): string {
  const p = zonedParts(at, timeZone);
  return `${options.weekday ? `${p.weekday} ` : ''}${p.date} ${p.time} ${p.offset}`;
}

/** Milliseconds of an ISO-8601 string (or a number as is); undefined for null, absent or unreadable. */
export function toMillis(value: string | number | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

// ---------------------------------------------------------------------------------------------
// Layout

/** Columns aligned by their display width (CJK and colour codes included), no borders. */
export function renderTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const table = new Table({
    head: [...head],
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const row of rows) table.push([...row]);
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

/** "key:   value" lines, keys aligned; a value's further lines are indented under its first. */
export function renderDetails(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length)) + 3;
  const indent = ' '.repeat(width);
  return pairs
    .map(([k, v]) => `${`${k}:`.padEnd(width)}${v.trimEnd().replace(/\r?\n/g, `\n${indent}`)}\n`)
    .join('');
}

/** What commands print through: stdout for results, stderr for notes and progress. */
export class Output {
  /** Colours for stdout. */
  readonly c: Palette;
  /** Colours for stderr. */
  readonly ce: Palette;
  readonly zone: string;

  constructor(readonly io: Io) {
    this.c = paletteFor(io.stdout, io.env);
    this.ce = paletteFor(io.stderr, io.env);
    this.zone = localTimeZone(io.env);
  }

  now(): number {
    return this.io.now();
  }

  /** Text on stdout, as is. */
  print(text: string): void {
    this.io.stdout.write(text);
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** A value as JSON on stdout (the `--json` output). */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A note for people on stderr (never part of the result a script reads). */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.ce.yellow('warning:')} ${text}\n`);
  }

  table(head: readonly string[], rows: readonly (readonly string[])[]): void {
    this.print(
      renderTable(
        head.map((h) => this.c.bold(h)),
        rows,
      ),
    );
  }

  details(pairs: readonly (readonly [string, string])[]): void {
    this.print(renderDetails(pairs));
  }

  /**
   * "2030-06-01 12:00:00 +02:00 (3 min ago)" in the viewer's zone; "-" for none. `c`: the colours of
   * the stream it is written to (stdout's by default; `this.ce` for a note).
   */
  when(value: string | number | null | undefined, c: Palette = this.c): string {
    const ms = toMillis(value);
    if (ms === undefined) return '-';
    return `${formatInstant(ms, this.zone)} ${c.dim(`(${relativeTime(ms, this.now())})`)}`;
  }

  /** A short time for tables: "14:03:05 (3 min ago)" today, "2030-05-30 14:03 (2 d ago)" before. */
  shortWhen(value: string | number | null | undefined): string {
    const ms = toMillis(value);
    if (ms === undefined) return '-';
    const p = zonedParts(ms, this.zone);
    const today = zonedParts(this.now(), this.zone).date;
    const shown = p.date === today ? p.time : `${p.date} ${p.time.slice(0, 5)}`;
    return `${shown} ${this.c.dim(`(${relativeTime(ms, this.now())})`)}`;
  }

  /**
   * A run's, job's, workflow's, workflow run's or node's status, coloured (`c`: the colours of the
   * stream it is written to, stdout's by default).
   */
  status(status: string, c: Palette = this.c): string {
    switch (status) {
      case 'success':
      case 'RUNNING':
      case 'SUCCEEDED':
        return c.green(status);
      case 'fail':
      case 'FAILED':
        return c.red(status);
      case 'running':
        return c.cyan(status);
      case 'skipped':
      case 'STOPPED':
      case 'SKIPPED':
      case 'CANCELLED':
        return c.yellow(status);
      case 'PENDING':
      case 'QUEUED':
        return c.dim(status);
      default:
        return status;
    }
  }
}

/** Cuts a text to `max` characters for a table cell (one line). */
export function clip(text: string, max = 60): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
