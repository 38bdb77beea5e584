import type { Job } from '@tickring/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, Time } from '../components/common';
import { FilterSelect, FilterText, GroupFilter } from '../components/filters';
import { readSchedule } from '../jobs/cron-text';
import { hasClientFilter, readJobPage, triggerStatusOf } from '../jobs/job-list';
import { RunOnceDialog } from '../jobs/run-once';
import { ScheduleSwitch } from '../jobs/schedule-switch';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import '../jobs/jobs.css';

const FILTERS = ['appName', 'status', 'handler', 'q'] as const;
const JOB_STATUSES = [
  { value: 'running', label: 'Schedule on (running)' },
  { value: 'stopped', label: 'Schedule off (stopped)' },
];

/** A text filter typed into an input, written to the URL 300 ms after the last key. */
function useDebouncedFilter(value: string | undefined, write: (value: string | undefined) => void) {
  const [text, setText] = useState(value ?? '');
  // The URL changed by itself (back/forward, "Clear filters"): show its value.
  useEffect(() => setText(value ?? ''), [value]);
  useEffect(() => {
    if (text === (value ?? '')) return;
    const timer = setTimeout(() => write(text.trim() === '' ? undefined : text), 300);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, setText] as const;
}

export function JobsPage() {
  const { me } = useAuth();
  const [filters, setFilters, clearFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const [handler, setHandler] = useDebouncedFilter(filters.handler, (handler) => setFilters({ handler }));
  const [q, setQ] = useDebouncedFilter(filters.q, (q) => setFilters({ q }));
  const [runOnce, setRunOnce] = useState<Job | undefined>();

  const triggerStatus = triggerStatusOf(filters.status);
  const clientFilter = { handler: filters.handler, q: filters.q };
  const key = JSON.stringify([filters, cursor]);
  const jobs = useLoad(
    () =>
      readJobPage(
        (page) =>
          api().listJobs({
            query: {
              ...page,
              ...(filters.appName ? { appName: filters.appName } : {}),
              ...(triggerStatus ? { triggerStatus } : {}),
            },
          }),
        cursor,
        clientFilter,
      ),
    key,
    10_000,
  );

  const filtered = Object.values(filters).some((v) => v !== undefined);
  const handlers = useMemo(
    () => [...new Set((jobs.data?.items ?? []).map((j) => j.executorHandler).filter(Boolean))].sort(),
    [jobs.data],
  );
  const newJobHref = filters.appName
    ? `/jobs/new?appName=${encodeURIComponent(filters.appName)}`
    : '/jobs/new';

  return (
    <>
      <PageHeader title="Jobs">
        {canOperate(me) && (
          <Link href={newJobHref} role="button">
            New job
          </Link>
        )}
      </PageHeader>

      <search aria-label="Filter jobs">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <GroupFilter
            id="jobs-group"
            any="All groups"
            value={filters.appName}
            onChange={(appName) => setFilters({ appName })}
          />
          <FilterSelect
            id="jobs-status"
            label="Status"
            any="Any status"
            value={filters.status}
            choices={JOB_STATUSES}
            onChange={(status) => setFilters({ status })}
          />
          <FilterText
            id="jobs-handler"
            label="Handler"
            value={handler}
            placeholder="Any handler"
            suggestions={handlers}
            onInput={setHandler}
          />
          <FilterText id="jobs-q" label="Search" value={q} placeholder="Name, id, author…" onInput={setQ} />
        </form>
      </search>
      {hasClientFilter(clientFilter) && (
        <p class="filter-note">
          Handler and search are matched in your browser, over up to 500 jobs per page
          {jobs.data ? ` (${jobs.data.scanned} read)` : ''}; group and status are filtered by the server.
          {jobs.data?.stoppedEarly && ' More may match further on: use Older.'}
        </p>
      )}

      <ErrorNotice error={jobs.error} />
      {jobs.data && jobs.data.items.length === 0 ? (
        filters.appName && Object.keys(filters).length === 1 && !cursor ? (
          <Empty title={`No jobs in ${filters.appName} yet`}>
            {canOperate(me, filters.appName) ? (
              <p>
                <Link href={newJobHref}>Create one in {filters.appName}</Link>, or{' '}
                <button type="button" class="link-button" onClick={clearFilters}>
                  show every group
                </button>
                .
              </p>
            ) : (
              <p>Ask an operator of {filters.appName} to create one.</p>
            )}
          </Empty>
        ) : filtered || cursor ? (
          <Empty title="No jobs match these filters">
            <p>
              <button type="button" class="secondary small" onClick={clearFilters}>
                Clear filters
              </button>
            </p>
          </Empty>
        ) : (
          <Empty title="No jobs yet">
            <p>
              A job runs a handler of an executor group on a schedule (a Quartz cron, a fixed rate, once) or
              when triggered.
            </p>
            {canOperate(me) ? (
              <p>
                <Link href="/jobs/new">Create one with New job</Link>, or with{' '}
                <code>npx tickring jobs create -f job.json</code> or <code>POST /v1/jobs</code>.
              </p>
            ) : (
              <p>Ask an operator of your group to create one.</p>
            )}
          </Empty>
        )
      ) : (
        <div class="table-wrap" aria-busy={jobs.loading && !jobs.data}>
          <table class="jobs-table">
            <thead>
              <tr>
                <th scope="col" class="num hide-narrow">
                  ID
                </th>
                <th scope="col">Name</th>
                <th scope="col" class="hide-narrow">
                  Group
                </th>
                <th scope="col" class="hide-narrow">
                  Schedule
                </th>
                <th scope="col">Status</th>
                <th scope="col" class="hide-narrow">
                  Next fire
                </th>
                <th scope="col">
                  <span class="hide-narrow">Actions</span>
                  <span class="visually-hidden show-narrow">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(jobs.data?.items ?? []).map((job) => (
                <JobRow key={job.id} job={job} onRunOnce={setRunOnce} onChanged={jobs.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={jobs.data?.nextCursor} onNext={next} onPrevious={previous} />
      <RunOnceDialog job={runOnce} onClose={() => setRunOnce(undefined)} />
    </>
  );
}

function JobRow({
  job,
  onRunOnce,
  onChanged,
}: {
  job: Job;
  onRunOnce: (job: Job) => void;
  onChanged: () => void;
}) {
  const { me } = useAuth();
  const reading = readSchedule(job.scheduleType, job.scheduleConf, job.timeZone);
  const readingText = reading.ok ? reading.text : undefined;
  const operate = canOperate(me, job.appName);
  return (
    <tr>
      <td class="num hide-narrow">{job.id}</td>
      <td class="job-name">
        <Link href={`/jobs/${job.id}`}>{job.name}</Link>
        <small class="only-narrow muted">
          {job.appName} · {job.scheduleType === 'NONE' ? 'when triggered' : (readingText ?? job.scheduleConf)}
          {job.triggerNextTime && (
            <>
              {' '}
              · next <Time at={job.triggerNextTime} />
            </>
          )}
        </small>
      </td>
      <td class="hide-narrow">{job.appName}</td>
      <td class="hide-narrow" title={readingText}>
        <span class="schedule-type">{job.scheduleType}</span>
        {job.scheduleType === 'NONE' ? (
          <span class="muted">—</span>
        ) : (
          <span class="schedule-conf">{job.scheduleConf}</span>
        )}
        {job.scheduleType === 'CRON' && job.timeZone !== 'UTC' && (
          <span class="schedule-type">{job.timeZone}</span>
        )}
      </td>
      <td>
        <ScheduleSwitch job={job} onChanged={onChanged} />
      </td>
      <td class="nowrap hide-narrow">
        <Time at={job.triggerNextTime} />
      </td>
      <td>
        <button
          type="button"
          class="secondary small nowrap"
          disabled={!operate}
          title={operate ? undefined : `You may not operate the group ${job.appName}`}
          aria-label={`Run once: ${job.name}`}
          onClick={() => onRunOnce(job)}
        >
          Run once
        </button>
      </td>
    </tr>
  );
}
