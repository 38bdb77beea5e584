// A schedule in plain words: a Quartz cron read by cronstrue, a fixed rate, an instant.
//
// Quartz, as tickring's scheduler reads it: seconds first, an optional year last (6 or 7 fields),
// day-of-week 1-7 = SUN-SAT (so `6L` is the last Friday), `?`, `L`, `W`, `#`. cronstrue reads the
// same syntax with `dayOfWeekStartIndexZero: false`.

import cronstrue from 'cronstrue';
import { exactTime } from '../lib/format';

export type Reading =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

const CRONSTRUE_OPTIONS = {
  use24HourTimeFormat: true,
  // Terse: "Every 5 seconds", not "Every 5 seconds, every minute, every hour, every day".
  verbose: false,
  dayOfWeekStartIndexZero: false,
  throwExceptionOnParseError: true,
  locale: 'en',
} as const;

/** A Quartz cron in words ("At 10:15, on the third Friday of the month"), or why it cannot be read. */
export function readCron(expression: string): Reading {
  const trimmed = expression.trim();
  if (trimmed === '') return { ok: false, error: 'Enter a cron expression.' };
  const fields = trimmed.split(/\s+/).length;
  if (fields < 6 || fields > 7) {
    return {
      ok: false,
      error: `A Quartz cron has 6 or 7 fields (second minute hour day-of-month month day-of-week [year]); this one has ${fields}.`,
    };
  }
  try {
    return { ok: true, text: cronstrue.toString(trimmed, CRONSTRUE_OPTIONS) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: message.replace(/^Error:\s*/, '') };
  }
}

const UNITS: readonly [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
];

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** A fixed rate in words: "Every 30 seconds", "Every 5 minutes", "Every 90 seconds (1 min 30 s)". */
export function readFixRate(conf: string): Reading {
  const trimmed = conf.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) {
    return { ok: false, error: 'Enter the whole number of seconds between fires (1 or more).' };
  }
  const seconds = Number(trimmed);
  if (seconds === 1) return { ok: true, text: 'Every second' };
  for (const [size, unit] of UNITS) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return { ok: true, text: n === 1 ? `Every ${unit}` : `Every ${plural(n, unit)}` };
    }
  }
  if (seconds < 60) return { ok: true, text: `Every ${plural(seconds, 'second')}` };
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return { ok: true, text: `Every ${plural(seconds, 'second')} (${parts.join(' ')})` };
}

/** A ONCE schedule in words: "Once, at 2030-06-01 14:00:00.000 GMT+2" (in the zone given). */
export function readOnce(conf: string, zone?: string): Reading {
  const trimmed = conf.trim();
  const at = new Date(trimmed);
  if (trimmed === '' || Number.isNaN(at.getTime())) {
    return { ok: false, error: 'Enter an instant with its zone, e.g. 2030-06-01T12:00:00Z.' };
  }
  let text: string;
  try {
    text = exactTime(at, zone);
  } catch {
    text = exactTime(at);
  }
  return { ok: true, text: `Once, at ${text}` };
}

/** Any schedule in words, by its type (a job's scheduleType and scheduleConf). */
export function readSchedule(type: string, conf: string, zone?: string): Reading {
  switch (type) {
    case 'NONE':
      return { ok: true, text: 'Only when triggered (by hand, by the API, or as a child job)' };
    case 'CRON':
      return readCron(conf);
    case 'FIX_RATE':
      return readFixRate(conf);
    case 'ONCE':
      return readOnce(conf, zone);
    default:
      return { ok: false, error: `Unknown schedule type ${type}` };
  }
}
