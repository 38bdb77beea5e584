import type { WorkflowRunSummary } from '@tickring/client';
import { Link } from 'wouter-preact';
import { Time } from '../components/common';
import { duration } from '../lib/format';
import { WorkflowStatus } from './controls';
import { nodeCountsText, runDurationMs, triggerText } from './definition';

/** Workflow runs as a table: each run's status, nodes, trigger, times (the workflow column when asked). */
export function WorkflowRunsTable({
  runs,
  showWorkflow,
  caption,
}: {
  runs: readonly WorkflowRunSummary[];
  showWorkflow?: boolean;
  caption?: string;
}) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="striped">
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            {showWorkflow && <th scope="col">Workflow</th>}
            <th scope="col" class="hide-narrow">
              Nodes
            </th>
            <th scope="col" class="hide-narrow">
              Trigger
            </th>
            <th scope="col">Started</th>
            <th scope="col" class="num">
              Duration
            </th>
            <th scope="col" class="num hide-narrow">
              Version
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const ms = runDurationMs(run, now);
            return (
              <tr key={run.id}>
                <td>
                  <Link href={`/workflows/runs/${run.id}`} class="mono small">
                    {run.id}
                  </Link>
                </td>
                <td>
                  <WorkflowStatus status={run.status} />
                </td>
                {showWorkflow && (
                  <td>
                    <Link href={`/workflows/${run.workflowId}`}>{run.workflowName}</Link>{' '}
                    <span class="muted small nowrap">{run.appName}</span>
                  </td>
                )}
                <td class="hide-narrow small">
                  {nodeCountsText(run.nodeCounts)}
                  {run.failedNodes.length > 0 && (
                    <span class="muted"> (failed: {run.failedNodes.join(', ')})</span>
                  )}
                </td>
                <td class="hide-narrow small">{triggerText(run.trigger)}</td>
                <td class="nowrap">
                  {run.startedAt ? <Time at={run.startedAt} /> : <span class="muted">not yet</span>}
                </td>
                <td class="num nowrap">
                  {duration(ms)}
                  {ms !== undefined && !run.finishedAt && <span class="muted"> so far</span>}
                </td>
                <td class="num hide-narrow">{run.version}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
