import type { Job, Run } from '@tickring/client';
import { useMemo, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import type { ChartSeries } from '../components/chart';
import { TimeChart } from '../components/chart';
import { Empty, ErrorNotice, PageHeader, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { useAlertChannels } from '../jobs/alert-channel-picker';
import { alertChannelsText, retentionText } from '../jobs/alerts-retention';
import { BackfillDialog, Backfills, canBackfill, jobTarget } from '../jobs/backfills';
import { readSchedule } from '../jobs/cron-text';
import { EditHistory } from '../jobs/edit-history';
import { FireLedger } from '../jobs/fire-ledger';
import {
  BLOCK_STRATEGIES,
  choiceLabel,
  GLUE_TYPES,
  MISFIRE_STRATEGIES,
  ROUTE_STRATEGIES,
} from '../jobs/job-form';
import { JobNotRead, useJob } from '../jobs/job-loader';
import { DeadlineBadge, JobPolicyFacts, PausedNotice } from '../jobs/job-policies-notice';
import { RetentionEstimate } from '../jobs/retention-estimate';
import { RunOnceDialog } from '../jobs/run-once';
import { RunsTimeline, TimelineLegend } from '../jobs/runs-timeline';
import { ScheduleBoundsFacts, ScheduleEndedNote } from '../jobs/schedule-bounds';
import { ScheduleSwitch } from '../jobs/schedule-switch';
import { describeZone } from '../jobs/time-zones';
import { percent, runDurationMs, runMessage, summarize, trendSeries } from '../jobs/timeline';
import { UpcomingFires } from '../jobs/upcoming-fires';
import { api, type ShownError } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { duration } from '../lib/format';
import { useAction, useLoad } from '../lib/hooks';
import { RunDue, RunLink, RunStatus } from '../runs/run-cells';
import '../jobs/jobs.css';

/** Calendars named by id, each a link to its page. */
function CalendarLinks({ ids }: { ids: readonly string[] }) {
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <Link href={`/calendars/${id}`} class="mono">
            {id}
          </Link>
        </span>
      ))}
    </>
  );
}

/** How many recent runs the timeline draws. */
const TIMELINE_RUNS = 200;

async function recentRuns(jobId: number): Promise<{ runs: Run[]; more: boolean }> {
  const runs: Run[] = [];
  let cursor: string | undefined;
  // Pages may come back short: follow the cursor, a few pages at most.
  for (let page = 0; page < 6 && runs.length < TIMELINE_RUNS; page++) {
    const answer = await api().listRuns({
      query: { jobId, limit: Math.min(100, TIMELINE_RUNS - runs.length), ...(cursor ? { cursor } : {}) },
    });
    runs.push(...answer.items);
    if (answer.nextCursor === null) return { runs, more: false };
    cursor = answer.nextCursor;
  }
  return { runs, more: true };
}

export function JobDetailPage({ params }: { params: { id: string } }) {
  const id = Number(params.id);
  const job = useJob(id, 10_000);
  if (!job.data) return <JobNotRead title={`Job ${params.id}`} job={job} />;
  return <JobDetail job={job.data} refreshError={job.error} reload={job.reload} />;
}

function JobDetail({
  job,
  refreshError,
  reload,
}: {
  job: Job;
  refreshError?: ShownError;
  reload: () => void;
}) {
  const { me } = useAuth();
  const [, navigate] = useLocation();
  const operate = canOperate(me, job.appName);
  const [runOnce, setRunOnce] = useState<Job | undefined>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [backfilling, setBackfilling] = useState(false);
  // Moves on when a backfill starts here, so the list reads it at once.
  const [backfillsKey, setBackfillsKey] = useState(0);
  const removal = useAction(async () => {
    await api().deleteJob({ path: { id: job.id } });
    navigate('/jobs');
  });
  const remove = async () => {
    if (!(await removal.run())) setConfirmDelete(false);
  };

  return (
    <>
      <p class="small">
        <Link href={`/jobs?appName=${encodeURIComponent(job.appName)}`}>← Jobs of {job.appName}</Link>
      </p>
      <PageHeader
        title={
          <>
            {job.name} <span class="muted small">#{job.id}</span>
          </>
        }
      >
        <ScheduleSwitch job={job} onChanged={reload} />
        {operate && (
          <>
            <Link href={`/jobs/${job.id}/edit`} role="button" class="secondary">
              Edit
            </Link>
            <button type="button" class="secondary" onClick={() => setRunOnce(job)}>
              Run once
            </button>
            {canBackfill(job) && (
              <button type="button" class="secondary" onClick={() => setBackfilling(true)}>
                Backfill…
              </button>
            )}
            <button type="button" class="danger-outline" onClick={() => setConfirmDelete(true)}>
              Delete
            </button>
          </>
        )}
      </PageHeader>
      <ErrorNotice error={refreshError} title="Could not refresh" />
      <ErrorNotice error={removal.error} title="Not deleted" />
      {!operate && (
        <p class="muted small" role="note">
          You may read this job; changing it needs an operator of {job.appName}.
        </p>
      )}

      <PausedNotice job={job} />
      <DeadlineBadge subject={job} />

      <JobFacts job={job} />

      <section class="detail-section" aria-labelledby="job-upcoming-heading">
        <h2 id="job-upcoming-heading">Upcoming fires</h2>
        <UpcomingFires job={job} operate={operate} onChanged={reload} />
      </section>

      <section class="detail-section" aria-labelledby="job-runs-heading">
        <h2 id="job-runs-heading">Runs</h2>
        <JobRuns job={job} />
      </section>

      {canBackfill(job) && (
        <section class="detail-section" aria-labelledby="job-backfills-heading">
          <h2 id="job-backfills-heading">Backfills</h2>
          <Backfills target={jobTarget(job)} operate={operate} reloadKey={backfillsKey} />
        </section>
      )}
      <section class="detail-section" aria-labelledby="job-ledger-heading">
        <h2 id="job-ledger-heading">Fires owed</h2>
        <FireLedger job={job} />
      </section>

      <section class="detail-section" aria-labelledby="job-history-heading">
        <h2 id="job-history-heading">Edit history</h2>
        <EditHistory job={job} />
      </section>

      <RunOnceDialog job={runOnce} onClose={() => setRunOnce(undefined)} />
      {operate && canBackfill(job) && (
        <BackfillDialog
          target={jobTarget(job)}
          open={backfilling}
          onClose={() => setBackfilling(false)}
          onStarted={() => {
            setBackfilling(false);
            setBackfillsKey((k) => k + 1);
          }}
        />
      )}
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${job.name}”?`}
        confirmLabel="Delete job"
        danger
        busy={removal.busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          Job #{job.id} of {job.appName} is deleted for good. Fires already on their way are dropped; jobs
          naming it as a child skip it. Its runs stay in the run log.
        </p>
      </ConfirmDialog>
    </>
  );
}

function JobFacts({ job }: { job: Job }) {
  const { me } = useAuth();
  const admin = me?.permissions.admin === true;
  // A job on its group's default names the group's channels: read the group.
  const inherits = job.alertChannels === null || job.alertChannels === undefined;
  const group = useLoad(
    () => (inherits ? api().getGroup({ path: { appName: job.appName } }) : Promise.resolve(undefined)),
    `job-group:${job.appName}:${inherits}`,
  );
  const named = inherits ? (group.data?.alertChannels ?? []) : (job.alertChannels ?? []);
  // Channels are named only for an admin (the list is theirs); others see their ids.
  const channels = useAlertChannels(admin && named.length > 0);
  const reading = readSchedule(job.scheduleType, job.scheduleConf, job.timeZone);
  const children = useLoad(
    () =>
      Promise.all(
        job.childJobIds.map((id) =>
          api()
            .getJob({ path: { id } })
            .then(
              (child) => ({ id, name: child.name as string | undefined }),
              () => ({ id, name: undefined }),
            ),
        ),
      ),
    `children:${job.childJobIds.join(',')}`,
  );
  return (
    <div class="grid">
      <dl class="facts">
        <dt>Group</dt>
        <dd>{job.appName}</dd>
        <dt>Schedule</dt>
        <dd>
          {job.scheduleType === 'NONE' ? (
            'None: only when triggered'
          ) : (
            <>
              <span class="mono">{job.scheduleConf}</span> <span class="muted">({job.scheduleType})</span>
              {reading.ok && <div>{reading.text}</div>}
            </>
          )}
        </dd>
        <dt>Time zone</dt>
        <dd>
          {job.timeZone} <span class="muted small">{describeZone(job.timeZone) ?? ''}</span>
        </dd>
        <dt>Status</dt>
        <dd>
          {job.triggerStatus === 'RUNNING' ? 'Schedule on (RUNNING)' : 'Schedule off (STOPPED)'}
          <ScheduleEndedNote schedule={job} />
        </dd>
        <ScheduleBoundsFacts schedule={job} />
        {job.calendars.only.length > 0 && (
          <>
            <dt>Only on</dt>
            <dd>
              working days of <CalendarLinks ids={job.calendars.only} />
            </dd>
          </>
        )}
        {job.calendars.exclude.length > 0 && (
          <>
            <dt>Not on</dt>
            <dd>
              dates excluded by <CalendarLinks ids={job.calendars.exclude} />
            </dd>
          </>
        )}
        <dt>Next fire</dt>
        <dd>
          <Time at={job.triggerNextTime} zone={job.timeZone} />
        </dd>
        <dt>Latest fire planned</dt>
        <dd>
          <Time at={job.triggerLastTime} zone={job.timeZone} />
        </dd>
        <dt>When late</dt>
        <dd>{choiceLabel(MISFIRE_STRATEGIES, job.misfireStrategy)}</dd>
        <JobPolicyFacts job={job} />
        <dt>Child jobs</dt>
        <dd>
          {job.childJobIds.length === 0
            ? 'None'
            : job.childJobIds.map((id, i) => {
                const name = children.data?.find((c) => c.id === id)?.name;
                return (
                  <span key={id}>
                    {i > 0 && ', '}
                    <Link href={`/jobs/${id}`}>{name ?? `Job #${id}`}</Link>
                  </span>
                );
              })}
        </dd>
      </dl>
      <dl class="facts">
        <dt>Code</dt>
        <dd>{choiceLabel(GLUE_TYPES, job.glueType)}</dd>
        {job.glueType === 'BEAN' && (
          <>
            <dt>Handler</dt>
            <dd class="mono">{job.executorHandler || '—'}</dd>
          </>
        )}
        <dt>Parameter</dt>
        <dd class="mono">{job.executorParam || <span class="muted">(none)</span>}</dd>
        <dt>Routing</dt>
        <dd>{choiceLabel(ROUTE_STRATEGIES, job.executorRouteStrategy)}</dd>
        <dt>While running</dt>
        <dd>{choiceLabel(BLOCK_STRATEGIES, job.executorBlockStrategy)}</dd>
        <dt>Timeout</dt>
        <dd>{job.executorTimeout === 0 ? 'None' : `${job.executorTimeout} s`}</dd>
        <dt>Retries</dt>
        <dd>
          {job.executorFailRetryCount === 0
            ? 'None'
            : `${job.executorFailRetryCount}, first after ${job.retryBackoffSeconds} s (doubling)`}
        </dd>
        <dt>Author</dt>
        <dd>{job.author}</dd>
        <dt>Alarms</dt>
        <dd>
          {[job.alarmEmail, job.alarmWebhook].filter(Boolean).join(' · ') || <span class="muted">None</span>}
        </dd>
        <dt>Alert channels</dt>
        <dd>
          <span>
            {alertChannelsText(job.alertChannels, channels.data ?? undefined, group.data?.alertChannels)}
          </span>
          {admin && (
            <div class="small">
              <Link href={`/alerts?jobId=${job.id}`}>Alerts of this job</Link>
            </div>
          )}
        </dd>
        <dt>Run history</dt>
        <dd>
          {retentionText(job)}
          {job.retention && (
            <div class="muted small">
              {job.logRetentionDays === null && `The install’s default is ${job.retention.days} days. `}
              <RetentionEstimate estimate={job.retention} />
            </div>
          )}
        </dd>
        <dt>Changed</dt>
        <dd>
          <Time at={job.updatedAt} /> <span class="muted small">(version {job.version})</span>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={job.createdAt} />
        </dd>
      </dl>
      {job.glueType !== 'BEAN' && (
        <details>
          <summary>Script ({choiceLabel(GLUE_TYPES, job.glueType)})</summary>
          <pre class="log-view job-script">{job.glueSource}</pre>
        </details>
      )}
    </div>
  );
}

const TREND_SERIES: readonly ChartSeries[] = [
  { label: 'Duration', color: 'var(--tr-running)', kind: 'line', format: duration },
  { label: 'Lateness', color: 'var(--tr-warn)', kind: 'line', format: duration },
];

function JobRuns({ job }: { job: Job }) {
  const loaded = useLoad(() => recentRuns(job.id), `runs:${job.id}`, 10_000);
  const runs = loaded.data?.runs;
  // "Now" moves with each read, so the timeline's right edge is the time of the data.
  const now = useMemo(() => Date.now(), [loaded.data]);
  const summary = useMemo(() => summarize(runs ?? []), [runs]);
  const trend = useMemo(() => trendSeries(runs ?? []), [runs]);
  const trendValues = useMemo(() => [trend.duration, trend.lateness], [trend]);

  if (!runs) {
    return (
      <div aria-busy={loaded.loading}>
        <ErrorNotice error={loaded.error} />
      </div>
    );
  }
  if (runs.length === 0) {
    return (
      <>
        <ErrorNotice error={loaded.error} />
        <Empty title="No runs yet">
          <p>
            {job.triggerStatus === 'RUNNING'
              ? 'Its first run comes at its next fire.'
              : 'Its schedule is off: turn it on, or use Run once.'}
          </p>
        </Empty>
      </>
    );
  }
  const counts = {
    success: summary.success,
    fail: summary.fail,
    running: summary.running,
    skipped: summary.skipped,
  };
  return (
    <>
      <ErrorNotice error={loaded.error} title="Could not refresh the runs" />
      <div class="cards">
        <div class="card">
          <div class="value">{percent(summary.successRate)}</div>
          <div class="label">Success rate (of {summary.success + summary.fail} finished)</div>
        </div>
        <div class="card">
          <div class="value">{summary.fail}</div>
          <div class="label">Failed</div>
        </div>
        <div class="card">
          <div class="value">{summary.skipped}</div>
          <div class="label">Skipped (misfires)</div>
        </div>
        <div class="card">
          <div class="value">{duration(summary.medianDurationMs)}</div>
          <div class="label">Median duration</div>
        </div>
      </div>
      <h3 class="subheading">
        The last {runs.length} runs{loaded.data?.more ? '' : ' (all of them)'}
      </h3>
      <TimelineLegend counts={counts} />
      <RunsTimeline runs={runs} now={now} exceptions={job.occurrenceExceptions} />
      <p class="muted small">
        Each mark is a run at the time it was due; shaded stretches had no scheduled fire. On the skipped
        lane, a cross is a fire skipped by a one-off exception and a dashed arrow a fire moved. Select a mark
        to open the run.
      </p>
      <h3 class="subheading">Duration and lateness</h3>
      <TimeChart
        x={trend.x}
        series={TREND_SERIES}
        values={trendValues}
        title="Duration (result − dispatch) and lateness (dispatch − due) of each run"
        height={200}
        yLabel="ms"
      />
      <h3 class="subheading">Latest runs</h3>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col">Due</th>
              <th scope="col" class="num">
                Duration
              </th>
              <th scope="col" class="hide-narrow">
                Trigger
              </th>
              <th scope="col" class="hide-narrow">
                Executor
              </th>
              <th scope="col" class="hide-narrow">
                Message
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.slice(0, 20).map((run) => (
              <tr key={run.logId}>
                <td>
                  <RunLink logId={run.logId} />
                </td>
                <td class="nowrap">
                  <RunStatus run={run} />
                </td>
                <td class="nowrap">
                  <RunDue run={run} />
                </td>
                <td class="num nowrap">{duration(runDurationMs(run))}</td>
                <td class="hide-narrow">{run.triggerType}</td>
                <td class="hide-narrow mono small">{run.executorAddress ?? '—'}</td>
                <td class="hide-narrow small run-message" title={runMessage(run) || undefined}>
                  {runMessage(run) || <span class="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link href={`/runs?jobId=${job.id}`}>All runs of this job →</Link>
      </p>
    </>
  );
}
