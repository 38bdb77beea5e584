// A run's live log: the lines read so far (slice after slice, from the executor), and whether the
// view follows new lines. Pure: the component reads, scrolls and schedules.

/** One slice of the log as getRunOutput answers it. */
export interface LogSlice {
  readonly fromLineNum: number;
  readonly toLineNum: number;
  readonly logContent: string;
  readonly isEnd: boolean;
}

export interface LogState {
  /** The lines kept (the newest {@link MAX_LOG_LINES}). */
  readonly lines: readonly string[];
  /** Lines read but no longer kept (the oldest, past the cap). */
  readonly dropped: number;
  /** The next line to ask for (1-based). */
  readonly nextLine: number;
  /** The run has its result and every line was read: stop polling. */
  readonly ended: boolean;
}

/** Most lines kept in the page: older ones are dropped (counted) so a chatty run cannot stall it. */
export const MAX_LOG_LINES = 20_000;

/** How often the log is read again while the run writes it. */
export const LOG_POLL_MS = 1000;

export const EMPTY_LOG: LogState = { lines: [], dropped: 0, nextLine: 1, ended: false };

/** The lines of a slice's content (each ends with a newline; a last line without one counts too). */
export function sliceLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The state after a slice: its lines appended when it starts where the state expects (a slice for
 * other lines, e.g. an answer that raced another, is ignored), the next line to ask for, and the end.
 */
export function appendSlice(state: LogState, slice: LogSlice, maxLines: number = MAX_LOG_LINES): LogState {
  if (slice.fromLineNum !== state.nextLine) return state;
  const added = slice.toLineNum >= slice.fromLineNum ? sliceLines(slice.logContent) : [];
  const nextLine = Math.max(state.nextLine, slice.toLineNum + 1);
  if (added.length === 0) {
    return nextLine === state.nextLine && slice.isEnd === state.ended
      ? state
      : { ...state, nextLine, ended: slice.isEnd };
  }
  let lines = [...state.lines, ...added];
  let dropped = state.dropped;
  if (lines.length > maxLines) {
    dropped += lines.length - maxLines;
    lines = lines.slice(lines.length - maxLines);
  }
  return { lines, dropped, nextLine, ended: slice.isEnd };
}

/** When to read again: never once ended, after an error (the user retries) or while the tab is hidden. */
export function nextPollDelay(state: LogState, failed: boolean, visible: boolean): number | undefined {
  if (state.ended || failed || !visible) return undefined;
  return LOG_POLL_MS;
}

/** Where a scrollable box is: the three numbers the DOM gives. */
export interface ScrollPosition {
  readonly scrollTop: number;
  readonly clientHeight: number;
  readonly scrollHeight: number;
}

/** Whether the box is scrolled to its end (within `slack` px: zoom and rounding leave fractions). */
export function isAtBottom(position: ScrollPosition, slack = 24): boolean {
  return position.scrollHeight - position.clientHeight - position.scrollTop <= slack;
}

/**
 * Whether the view follows new lines after the user scrolled: scrolling up (away from the end)
 * pauses it, scrolling back to the end resumes it.
 */
export function followAfterScroll(position: ScrollPosition): boolean {
  return isAtBottom(position);
}
