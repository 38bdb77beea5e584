import type { Job, WorkflowRun, WorkflowRunNode } from '@tickring/client';
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, PageHeader } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { Fact, RelativeAndExactTime } from '../components/facts';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { duration } from '../lib/format';
import { useAction, useLoad, useUrlFilters } from '../lib/hooks';
import { NodeStatusLegend, WorkflowStatus } from '../workflows/controls';
import {
  CONDITION_WORDS,
  jsonText,
  NODE_STATUS_HELP,
  resultText,
  runDurationMs,
  runEnded,
  triggerText,
} from '../workflows/definition';
import { EdgeLegend, WorkflowGraph } from '../workflows/graph';
import { useJobs } from '../workflows/job-names';
import '../jobs/jobs.css';

/** A space kept after a box's hidden comma (its accessible name reads "B, Load, SUCCEEDED"). */
const NBSP = '\u00a0';

/** How often a run in progress is read again (while the tab is visible). */
const REFRESH_MS = 2000;

/** One workflow run: its graph coloured by the nodes' states, a node's details beside it, Retry and Cancel. */
export function WorkflowRunDetailPage({ params }: { params: { runId: string } }) {
  return <WorkflowRunDetail key={params.runId} runId={params.runId} />;
}

function WorkflowRunDetail({ runId }: { runId: string }) {
  const { me } = useAuth();
  const [live, setLive] = useState(true);
  const loaded = useLoad(
    () => api().getWorkflowRun({ path: { runId } }),
    `workflow-run:${runId}`,
    live ? REFRESH_MS : undefined,
  );
  const run = loaded.data;
  // Read again while it goes on, and while a node of an ended (cancelled) run has not finished yet.
  const moving = run ? !runEnded(run.status) || run.nodes.some((n) => n.status === 'RUNNING') : true;
  useEffect(() => setLive(moving), [moving]);
  const [filters, setFilters] = useUrlFilters(['node'] as const);
  const jobs = useJobs(run?.appName ?? '', run?.nodes.map((n) => n.jobId) ?? []);

  const [asking, setAsking] = useState<'retry' | 'cancel' | undefined>();
  const action = useAction(async (what: 'retry' | 'cancel') => {
    const path = { path: { runId } };
    if (what === 'retry') await api().retryWorkflowRun(path);
    else await api().cancelWorkflowRun(path);
  });
  const act = async (what: 'retry' | 'cancel') => {
    await action.run(what);
    setAsking(undefined);
    setLive(true);
    loaded.reload();
  };

  if (!run) {
    return (
      <>
        <PageHeader title={`Workflow run ${runId}`} />
        <ErrorNotice error={loaded.error} />
        {loaded.error ? (
          <p>
            <Link href="/workflows/runs">See all workflow runs</Link>
          </p>
        ) : (
          <p aria-busy="true">Reading the run…</p>
        )}
      </>
    );
  }

  const operate = canOperate(me, run.appName);
  const running = run.nodes.some((n) => n.status === 'RUNNING');
  const mayRetry = operate && (run.status === 'FAILED' || run.status === 'CANCELLED');
  const mayCancel = operate && (run.status === 'RUNNING' || run.status === 'QUEUED');
  const selected = run.nodes.find((n) => n.key === filters.node);

  return (
    <>
      <p class="small">
        <Link href={`/workflows/${run.workflowId}`}>← {run.workflowName}</Link>
        {' · '}
        <Link href={`/workflows/runs?workflowId=${run.workflowId}`}>its runs</Link>
      </p>
      <PageHeader
        title={
          <>
            Workflow run <span class="mono">{run.id}</span> <WorkflowStatus status={run.status} />
          </>
        }
      >
        {mayRetry && (
          <button type="button" class="secondary" onClick={() => setAsking('retry')}>
            Retry
          </button>
        )}
        {mayCancel && (
          <button type="button" class="danger" onClick={() => setAsking('cancel')}>
            Cancel run
          </button>
        )}
      </PageHeader>
      <ErrorNotice error={loaded.error} title="Could not refresh" />
      <ErrorNotice error={action.error} title="Refused" />
      {run.status === 'CANCELLED' && running && (
        <p class="notice" role="status">
          The run is cancelled; its running nodes’ job runs were killed and their outcomes are still being
          recorded.
        </p>
      )}

      <RunFacts run={run} />

      <section class="detail-section" aria-labelledby="wf-run-nodes-heading">
        <h2 id="wf-run-nodes-heading">Nodes</h2>
        <NodeStatusLegend />
        <EdgeLegend />
        <div class="wf-run-layout">
          <WorkflowGraph
            nodes={run.nodes}
            label={`The nodes of run ${run.id}, coloured by state`}
            renderNode={(node) => (
              <RunNode
                node={node}
                job={jobs.get(node.jobId)}
                selected={node.key === selected?.key}
                onSelect={() => setFilters({ node: node.key })}
              />
            )}
          />
          {selected ? (
            <NodePanel node={selected} job={jobs.get(selected.jobId)} />
          ) : (
            <p class="wf-panel muted">
              Select a node to see its job runs (and their logs), its result or why it did not run.
            </p>
          )}
        </div>
      </section>

      <ConfirmDialog
        open={asking === 'retry'}
        title={`Retry run ${run.id}?`}
        confirmLabel="Retry"
        busy={action.busy}
        onConfirm={() => void act('retry')}
        onCancel={() => setAsking(undefined)}
      >
        <p>
          The nodes whose failure was not handled
          {run.failedNodes.length > 0 ? ` (${run.failedNodes.join(', ')})` : ''}, the cancelled ones and those
          skipped because of them run again, each as a new attempt. Succeeded nodes keep their results.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'cancel'}
        title={`Cancel run ${run.id}?`}
        confirmLabel="Cancel run"
        danger
        busy={action.busy}
        onConfirm={() => void act('cancel')}
        onCancel={() => setAsking(undefined)}
      >
        <p>
          Nothing more of the run is fired: its pending nodes are cancelled and the job runs of its running
          nodes are killed. It can be retried afterwards.
        </p>
      </ConfirmDialog>
    </>
  );
}

function RunFacts({ run }: { run: WorkflowRun }) {
  const input = jsonText(run.input);
  const ms = runDurationMs(run);
  return (
    <section aria-label="Facts" class="grid">
      <dl class="facts">
        <Fact term="Workflow">
          <Link href={`/workflows/${run.workflowId}`}>{run.workflowName}</Link>{' '}
          <span class="muted small">
            #{run.workflowId}, version {run.version}
          </span>
        </Fact>
        <Fact term="Group">
          <span class="mono">{run.appName}</span>
        </Fact>
        <Fact term="Status">
          <WorkflowStatus status={run.status} />
          {run.failedNodes.length > 0 && <> failed nodes: {run.failedNodes.join(', ')}</>}
        </Fact>
        <Fact term="Trigger">
          {triggerText(run.trigger)}
          {run.trigger.starterLogId !== null && (
            <>
              {' '}
              (<Link href={`/runs/${run.trigger.starterLogId}`}>schedule run {run.trigger.starterLogId}</Link>
              )
            </>
          )}
        </Fact>
        <Fact term="Input">
          {input === '{}' || input === '' ? (
            <span class="muted">none</span>
          ) : (
            <pre class="log-view">{input}</pre>
          )}
        </Fact>
      </dl>
      <dl class="facts">
        <Fact term="Created">
          <RelativeAndExactTime at={run.createdAt} />
        </Fact>
        <Fact term="Started">
          <RelativeAndExactTime at={run.startedAt} />
        </Fact>
        <Fact term="Finished">
          <RelativeAndExactTime at={run.finishedAt} />
        </Fact>
        <Fact term="Duration">
          {duration(ms)}
          {ms !== undefined && !run.finishedAt && <span class="muted"> so far</span>}
        </Fact>
      </dl>
    </section>
  );
}

/** A node's box in the run's graph: a button selecting it; its state in words, on its colour. */
function RunNode({
  node,
  job,
  selected,
  onSelect,
}: {
  node: WorkflowRunNode;
  job: Job | undefined;
  selected: boolean;
  onSelect: () => void;
}) {
  const name = job?.name ?? `Job #${node.jobId}`;
  return (
    <button
      type="button"
      class={`wf-node ${node.status}`}
      aria-pressed={selected}
      title={NODE_STATUS_HELP[node.status]}
      onClick={onSelect}
    >
      {/* Read as "B, Load the files, SUCCEEDED": the commas only for screen readers. */}
      <span class="wf-node-key">
        {node.key}
        <span class="visually-hidden">,{NBSP}</span>
      </span>
      <span class="wf-node-job">
        {name}
        <span class="visually-hidden">,{NBSP}</span>
      </span>
      <span class="wf-node-state">
        <span class={`badge wf-status-${node.status}`}>{node.status}</span>
        {node.attempt > 1 && <span class="muted">attempt {node.attempt}</span>}
      </span>
    </button>
  );
}

/** The selected node: its state, attempt, times, reason, result and job runs (links to their logs). */
function NodePanel({ node, job }: { node: WorkflowRunNode; job: Job | undefined }) {
  const result = resultText(node);
  return (
    <section class="wf-panel" aria-labelledby="wf-panel-heading">
      <h2 id="wf-panel-heading">
        Node <span class="mono">{node.key}</span>
      </h2>
      <dl class="facts">
        <Fact term="Status">
          <WorkflowStatus status={node.status} />{' '}
          <span class="muted small">{NODE_STATUS_HELP[node.status]}</span>
        </Fact>
        <Fact term="Job">
          <Link href={`/jobs/${node.jobId}`}>{job?.name ?? `Job #${node.jobId}`}</Link>{' '}
          <span class="muted small">#{node.jobId}</span>
        </Fact>
        <Fact term="Attempt">{node.attempt === 0 ? 'not fired yet' : node.attempt}</Fact>
        <Fact term="Fired">
          <RelativeAndExactTime at={node.firedAt} />
        </Fact>
        <Fact term="Finished">
          <RelativeAndExactTime at={node.finishedAt} />
        </Fact>
        <Fact term="After">
          {node.upstream.length === 0
            ? 'a root: runs first'
            : node.upstream.map((e) => `${e.key} ${CONDITION_WORDS[e.condition]}`).join(', ')}
        </Fact>
        {node.reason && <Fact term="Reason">{node.reason}</Fact>}
        <Fact term={node.logIds.length > 1 ? 'Job runs (shards)' : 'Job run'}>
          {node.logIds.length === 0 ? (
            <span class="muted">none yet</span>
          ) : (
            <ul>
              {node.logIds.map((logId) => (
                <li key={logId}>
                  <Link href={`/runs/${logId}`}>Run {logId}</Link> <span class="muted small">(its log)</span>
                </li>
              ))}
            </ul>
          )}
        </Fact>
      </dl>
      <h3 class="subheading">Result</h3>
      {result === undefined ? (
        <p class="muted">{node.status === 'RUNNING' || node.status === 'PENDING' ? 'Not yet.' : 'None.'}</p>
      ) : (
        <pre class="log-view">{result}</pre>
      )}
    </section>
  );
}
