import type { Clock } from '../common/clock.js';
import { ValidationError } from '../common/errors.js';
import { ALL_GROUPS, isVisible, listScope, type VisibleGroups } from '../identity/access.js';
import type { Run } from '../runs/run.js';
import type { RunStore } from '../runs/run-store.js';
import {
  ACTIVITY_WINDOWS,
  type ActivityBucket,
  type ActivityWindow,
  activityFrame,
  DEFAULT_ACTIVITY_WINDOW,
  summarizeActivity,
} from './activity.js';

export interface AdminActivityDeps {
  readonly runs: Pick<RunStore, 'list'>;
  readonly clock: Clock;
}

/** Most runs one activity reads (newest first); beyond them it says `truncated`. */
export const ACTIVITY_MAX_RUNS = 5_000;
/**
 * How long one activity reads the store at most: past it, what was read is answered, `truncated`.
 * Only the caller's own groups are read (see {@link activity}): other groups' runs are neither read
 * nor counted (the store still steps over their entries in the dispatch records it walks).
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
 * reads them (the dispatch records, newest first): all runs for a caller who sees every group,
 * otherwise each group the caller sees by its name, merged newest first (see {@link readNewestFirst}),
 * so other groups' runs never count against the caller's {@link ACTIVITY_MAX_RUNS} runs and
 * {@link ACTIVITY_READ_BUDGET_MS}. A group the caller does not see reads as empty.
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
  const { truncated } = await readNewestFirst(
    deps,
    activityReads(query.appName, visible),
    { from: frame.from - TRIGGER_SLACK_MS, to: now, until: now + ACTIVITY_READ_BUDGET_MS },
    (run) => {
      const counted =
        isVisible(visible, run.appName) &&
        run.scheduledTime >= frame.from &&
        run.scheduledTime < frame.to &&
        !runs.has(run.logId);
      if (!counted) return true;
      if (runs.size >= ACTIVITY_MAX_RUNS) return false;
      runs.set(run.logId, run);
      return true;
    },
  );
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

/**
 * The store reads an activity makes, each an appName to list by or undefined (all runs): none for
 * a group the caller does not see (or a caller who sees none), the group asked for, all runs for a
 * caller who sees every group, else one per group the caller sees (never every group's runs,
 * filtered: how busy the groups they do not see are must not decide what they get).
 */
function activityReads(appName: string | undefined, visible: VisibleGroups): (string | undefined)[] {
  const scope = listScope(appName, visible);
  if (scope === null) return [];
  if (scope.appName !== undefined || visible === ALL_GROUPS) return [scope.appName];
  return [...visible];
}

/** One read of {@link readNewestFirst}: its page in hand, the next run of it, and where it goes on. */
interface Stream {
  readonly appName: string | undefined;
  items: readonly Run[];
  next: number;
  cursor: string | undefined;
  ended: boolean;
}

/**
 * Reads the runs of each of `reads` (an appName, or undefined for all runs) triggered within
 * [from, to], and hands them to `take` merged newest (trigger time) first, each read paged as the
 * merge needs it (the first pages of all of them at once, then whichever ran out, again at once).
 * Stops when `take` says false, or when a read has to go on after `until`: then `truncated` (runs
 * were left unread, all older than those taken, as far as the store lists newest first).
 */
async function readNewestFirst(
  deps: AdminActivityDeps,
  reads: readonly (string | undefined)[],
  range: { readonly from: number; readonly to: number; readonly until: number },
  take: (run: Run) => boolean,
): Promise<{ truncated: boolean }> {
  const streams: Stream[] = reads.map((appName) => ({
    appName,
    items: [],
    next: 0,
    cursor: undefined,
    ended: false,
  }));
  let inBudget = true;
  for (;;) {
    const starved = streams.filter((s) => !s.ended && s.next >= s.items.length);
    if (starved.length > 0) {
      if (!inBudget) return { truncated: true };
      await Promise.all(
        starved.map(async (stream) => {
          const page = await deps.runs.list({
            from: range.from,
            to: range.to,
            ...(stream.appName === undefined ? {} : { appName: stream.appName }),
            limit: READ_PAGE,
            cursor: stream.cursor,
          });
          stream.items = page.items;
          stream.next = 0;
          stream.cursor = page.nextCursor;
          stream.ended = page.nextCursor === undefined;
        }),
      );
      inBudget = deps.clock.now() < range.until;
      continue;
    }
    let newest: Run | undefined;
    let from: Stream | undefined;
    for (const stream of streams) {
      const head = stream.items[stream.next];
      if (head !== undefined && (newest === undefined || head.triggerTime > newest.triggerTime)) {
        newest = head;
        from = stream;
      }
    }
    if (newest === undefined || from === undefined) return { truncated: false };
    from.next++;
    if (!take(newest)) return { truncated: true };
  }
}
