import type { Run } from '@tickring/client';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, Time } from '../components/common';
import { FilterSelect, GroupFilter } from '../components/filters';
import { api } from '../lib/api';
import { fromLocalInput, toLocalInput } from '../lib/format';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import {
  ANY_TIME,
  DEFAULT_RANGE,
  emptyRunsMessage,
  hasFilters,
  isQuickRange,
  QUICK_RANGES,
  RUN_STATUSES,
  runListQuery,
} from '../runs/filters';
import { ExecutorAddress, RunDue, RunDuration, RunLateness, RunLink, RunStatus } from '../runs/run-cells';

const PAGE_SIZE = 50;
const FILTERS = ['status', 'appName', 'jobId', 'range', 'from', 'to'] as const;
const STATUS_NAMES: Record<(typeof RUN_STATUSES)[number], string> = {
  running: 'Running',
  success: 'Succeeded',
  fail: 'Failed',
  skipped: 'Skipped (misfires)',
};
const RANGE_CHOICES = [
  { value: ANY_TIME, label: 'Any time' },
  ...Object.entries(QUICK_RANGES).map(([value, { label }]) => ({ value, label })),
  { value: 'custom', label: 'Between…' },
];

/** Runs, newest first: filtered by status, group, job and time (all in the URL), paged by cursor. */
export function RunsPage() {
  const [filters, setFilters, clearFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
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
          <button type="button" class="secondary small" onClick={clearFilters}>
            Clear filters
          </button>
        )}
      </PageHeader>
      <form class="filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="runs-status"
          label="Status"
          any="Any status"
          value={filters.status}
          choices={RUN_STATUSES.map((s) => ({ value: s, label: STATUS_NAMES[s] }))}
          onChange={(status) => setFilters({ status })}
        />
        <GroupFilter
          id="runs-group"
          any="Any group"
          value={filters.appName}
          onChange={(appName) => setFilters({ appName })}
        />
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
        <FilterSelect
          id="runs-range"
          label="Time"
          value={rangeMode}
          choices={RANGE_CHOICES}
          onChange={(value) => {
            if (value === 'custom') {
              setFilters({
                range: undefined,
                from: new Date(Date.now() - 24 * 3600_000).toISOString(),
                to: undefined,
              });
            } else setFilters({ range: value, from: undefined, to: undefined });
          }}
        />
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
              <td class="nowrap">
                <RunStatus run={run} />
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
                <RunDue run={run} />
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
