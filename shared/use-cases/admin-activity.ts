import { ALL_GROUPS, isVisible, listScope, type VisibleGroups } from '../domain/access.js';
import {
  ACTIVITY_WINDOWS,
  type ActivityBucket,
  type ActivityWindow,
  activityFrame,
  DEFAULT_ACTIVITY_WINDOW,
  summarizeActivity,
} from '../domain/activity.js';
import { ValidationError } from '../domain/errors.js';
import type { Run } from '../domain/run.js';
import type { Clock } from '../ports/clock.js';
import type { RunStore } from '../ports/run-store.js';

export interface AdminActivityDeps {
  readonly runs: Pick<RunStore, 'list'>;
  readonly clock: Clock;
}

/** Most runs one activity reads (newest first); beyond them it says `truncated`. */
export const ACTIVITY_MAX_RUNS = 5_000;
/**
 * How long one activity reads the store at most: past it, what was read is answered, `truncated`
 * (a caller who sees a few quiet groups of a busy deployment reads past many runs not theirs).
 */
export const ACTIVITY_READ_BUDGET_MS = 8_000;
/**
 * Runs are listed by trigger (claim) time, counted by scheduled time: a run is claimed up to the
 * dispatcher's claim lead (and an SQS delay's second) before its time, so the read starts this much
 * before the window.
 */
const TRIGGER_SLACK_MS = 10_000;
/** A last failure's result message is cut to this many characters (the run has all of it). */
export const ACTIVITY_FAILURE_MSG_MAX = 1_000;
/** Runs asked of the store per list call. */
const READ_PAGE = 500;

export interface ActivityQuery {
  /** Default: 1h. */
  readonly window?: ActivityWindow;
  readonly appName?: string;
}

export interface Activity {
  readonly window: ActivityWindow;
  readonly bucketMs: number;
  /** The first bucket's start and the last one's end, epoch ms. */
  readonly from: number;
  readonly to: number;
  readonly buckets: readonly ActivityBucket[];
  readonly inProgress: number;
  /** Newest first, at most 10. */
  readonly lastFailures: readonly Run[];
  /** Runs of the window counted (at most {@link ACTIVITY_MAX_RUNS}). */
  readonly sampled: number;
  /** More runs of the window were left unread (over the cap, or past the read budget): older buckets count short. */
  readonly truncated: boolean;
}

/**
 * The runs of the last hour (6 hours, 24 hours) of the groups the caller sees, or of one of them,
 * per bucket of their scheduled time (see `summarizeActivity`). Runs are read as the runs list
 * reads them (the dispatch records, newest first), at most {@link ACTIVITY_MAX_RUNS} and for at
 * most {@link ACTIVITY_READ_BUDGET_MS}; a group the caller does not see reads as empty.
 */
export async function activity(
  deps: AdminActivityDeps,
  query: ActivityQuery,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<Activity> {
  const window = query.window ?? DEFAULT_ACTIVITY_WINDOW;
  if (!Object.hasOwn(ACTIVITY_WINDOWS, window)) {
    throw new ValidationError(
      `window must be one of ${Object.keys(ACTIVITY_WINDOWS).join(', ')}; got ${JSON.stringify(window)}`,
      'window',
    );
  }
  const now = deps.clock.now();
  const frame = activityFrame(window, now);
  const runs = new Map<number, Run>();
  let truncated = false;
  const scope = listScope(query.appName, visible);
  if (scope !== null) {
    const until = now + ACTIVITY_READ_BUDGET_MS;
    let cursor: string | undefined;
    read: do {
      const page = await deps.runs.list({
        from: frame.from - TRIGGER_SLACK_MS,
        to: now,
        ...(scope.appName === undefined ? {} : { appName: scope.appName }),
        limit: READ_PAGE,
        cursor,
      });
      for (const run of page.items) {
        const counted =
          isVisible(visible, run.appName) &&
          run.scheduledTime >= frame.from &&
          run.scheduledTime < frame.to &&
          !runs.has(run.logId);
        if (!counted) continue;
        if (runs.size >= ACTIVITY_MAX_RUNS) {
          truncated = true;
          break read;
        }
        runs.set(run.logId, run);
      }
      cursor = page.nextCursor;
      if (cursor !== undefined && deps.clock.now() >= until) truncated = true;
    } while (cursor !== undefined && !truncated);
  }
  const summary = summarizeActivity(frame, runs.values());
  return {
    window,
    bucketMs: frame.bucketMs,
    from: frame.from,
    to: frame.to,
    ...summary,
    sampled: runs.size,
    truncated,
  };
}
