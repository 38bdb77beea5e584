/**
 * `--since` / `--until`: a span back from now (`90s`, `30m`, `1h`, `2d`, `1w`, `1h30m`) or an instant
 * (`2030-01-01T00:00:00Z`; without an offset it is the viewer's local time, a bare date its midnight).
 */

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  sec: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const SPAN = /^(?:\d+(?:ms|sec|min|s|m|h|d|w))+$/;
const PART = /(\d+)(ms|sec|min|s|m|h|d|w)/g;

/** Milliseconds of a span such as `30m` or `1h30m`; undefined when it is not one. */
export function parseSpan(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!SPAN.test(t)) return undefined;
  let ms = 0;
  for (const [, n, unit] of t.matchAll(PART)) ms += Number(n) * (UNITS[unit as string] ?? 0);
  return ms;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The instant `text` names, `now` minus a span or an ISO-8601 date-time; throws an Error saying what
 * is accepted otherwise.
 */
export function parseInstant(text: string, now: number): Date {
  const span = parseSpan(text);
  if (span !== undefined) return new Date(now - span);
  const t = text.trim();
  let ms = Number.NaN;
  if (ISO_DATE.test(t)) ms = Date.parse(`${t}T00:00:00`);
  else if (ISO_DATE_TIME.test(t)) ms = Date.parse(t.replace(' ', 'T'));
  if (!Number.isFinite(ms)) {
    throw new Error(
      `expected a span back from now (30s, 15m, 1h, 2d, 1w, 1h30m) or an ISO-8601 time (2030-01-01T08:00:00Z); got ${JSON.stringify(text)}`,
    );
  }
  return new Date(ms);
}

/** A token's expiry as the API takes it: in whole days, or at an instant. */
export type Expiry = { readonly expiresInDays: number } | { readonly expiresAt: string };

const EXPIRES_IN = /^(\d+)\s*(h|d|w|y)?$/;
const EXPIRY_UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--expires-in`: `30d`, `12w`, `1y` (365 days) or a bare number of days, as whole days; `12h` (hours)
 * as the instant that many hours after `now`. Throws an Error saying what is accepted otherwise.
 */
export function parseExpiresIn(text: string, now: number): Expiry {
  const m = EXPIRES_IN.exec(text.trim().toLowerCase());
  const n = Number(m?.[1]);
  if (!m || !Number.isSafeInteger(n) || n < 1) {
    throw new Error(
      `expected a span ahead such as 30d, 12w, 1y or 12h (a bare number is days); got ${JSON.stringify(text)}`,
    );
  }
  const unit = m[2] ?? 'd';
  if (unit === 'y') return { expiresInDays: n * 365 };
  if (unit === 'd') return { expiresInDays: n };
  if (unit === 'w') return { expiresInDays: n * 7 };
  return { expiresAt: new Date(now + n * (EXPIRY_UNIT_MS[unit] as number)).toISOString() };
}

/**
 * `--expires-at`: an ISO-8601 date-time (without an offset it is the viewer's local time) or a bare
 * date (its local midnight), as ISO-8601 UTC. Throws an Error saying what is accepted otherwise.
 */
export function parseExpiresAt(text: string): string {
  const t = text.trim();
  let ms = Number.NaN;
  if (ISO_DATE.test(t)) ms = Date.parse(`${t}T00:00:00`);
  else if (ISO_DATE_TIME.test(t)) ms = Date.parse(t.replace(' ', 'T'));
  if (!Number.isFinite(ms)) {
    throw new Error(`expected an ISO-8601 time such as 2030-06-30T00:00:00Z; got ${JSON.stringify(text)}`);
  }
  return new Date(ms).toISOString();
}
