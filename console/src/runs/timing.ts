// A run's timing as the console shows it: how late it started and how long it took. Pure.

/** The fields of a run its timing is read from (ISO-8601 instants; null when not reached yet). */
export interface RunTimes {
  readonly status: string;
  readonly scheduledTime: string;
  readonly dispatchedAt: string | null;
  readonly handleTime: string | null;
}

export interface RunTiming {
  /** Started − scheduled (dispatchedAt − scheduledTime); undefined when it was never sent. */
  readonly latenessMs: number | undefined;
  /** Finished − started; for a running run, now − started (see `ongoing`). */
  readonly durationMs: number | undefined;
  /** The duration is still growing (the run has no result yet). */
  readonly ongoing: boolean;
}

function ms(instant: string | null | undefined): number | undefined {
  if (!instant) return undefined;
  const at = Date.parse(instant);
  return Number.isFinite(at) ? at : undefined;
}

export function runTiming(run: RunTimes, now: number = Date.now()): RunTiming {
  const scheduled = ms(run.scheduledTime);
  const started = ms(run.dispatchedAt);
  const finished = ms(run.handleTime);
  const latenessMs = scheduled !== undefined && started !== undefined ? started - scheduled : undefined;
  if (started === undefined) return { latenessMs, durationMs: undefined, ongoing: false };
  if (finished !== undefined)
    return { latenessMs, durationMs: Math.max(0, finished - started), ongoing: false };
  if (run.status === 'running') return { latenessMs, durationMs: Math.max(0, now - started), ongoing: true };
  return { latenessMs, durationMs: undefined, ongoing: false };
}

// Tags XXL-JOB (and tickring's compatibility layer) put in triggerMsg: dropped as text, never rendered.
const KNOWN_TAG = /<\/?(?:span|font|b|i|u|strong|em|p|div|a|hr|code|small)\b[^<>]*>/gi;
const LINE_BREAK = /<br\s*\/?>|\r\n|\r|\n/gi;
const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
  '&nbsp;': ' ',
};

/**
 * A trigger or handle message as lines of plain text: XXL-JOB writes `<br>` between lines and wraps
 * parts in `<span style=…>`; tickring writes newlines. Line breaks become lines, known tags are
 * dropped and common entities decoded: the result is text, shown as text (never as HTML).
 */
export function messageLines(message: string | null | undefined): string[] {
  if (!message) return [];
  const lines = message
    .split(LINE_BREAK)
    .map((line) =>
      line.replace(KNOWN_TAG, '').replace(/&(?:lt|gt|amp|quot|#39|apos|nbsp);/g, (e) => ENTITIES[e] ?? e),
    )
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** The trigger code as words (0 not sent yet, 200 accepted, 500 refused or no executor, 600 skipped). */
export function triggerCodeText(code: number): string {
  switch (code) {
    case 0:
      return 'not sent yet';
    case 200:
      return 'accepted by the executor';
    case 500:
      return 'refused, or no executor';
    case 600:
      return 'skipped (misfire)';
    default:
      return 'unknown code';
  }
}

/** The handle code as words (0 no result yet, 200 success, 500 fail, 502 timeout). */
export function handleCodeText(code: number): string {
  switch (code) {
    case 0:
      return 'no result yet';
    case 200:
      return 'success';
    case 500:
      return 'failed';
    case 502:
      return 'timed out';
    default:
      return 'unknown code';
  }
}
