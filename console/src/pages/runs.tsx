import type { Run } from '@tickring/client';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, StatusBadge, Time } from '../components/common';
import { api } from '../lib/api';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import {
  ANY_TIME,
  DEFAULT_RANGE,
  emptyRunsMessage,
  fromLocalInput,
  hasFilters,
  isQuickRange,
  QUICK_RANGES,
  RUN_STATUSES,
  runListQuery,
  toLocalInput,
} from '../runs/filters';
import { ExecutorAddress, RunDuration, RunLateness, RunLink } from '../runs/run-cells';

const PAGE_SIZE = 50;
const FILTERS = ['status', 'appName', 'jobId', 'range', 'from', 'to'] as const;
const STATUS_NAMES: Record<string, string> = {
  running: 'Running',
  success: 'Succeeded',
  fail: 'Failed',
  skipped: 'Skipped (misfires)',
};

/** Runs, newest first: filtered by status, group, job and time (all in the URL), paged by cursor. */
export function RunsPage() {
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const groups = useLoad(() => api().listGroups(), 'groups');
  const key = JSON.stringify({ ...filters, cursor });
  const runs = useLoad(
    () =>
      api().listRuns({
        query: { ...runListQuery(filters), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
    key,
    // Only the first page moves (new runs come on top); older pages stay put.
    cursor === undefined ? 5000 : undefined,
  );
  const rangeMode =
    filters.range === ANY_TIME || isQuickRange(filters.range)
      ? filters.range
      : filters.from || filters.to
        ? 'custom'
        : DEFAULT_RANGE;
  const items = runs.data?.items ?? [];
  const empty = emptyRunsMessage(filters);

  return (
    <>
      <PageHeader title="Runs">
        {hasFilters(filters) && (
          <button
            type="button"
            class="secondary small"
            onClick={() =>
              setFilters({
                status: undefined,
                appName: undefined,
                jobId: undefined,
                range: undefined,
                from: undefined,
                to: undefined,
              })
            }
          >
            Clear filters
          </button>
        )}
      </PageHeader>
      <form class="filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label for="runs-status">Status</label>
          <select
            id="runs-status"
            value={filters.status ?? ''}
            onChange={(e) => setFilters({ status: e.currentTarget.value })}
          >
            <option value="">Any status</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_NAMES[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="runs-group">Group</label>
          <select
            id="runs-group"
            value={filters.appName ?? ''}
            onChange={(e) => setFilters({ appName: e.currentTarget.value })}
          >
            <option value="">Any group</option>
            {(groups.data?.items ?? []).map((g) => (
              <option key={g.appName} value={g.appName}>
                {g.title} ({g.appName})
              </option>
            ))}
            {filters.appName && !groups.data?.items.some((g) => g.appName === filters.appName) && (
              <option value={filters.appName}>{filters.appName}</option>
            )}
          </select>
        </div>
        <div>
          <label for="runs-job">Job id</label>
          <input
            id="runs-job"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="Any job"
            value={filters.jobId ?? ''}
            onChange={(e) => setFilters({ jobId: e.currentTarget.value.trim() })}
          />
        </div>
        <div>
          <label for="runs-range">Time</label>
          <select
            id="runs-range"
            value={rangeMode}
            onChange={(e) => {
              const value = e.currentTarget.value;
              if (value === 'custom') {
                setFilters({
                  range: undefined,
                  from: new Date(Date.now() - 24 * 3600_000).toISOString(),
                  to: undefined,
                });
              } else setFilters({ range: value, from: undefined, to: undefined });
            }}
          >
            <option value={ANY_TIME}>Any time</option>
            {Object.entries(QUICK_RANGES).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            <option value="custom">Between…</option>
          </select>
        </div>
        {rangeMode === 'custom' && (
          <>
            <div>
              <label for="runs-from">From (triggered at or after)</label>
              <input
                id="runs-from"
                type="datetime-local"
                value={toLocalInput(filters.from)}
                onChange={(e) => setFilters({ from: fromLocalInput(e.currentTarget.value) })}
              />
            </div>
            <div>
              <label for="runs-to">To (triggered at or before)</label>
              <input
                id="runs-to"
                type="datetime-local"
                value={toLocalInput(filters.to)}
                onChange={(e) => setFilters({ to: fromLocalInput(e.currentTarget.value) })}
              />
            </div>
          </>
        )}
      </form>
      {filters.status === 'skipped' && !filters.jobId && (
        <p class="muted small">Skipped runs (misfires) are listed under their job only: enter a job id.</p>
      )}
      <ErrorNotice error={runs.error} />
      {runs.data === undefined && runs.loading && <p aria-busy="true">Loading runs…</p>}
      {runs.data !== undefined && items.length === 0 && !runs.data.nextCursor && (
        <Empty title={cursor ? 'No older runs' : empty.title}>
          <p>{cursor ? 'This is the end of the list.' : empty.hint}</p>
          {!hasFilters(filters) && !cursor && (
            <p>
              <Link href="/jobs">Go to the jobs</Link>
            </p>
          )}
        </Empty>
      )}
      {items.length === 0 && runs.data?.nextCursor && (
        <p class="muted">No runs on this page; older ones may follow.</p>
      )}
      {items.length > 0 && <RunsTable runs={items} />}
      <Pager nextCursor={runs.data?.nextCursor} onNext={next} onPrevious={previous} />
    </>
  );
}

function RunsTable({ runs }: { runs: readonly Run[] }) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="striped">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col" style={{ minWidth: '12rem' }}>
              Job
            </th>
            <th scope="col" class="hide-narrow">
              Trigger
            </th>
            <th scope="col" class="hide-narrow">
              Executor
            </th>
            <th scope="col">Scheduled</th>
            <th scope="col" class="hide-narrow">
              Started
            </th>
            <th scope="col" class="hide-narrow">
              Finished
            </th>
            <th scope="col" class="num">
              Duration
            </th>
            <th scope="col" class="num hide-narrow">
              Lateness
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.logId}>
              <td>
                <RunLink logId={run.logId} />
              </td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td>
                <Link href={`/jobs/${run.jobId}`}>{run.jobName || `Job ${run.jobId}`}</Link>{' '}
                <span class="muted small nowrap">#{run.jobId}</span>
              </td>
              <td class="hide-narrow">{run.triggerType}</td>
              <td class="hide-narrow">
                <ExecutorAddress address={run.executorAddress} />
              </td>
              <td class="nowrap">
                <Time at={run.scheduledTime} />
              </td>
              <td class="nowrap hide-narrow">
                <Time at={run.dispatchedAt} />
              </td>
              <td class="nowrap hide-narrow">
                <Time at={run.handleTime} />
              </td>
              <td class="num">
                <RunDuration run={run} now={now} />
              </td>
              <td class="num hide-narrow">
                <RunLateness run={run} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
