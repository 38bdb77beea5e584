import type { Job, Workflow, WorkflowNode } from '@tickring/client';
import { useMemo, useState } from 'preact/hooks';
import { Link, useLocation } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { readSchedule } from '../jobs/cron-text';
import { FireLedger } from '../jobs/fire-ledger';
import { deadlineText } from '../jobs/job-policies';
import { DeadlineBadge } from '../jobs/job-policies-notice';
import { ScheduleBoundsFacts, ScheduleEndedNote } from '../jobs/schedule-bounds';
import { api, type ShownError } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { type Loaded, useAction, useLoad } from '../lib/hooks';
import { TriggerDialog, WorkflowScheduleSwitch } from '../workflows/controls';
import { CONDITION_WORDS, definitionOf, definitionText, templateText } from '../workflows/definition';
import { DefinitionEditor } from '../workflows/definition-editor';
import { EdgeLegend, WorkflowGraph } from '../workflows/graph';
import { useJobs } from '../workflows/job-names';
import { conditionOf } from '../workflows/layout';
import { WorkflowRunsTable } from '../workflows/runs-table';
import { WorkflowBackfills } from '../workflows/workflow-backfills';
import '../jobs/jobs.css';

const OVERLAP_WORDS: Record<Workflow['overlapPolicy'], string> = {
  SKIP: 'SKIP: a new run is not started while one runs',
  BUFFER_ONE: 'BUFFER_ONE: one new run waits (QUEUED) for the running one',
  ALLOW: 'ALLOW: runs side by side',
  CANCEL_PREVIOUS: 'CANCEL_PREVIOUS: a new run cancels the running ones',
};

export function WorkflowDetailPage({ params }: { params: { id: string } }) {
  const id = Number(params.id);
  const valid = /^\d+$/.test(params.id) && Number.isSafeInteger(id) && id > 0;
  const workflow = useLoad(
    () =>
      valid
        ? api().getWorkflow({ path: { id } })
        : Promise.reject(new Error(`"${params.id}" is not a workflow id`)),
    `workflow:${params.id}`,
    10_000,
  );
  if (!workflow.data) return <WorkflowNotRead title={`Workflow ${params.id}`} workflow={workflow} />;
  return <WorkflowDetail workflow={workflow.data} refreshError={workflow.error} reload={workflow.reload} />;
}

function WorkflowNotRead({ title, workflow }: { title: string; workflow: Loaded<Workflow> }) {
  return (
    <>
      <PageHeader title={title} />
      <ErrorNotice error={workflow.error} />
      {workflow.error ? (
        <p>
          <Link href="/workflows">Back to the workflows</Link>
        </p>
      ) : (
        <p aria-busy="true">Reading the workflow…</p>
      )}
    </>
  );
}

function WorkflowDetail({
  workflow,
  refreshError,
  reload,
}: {
  workflow: Workflow;
  refreshError?: ShownError;
  reload: () => void;
}) {
  const { me } = useAuth();
  const [, navigate] = useLocation();
  const operate = canOperate(me, workflow.appName);
  const [triggering, setTriggering] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const jobs = useJobs(
    workflow.appName,
    workflow.nodes.map((n) => n.jobId),
  );
  const removal = useAction(async () => {
    await api().deleteWorkflow({ path: { id: workflow.id } });
    navigate('/workflows');
  });
  const remove = async () => {
    if (!(await removal.run())) setConfirmDelete(false);
  };
  const definition = useMemo(() => definitionText(definitionOf(workflow)), [workflow]);

  return (
    <>
      <p class="small">
        <Link href={`/workflows?appName=${encodeURIComponent(workflow.appName)}`}>
          ← Workflows of {workflow.appName}
        </Link>
      </p>
      <PageHeader
        title={
          <>
            {workflow.name} <span class="muted small">#{workflow.id}</span>
          </>
        }
      >
        <WorkflowScheduleSwitch workflow={workflow} onChanged={reload} />
        {operate && (
          <>
            <button type="button" onClick={() => setTriggering(true)}>
              Trigger
            </button>
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
          You may read this workflow; changing or triggering it needs an operator of {workflow.appName}.
        </p>
      )}

      <DeadlineBadge subject={workflow} />

      <WorkflowFacts workflow={workflow} />

      <section class="detail-section" aria-labelledby="wf-graph-heading">
        <h2 id="wf-graph-heading">Graph</h2>
        <EdgeLegend />
        <WorkflowGraph
          nodes={workflow.nodes}
          label={`The nodes of ${workflow.name}, left to right by depth`}
          renderNode={(node) => <DefinitionNode node={node} job={jobs.get(node.jobId)} />}
        />
        <NodesTable nodes={workflow.nodes} jobs={jobs} />
      </section>

      <section class="detail-section" aria-labelledby="wf-runs-heading">
        <h2 id="wf-runs-heading">Recent runs</h2>
        <RecentRuns workflow={workflow} />
      </section>

      <section class="detail-section" aria-labelledby="wf-ledger-heading">
        <h2 id="wf-ledger-heading">Fires owed</h2>
        <FireLedger workflow={workflow} />
      </section>
      <WorkflowBackfills workflow={workflow} operate={operate} />

      <section class="detail-section" aria-labelledby="wf-definition-heading">
        <h2 id="wf-definition-heading">Definition (version {workflow.version})</h2>
        <p class="muted small">
          A save stores a new version; runs in progress keep the version they started with.
        </p>
        <DefinitionEditor
          initial={definition}
          version={workflow.version}
          readOnly={!operate}
          submitLabel="Save as a new version"
          send={(body) => api().updateWorkflow({ path: { id: workflow.id }, body })}
          onSaved={reload}
        />
      </section>

      <TriggerDialog
        workflow={triggering ? workflow : undefined}
        onClose={() => {
          setTriggering(false);
          reload();
        }}
      />
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${workflow.name}”?`}
        confirmLabel="Delete workflow"
        danger
        busy={removal.busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          Workflow #{workflow.id} of {workflow.appName} and its schedule job are deleted for good; its ended
          runs stay readable until they expire. A workflow with a run in progress cannot be deleted: cancel
          the run first.
        </p>
      </ConfirmDialog>
    </>
  );
}

function WorkflowFacts({ workflow }: { workflow: Workflow }) {
  const reading = readSchedule(workflow.scheduleType, workflow.scheduleConf, workflow.timeZone);
  return (
    <div class="grid">
      <dl class="facts">
        <dt>Group</dt>
        <dd>{workflow.appName}</dd>
        <dt>Schedule</dt>
        <dd>
          {workflow.scheduleType === 'NONE' ? (
            'None: only when triggered'
          ) : (
            <>
              <span class="mono">{workflow.scheduleConf}</span>{' '}
              <span class="muted">
                ({workflow.scheduleType}, {workflow.timeZone})
              </span>
              {reading.ok && <div>{reading.text}</div>}
            </>
          )}
        </dd>
        <dt>Status</dt>
        <dd>
          {workflow.scheduleType === 'NONE'
            ? 'Trigger only'
            : workflow.triggerStatus === 'RUNNING'
              ? 'Schedule on (RUNNING)'
              : 'Schedule off (STOPPED)'}
          <ScheduleEndedNote schedule={workflow} />
        </dd>
        <ScheduleBoundsFacts schedule={workflow} />
        <dt>Next fire</dt>
        <dd>
          <Time at={workflow.triggerNextTime} zone={workflow.timeZone} />
        </dd>
        {workflow.starterJobId !== null && (
          <>
            <dt>Schedule job</dt>
            <dd>
              <Link href={`/jobs/${workflow.starterJobId}`}>Job #{workflow.starterJobId}</Link>{' '}
              <span class="muted small">(its runs are the schedule’s history)</span>
            </dd>
          </>
        )}
      </dl>
      <dl class="facts">
        <dt>While a run runs</dt>
        <dd>{OVERLAP_WORDS[workflow.overlapPolicy]}</dd>
        {workflow.deadline && (
          <>
            <dt>Deadline</dt>
            <dd>a run must have succeeded by {deadlineText(workflow.deadline)}</dd>
          </>
        )}
        <dt>Runs in progress</dt>
        <dd>
          {workflow.activeRuns}
          {workflow.bufferedRunId && (
            <>
              {' '}
              and <Link href={`/workflows/runs/${workflow.bufferedRunId}`}>one queued</Link>
            </>
          )}
        </dd>
        <dt>Version</dt>
        <dd>{workflow.version}</dd>
        <dt>Changed</dt>
        <dd>
          <Time at={workflow.updatedAt} />
        </dd>
        <dt>Created</dt>
        <dd>
          <Time at={workflow.createdAt} />
        </dd>
      </dl>
    </div>
  );
}

/** A node of the definition: its key, its job (a link) and its parameter template. */
function DefinitionNode({ node, job }: { node: WorkflowNode; job: Job | undefined }) {
  const template = templateText(node.executorParam);
  return (
    <div class="wf-node">
      <span class="wf-node-key">{node.key}</span>
      <Link href={`/jobs/${node.jobId}`} class="wf-node-job" title={`Parameter: ${template}`}>
        {job?.name ?? `Job #${node.jobId}`}
      </Link>
      <span class="wf-node-param" title={template}>
        {template}
      </span>
    </div>
  );
}

/** The nodes in words: what each runs, after which nodes, with which parameter. */
function NodesTable({ nodes, jobs }: { nodes: readonly WorkflowNode[]; jobs: Map<number, Job> }) {
  return (
    <details>
      <summary>The nodes as a list (upstream edges, parameter templates)</summary>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Job</th>
              <th scope="col">After</th>
              <th scope="col">Parameter template</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => (
              <tr key={node.key}>
                <td class="mono">{node.key}</td>
                <td>
                  <Link href={`/jobs/${node.jobId}`}>
                    {jobs.get(node.jobId)?.name ?? `Job #${node.jobId}`}
                  </Link>{' '}
                  <span class="muted small">#{node.jobId}</span>
                </td>
                <td>
                  {(node.upstream ?? []).length === 0 ? (
                    <span class="muted">a root: runs first</span>
                  ) : (
                    (node.upstream ?? []).map((edge, i) => (
                      <span key={edge.key} class="nowrap">
                        {i > 0 && ', '}
                        <span class="mono">{edge.key}</span> {CONDITION_WORDS[conditionOf(edge.condition)]}
                      </span>
                    ))
                  )}
                </td>
                <td class="wf-param">{templateText(node.executorParam)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function RecentRuns({ workflow }: { workflow: Workflow }) {
  const runs = useLoad(
    () => api().listWorkflowRuns({ query: { workflowId: workflow.id, limit: 10 } }),
    `workflow-runs:${workflow.id}`,
    5000,
  );
  const items = runs.data?.items ?? [];
  return (
    <>
      <ErrorNotice error={runs.error} />
      {runs.data === undefined && runs.loading && <p aria-busy="true">Reading the runs…</p>}
      {runs.data && items.length === 0 && (
        <Empty title="No runs yet">
          <p>
            {workflow.scheduleType !== 'NONE' && workflow.triggerStatus === 'RUNNING'
              ? 'Its first run comes at its next fire.'
              : 'Trigger it to start a run.'}
          </p>
        </Empty>
      )}
      {items.length > 0 && <WorkflowRunsTable runs={items} caption={`Recent runs of ${workflow.name}`} />}
      <p>
        <Link href={`/workflows/runs?workflowId=${workflow.id}`}>All runs of this workflow →</Link>
      </p>
    </>
  );
}
