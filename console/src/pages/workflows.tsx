import type { Workflow } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, Time } from '../components/common';
import { GroupFilter } from '../components/filters';
import { readSchedule } from '../jobs/cron-text';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import { TriggerDialog, WorkflowScheduleSwitch } from '../workflows/controls';

const FILTERS = ['appName'] as const;

/** Workflows (DAGs of jobs), by group: schedule, status, runs in progress; trigger one from here. */
export function WorkflowsPage() {
  const { me } = useAuth();
  const [filters, setFilters, clearFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const [triggering, setTriggering] = useState<Workflow | undefined>();
  const workflows = useLoad(
    () =>
      api().listWorkflows({
        query: {
          limit: 50,
          ...(filters.appName ? { appName: filters.appName } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    JSON.stringify([filters, cursor]),
    10_000,
  );
  const items = workflows.data?.items ?? [];
  const newHref = filters.appName
    ? `/workflows/new?appName=${encodeURIComponent(filters.appName)}`
    : '/workflows/new';

  return (
    <>
      <PageHeader title="Workflows">
        <Link href="/workflows/runs" role="button" class="secondary">
          Workflow runs
        </Link>
        {canOperate(me) && (
          <Link href={newHref} role="button">
            New workflow
          </Link>
        )}
      </PageHeader>
      <search aria-label="Filter workflows">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <GroupFilter
            id="workflows-group"
            any="All groups"
            value={filters.appName}
            onChange={(appName) => setFilters({ appName })}
          />
        </form>
      </search>
      <ErrorNotice error={workflows.error} />
      {workflows.data === undefined && workflows.loading && <p aria-busy="true">Reading the workflows…</p>}
      {workflows.data && items.length === 0 ? (
        filters.appName || cursor ? (
          <Empty title={cursor ? 'No more workflows' : `No workflows in ${filters.appName}`}>
            <p>
              <button type="button" class="secondary small" onClick={clearFilters}>
                Show every group
              </button>
            </p>
          </Empty>
        ) : (
          <Empty title="No workflows yet">
            <p>
              A workflow runs jobs of one group as a graph: each node a job, run after its upstream nodes
              succeeded, failed, or either; its parameters read the run’s input and earlier results.
            </p>
            {canOperate(me) ? (
              <p>
                <Link href="/workflows/new">Create one with New workflow</Link>, or with{' '}
                <code>POST /v1/workflows</code>.
              </p>
            ) : (
              <p>Ask an operator of your group to create one.</p>
            )}
          </Empty>
        )
      ) : (
        items.length > 0 && (
          <div class="table-wrap">
            <table class="jobs-table">
              <thead>
                <tr>
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
                  <th scope="col" class="num hide-narrow">
                    Active runs
                  </th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((workflow) => (
                  <WorkflowRow
                    key={workflow.id}
                    workflow={workflow}
                    onTrigger={setTriggering}
                    onChanged={workflows.reload}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )
      )}
      <Pager nextCursor={workflows.data?.nextCursor} onNext={next} onPrevious={previous} />
      <TriggerDialog
        workflow={triggering}
        onClose={() => {
          setTriggering(undefined);
          workflows.reload();
        }}
      />
    </>
  );
}

function WorkflowRow({
  workflow,
  onTrigger,
  onChanged,
}: {
  workflow: Workflow;
  onTrigger: (workflow: Workflow) => void;
  onChanged: () => void;
}) {
  const { me } = useAuth();
  const operate = canOperate(me, workflow.appName);
  const reading = readSchedule(workflow.scheduleType, workflow.scheduleConf, workflow.timeZone);
  const readingText = reading.ok ? reading.text : undefined;
  return (
    <tr>
      <td class="job-name">
        <Link href={`/workflows/${workflow.id}`}>{workflow.name}</Link>{' '}
        <span class="muted small nowrap">
          #{workflow.id} · {workflow.nodes.length} {workflow.nodes.length === 1 ? 'node' : 'nodes'}
        </span>
        <small class="only-narrow muted">
          {workflow.appName} ·{' '}
          {workflow.scheduleType === 'NONE' ? 'when triggered' : (readingText ?? workflow.scheduleConf)}
        </small>
      </td>
      <td class="hide-narrow">{workflow.appName}</td>
      <td class="hide-narrow" title={readingText}>
        <span class="schedule-type">{workflow.scheduleType}</span>
        {workflow.scheduleType === 'NONE' ? (
          <span class="muted">—</span>
        ) : (
          <span class="schedule-conf">{workflow.scheduleConf}</span>
        )}
      </td>
      <td>
        <WorkflowScheduleSwitch workflow={workflow} onChanged={onChanged} />
      </td>
      <td class="nowrap hide-narrow">
        <Time at={workflow.triggerNextTime} zone={workflow.timeZone} />
      </td>
      <td class="num hide-narrow">
        {workflow.activeRuns > 0 ? (
          <Link href={`/workflows/runs?workflowId=${workflow.id}&status=RUNNING`}>{workflow.activeRuns}</Link>
        ) : (
          0
        )}
        {workflow.bufferedRunId && <span class="muted small nowrap"> +1 queued</span>}
      </td>
      <td>
        <button
          type="button"
          class="secondary small nowrap"
          disabled={!operate}
          title={operate ? undefined : `You may not operate the group ${workflow.appName}`}
          aria-label={`Trigger: ${workflow.name}`}
          onClick={() => onTrigger(workflow)}
        >
          Trigger
        </button>
      </td>
    </tr>
  );
}
