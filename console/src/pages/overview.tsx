import type { Activity, Dashboard, Executors } from '@tickring/client';
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { type ChartSeries, TimeChart } from '../components/chart';
import { Empty, ErrorNotice, PageHeader, Time } from '../components/common';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { duration } from '../lib/format';
import { useLoad, useUrlFilters } from '../lib/hooks';
import {
  ACTIVITY_WINDOWS,
  type ActivityWindow,
  activityTotals,
  activityWindow,
  DASHBOARD_DAYS,
  dailyChart,
  dashboardDays,
  latenessChart,
  runsChart,
  todayCounts,
  WINDOW_LABELS,
} from '../overview/activity';
import { executorCounts } from '../runs/executors';
import { StartExecutorHelp } from '../runs/start-executor-help';
import { messageLines } from '../runs/timing';

const REFRESH_MS = 10_000;

/** The overview: totals, runs and lateness over the last hour (or 6 h, 24 h), runs per day, executors, last failures. */
export function OverviewPage() {
  const { me } = useAuth();
  const [filters, setFilters] = useUrlFilters(['window', 'days']);
  const win = activityWindow(filters.window);
  const days = dashboardDays(filters.days);
  const dashboard = useLoad(() => api().dashboard({ query: { days } }), `dashboard:${days}`, REFRESH_MS);
  const activity = useLoad(
    () => api().getActivity({ query: { window: win } }),
    `activity:${win}`,
    REFRESH_MS,
  );
  const executors = useLoad(() => api().listExecutors(), 'executors', REFRESH_MS);

  const totals = dashboard.data?.totals;
  const noJobs = totals?.jobs === 0;
  const noExecutors = executors.data?.items.every((g) => g.executors.length === 0) === true;

  return (
    <>
      <PageHeader title="Overview" />
      <ErrorNotice error={dashboard.error} />
      {dashboard.data === undefined && dashboard.loading && <p aria-busy="true">Loading the overview…</p>}
      {dashboard.data && (
        <Cards dashboard={dashboard.data} executors={executors.data} inProgress={activity.data} />
      )}
      {noJobs && (
        <div style={{ marginBottom: '1rem' }}>
          <Empty title="No jobs yet">
            <p>
              Jobs fire on a schedule (cron, fixed rate, once) or by hand, on the executors of their group.
            </p>
            {canOperate(me) ? (
              <p>
                <Link href="/jobs/new" role="button" class="small">
                  Create a job
                </Link>
              </p>
            ) : (
              <p>Ask an operator of a group to create one.</p>
            )}
          </Empty>
        </div>
      )}
      {noExecutors && (
        <div style={{ marginBottom: '1rem' }}>
          <Empty title="No executors yet">
            <StartExecutorHelp />
          </Empty>
        </div>
      )}

      <ActivitySection
        win={win}
        onWindow={(value) => setFilters({ window: value === '1h' ? undefined : value })}
        activity={activity.data}
        error={activity.error}
        loading={activity.loading}
      />

      <section aria-labelledby="days-heading">
        <header class="page-header">
          <h2 id="days-heading">Runs per day</h2>
          <Switch
            label="Days shown"
            options={DASHBOARD_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
            value={String(days)}
            onChange={(value) => setFilters({ days: value === '7' ? undefined : value })}
          />
        </header>
        {dashboard.data && <DailyChart series={dashboard.data.series} days={days} />}
      </section>

      <section aria-labelledby="executors-heading">
        <h2 id="executors-heading">Executors</h2>
        <ErrorNotice error={executors.error} />
        {executors.data && <ExecutorSummary executors={executors.data} />}
      </section>
    </>
  );
}

function Card({ value, label, href }: { value: ComponentChildren; label: string; href?: string }) {
  return (
    <div class="card">
      <div class="value">{value}</div>
      <div class="label">{href ? <Link href={href}>{label}</Link> : label}</div>
    </div>
  );
}

function Cards({
  dashboard,
  executors,
  inProgress,
}: {
  dashboard: Dashboard;
  executors: Executors | undefined;
  inProgress: Activity | undefined;
}) {
  const today = todayCounts(dashboard.series);
  const totals = dashboard.totals;
  const counts = executors ? executorCounts(executors.items) : undefined;
  const todayStart = today.day ? new Date(`${today.day}T00:00:00Z`).toISOString() : undefined;
  const since = todayStart ? `&from=${encodeURIComponent(todayStart)}` : '';
  // Running now: the dashboard's period count, or the activity's window when that says more.
  const running = Math.max(totals.running, inProgress?.inProgress ?? 0);
  return (
    <section class="cards" aria-label="Totals">
      <Card value={totals.jobs} label="Jobs" href="/jobs" />
      <Card value={totals.runningJobs} label="Schedules on" />
      <Card value={today.runs} label="Runs today (UTC)" href={`/runs?${since.slice(1)}`} />
      <Card value={today.success} label="Succeeded today" href={`/runs?status=success${since}`} />
      <Card value={today.fail} label="Failed today" href={`/runs?status=fail${since}`} />
      <Card value={today.skipped ?? '—'} label="Misfires today (skipped)" />
      <Card value={running} label="Runs in progress" href="/runs?status=running&range=7d" />
      <Card
        value={counts ? `${counts.online} / ${counts.offline}` : '—'}
        label="Executors online / offline"
        href="/executors"
      />
    </section>
  );
}

function Switch({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: Pico draws [role=group] as one row of joined buttons
    <fieldset role="group" aria-label={label} class="switch-group" style={{ width: 'auto', marginBottom: 0 }}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          class={`small${o.value === value ? '' : ' outline'}`}
          aria-pressed={o.value === value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}

const BUCKET_NAMES: Record<number, string> = { 60000: 'minute', 300000: '5 minutes', 900000: '15 minutes' };

const RUN_SERIES = [
  { label: 'Succeeded', color: 'var(--tr-success)', kind: 'bars' },
  { label: 'Failed', color: 'var(--tr-fail)', kind: 'bars' },
  { label: 'Running', color: 'var(--tr-running)', kind: 'bars' },
] as const;

function ActivitySection({
  win,
  onWindow,
  activity,
  error,
  loading,
}: {
  win: ActivityWindow;
  onWindow: (value: string) => void;
  activity: Activity | undefined;
  error: ReturnType<typeof useLoad>['error'];
  loading: boolean;
}) {
  const runs = useMemo(() => (activity ? runsChart(activity) : undefined), [activity]);
  const lateness = useMemo(() => (activity ? latenessChart(activity) : undefined), [activity]);
  const runSeries = useMemo<ChartSeries[]>(
    () => RUN_SERIES.map((s, i) => ({ ...s, ...(runs ? { shown: runs.shown[i] ?? [] } : {}) })),
    [runs],
  );
  const latenessSeries = useMemo<ChartSeries[]>(
    () => [
      { label: 'p50', color: 'var(--tr-running)', kind: 'line', format: duration },
      { label: 'p99', color: 'var(--tr-warn)', kind: 'line', format: duration },
    ],
    [],
  );
  const bucket = activity ? (BUCKET_NAMES[activity.bucketMs] ?? duration(activity.bucketMs)) : 'minute';
  const sum = activity ? activityTotals(activity) : undefined;
  return (
    <section aria-labelledby="activity-heading">
      <header class="page-header">
        <h2 id="activity-heading">Runs per {bucket}</h2>
        <Switch
          label="Time window"
          options={ACTIVITY_WINDOWS.map((w) => ({ value: w, label: WINDOW_LABELS[w] }))}
          value={win}
          onChange={onWindow}
        />
      </header>
      <ErrorNotice error={error} title="Activity not available" />
      {!activity && loading && <p aria-busy="true">Loading activity…</p>}
      {activity && sum && (
        <>
          <p class="muted">
            {WINDOW_LABELS[win]}: {sum.success} succeeded, {sum.fail} failed, {sum.running} running (by
            scheduled time; misfires not counted).
            {activity.truncated && (
              <>
                {' '}
                <strong>
                  Based on the newest {activity.sampled.toLocaleString()} runs of the window only: it had
                  more.
                </strong>
              </>
            )}
          </p>
          {runs && (
            <TimeChart
              x={runs.x}
              series={runSeries}
              values={runs.values}
              title={`Runs per ${bucket}, ${WINDOW_LABELS[win].toLowerCase()}: ${sum.success} succeeded, ${sum.fail} failed, ${sum.running} running`}
            />
          )}
          <h3>Lateness (started − scheduled)</h3>
          {lateness && (
            <TimeChart
              x={lateness.x}
              series={latenessSeries}
              values={lateness.values}
              title={`Lateness p50 and p99 per ${bucket}, ${WINDOW_LABELS[win].toLowerCase()}`}
              yLabel="ms"
            />
          )}
          <LastFailures activity={activity} />
        </>
      )}
    </section>
  );
}

function LastFailures({ activity }: { activity: Activity }) {
  return (
    <>
      <h3 id="failures-heading">Last failures</h3>
      {activity.lastFailures.length === 0 ? (
        <p class="muted">No failed runs in this window.</p>
      ) : (
        <ul aria-labelledby="failures-heading" class="failures">
          {activity.lastFailures.map((f) => {
            const message = messageLines(f.handleMsg).join(' ');
            return (
              <li key={f.logId}>
                <Link href={`/runs/${f.logId}`}>
                  {f.jobName} <span class="mono">#{f.logId}</span>
                </Link>{' '}
                <span class="muted small">
                  {f.appName} · <Time at={f.handleTime ?? f.scheduledTime} />
                </span>
                {message && (
                  <div class="small">{message.length > 200 ? `${message.slice(0, 200)}…` : message}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <p>
        <Link href="/runs?status=fail">All failed runs</Link>
      </p>
    </>
  );
}

const DAY_INCRS = [86_400, 2 * 86_400, 7 * 86_400];

const DAY_SERIES = [
  { label: 'Succeeded', color: 'var(--tr-success)', kind: 'bars' },
  { label: 'Failed', color: 'var(--tr-fail)', kind: 'bars' },
  { label: 'Running', color: 'var(--tr-running)', kind: 'bars' },
  { label: 'Skipped', color: 'var(--tr-skipped)', kind: 'bars' },
] as const;

function DailyChart({ series, days }: { series: Dashboard['series']; days: number }) {
  const chart = useMemo(() => dailyChart(series), [series]);
  const chartSeries = useMemo<ChartSeries[]>(
    () => DAY_SERIES.map((s, i) => ({ ...s, shown: chart.shown[i] ?? [] })),
    [chart],
  );
  const sums = series.reduce(
    (acc, d) => ({
      success: acc.success + d.success,
      fail: acc.fail + d.fail,
      // An older server's series has no skipped.
      skipped: acc.skipped + (d.skipped ?? 0),
    }),
    { success: 0, fail: 0, skipped: 0 },
  );
  return (
    <>
      <p class="muted">
        Last {days} days (UTC): {sums.success} succeeded, {sums.fail} failed, {sums.skipped} skipped.
      </p>
      <TimeChart
        x={chart.x}
        series={chartSeries}
        values={chart.values}
        xIncrs={DAY_INCRS}
        title={`Runs per day, last ${days} days: ${sums.success} succeeded, ${sums.fail} failed, ${sums.skipped} skipped`}
      />
    </>
  );
}

function ExecutorSummary({ executors }: { executors: Executors }) {
  if (executors.items.length === 0) return <p class="muted">No executor groups yet.</p>;
  return (
    <ul>
      {executors.items.map((group) => {
        const c = executorCounts([group]);
        return (
          <li key={group.appName}>
            <Link href="/executors">{group.title}</Link> <span class="mono muted small">{group.appName}</span>
            : {c.online > 0 && <span class="badge online">{c.online} online</span>}{' '}
            {c.offline > 0 && <span class="badge offline">{c.offline} offline</span>}{' '}
            {c.unknown > 0 && <span class="badge">{c.unknown} not registering</span>}
            {group.executors.length === 0 && <span class="muted">no executor</span>}
          </li>
        );
      })}
    </ul>
  );
}
