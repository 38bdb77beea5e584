// The runs list's filters as they live in the URL, and the listRuns query they make. Pure.

export const RUN_STATUSES = ['running', 'success', 'fail', 'skipped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Quick picks of the time range: the last hour, day or week, counted back from each read. */
export const QUICK_RANGES = {
  '1h': { label: 'Last hour', ms: 3600_000 },
  '24h': { label: 'Last 24 hours', ms: 24 * 3600_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 24 * 3600_000 },
} as const;
export type QuickRange = keyof typeof QUICK_RANGES;

/**
 * The range when the URL names none: the last 24 hours, as XXL-JOB's log page opens on today. Reading
 * every hour back to the retention limit on a sparse table takes the server seconds; `range=all` asks for it.
 */
export const DEFAULT_RANGE: QuickRange = '24h';
export const ANY_TIME = 'all';

/** The filters as read from the URL (strings, absent when not set). */
export interface RunFilterValues {
  readonly status?: string;
  readonly appName?: string;
  readonly jobId?: string;
  readonly range?: string;
  readonly from?: string;
  readonly to?: string;
}

export interface RunListQuery {
  status?: RunStatus;
  appName?: string;
  jobId?: number;
  from?: string;
  to?: string;
}

export function isQuickRange(value: string | undefined): value is QuickRange {
  return value !== undefined && Object.hasOwn(QUICK_RANGES, value);
}

/** A job id as typed: a positive whole number, or undefined. */
export function parseJobId(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return undefined;
  const id = Number(trimmed);
  return id > 0 ? id : undefined;
}

function instant(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}

/**
 * The listRuns query of the URL's filters, as of `now`: a quick range counts back from now (so each
 * refresh moves with the clock); otherwise `from`/`to` as given. Values that do not parse are left out.
 */
export function runListQuery(filters: RunFilterValues, now: number = Date.now()): RunListQuery {
  const query: RunListQuery = {};
  if (filters.status && (RUN_STATUSES as readonly string[]).includes(filters.status)) {
    query.status = filters.status as RunStatus;
  }
  if (filters.appName) query.appName = filters.appName;
  const jobId = parseJobId(filters.jobId);
  if (jobId !== undefined) query.jobId = jobId;
  const range = filters.range ?? (filters.from || filters.to ? undefined : DEFAULT_RANGE);
  if (range === ANY_TIME) {
    // no time bound
  } else if (isQuickRange(range)) {
    query.from = new Date(now - QUICK_RANGES[range].ms).toISOString();
  } else {
    const from = instant(filters.from);
    const to = instant(filters.to);
    if (from !== undefined) query.from = from;
    if (to !== undefined) query.to = to;
  }
  return query;
}

/** Whether any filter is set (the empty state then says to widen them). */
export function hasFilters(filters: RunFilterValues): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== '');
}

const STATUS_RUNS: Record<RunStatus, string> = {
  running: 'runs running',
  success: 'successful runs',
  fail: 'failed runs',
  skipped: 'skipped runs',
};

/** What the empty list means for these filters, and what to try next. */
export function emptyRunsMessage(filters: RunFilterValues): { title: string; hint: string } {
  const query = runListQuery(filters);
  if (query.status === 'skipped' && query.jobId === undefined) {
    return {
      title: 'Skipped runs are listed per job',
      hint: 'Misfires (skipped runs) are listed under their job only: enter a job id to see them.',
    };
  }
  const range = filters.range ?? (filters.from || filters.to ? undefined : DEFAULT_RANGE);
  if (!hasFilters(filters) || (range === ANY_TIME && !query.status && !query.appName && !query.jobId)) {
    return {
      title: range === ANY_TIME ? 'No runs yet' : 'No runs in the last 24 hours',
      hint: `Runs appear here when a job fires on its schedule or is run once by hand (Jobs → a job → Run once).${range === ANY_TIME ? '' : ' Older runs: Time → Any time.'}`,
    };
  }
  const parts: string[] = [];
  if (query.jobId !== undefined) parts.push(`of job ${query.jobId}`);
  if (query.appName) parts.push(`in group ${query.appName}`);
  if (isQuickRange(range)) parts.push(`in the ${QUICK_RANGES[range].label.toLowerCase()}`);
  else if (query.from || query.to) parts.push('in this time range');
  const runs = query.status ? STATUS_RUNS[query.status] : 'runs';
  const what =
    parts.length > 0 || query.status ? `No ${[runs, ...parts].join(' ')}` : 'No runs match these filters';
  return { title: what, hint: 'Widen the filters (a longer time range, another status) or clear them.' };
}
