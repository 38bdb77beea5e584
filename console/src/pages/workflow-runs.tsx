import { Link } from 'wouter-preact';
import type { Choice } from '../components/common';
import { Empty, ErrorNotice, PageHeader, Pager } from '../components/common';
import { FilterSelect } from '../components/filters';
import { api } from '../lib/api';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import { RUN_STATUSES, type RunStatus } from '../workflows/definition';
import { WorkflowRunsTable } from '../workflows/runs-table';

const FILTERS = ['workflowId', 'status'] as const;
const PAGE_SIZE = 50;

/** Workflow runs, newest first: filtered by workflow and status (in the URL), paged by cursor. */
export function WorkflowRunsPage() {
  const [filters, setFilters, clearFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const workflowId = /^\d{1,15}$/.test(filters.workflowId ?? '') ? Number(filters.workflowId) : undefined;
  const status = RUN_STATUSES.includes(filters.status as RunStatus)
    ? (filters.status as RunStatus)
    : undefined;
  const runs = useLoad(
    () =>
      api().listWorkflowRuns({
        query: {
          limit: PAGE_SIZE,
          ...(workflowId ? { workflowId } : {}),
          ...(status ? { status } : {}),
          ...(cursor ? { cursor } : {}),
        },
      }),
    JSON.stringify([workflowId, status, cursor]),
    cursor === undefined ? 5000 : undefined,
  );
  const workflows = useLoad(() => api().listWorkflows({ query: { limit: 100 } }), 'workflow-choices');
  const choices: Choice[] = (workflows.data?.items ?? []).map((w) => ({
    value: String(w.id),
    label: `${w.name} (#${w.id}, ${w.appName})`,
  }));
  if (filters.workflowId && !choices.some((c) => typeof c !== 'string' && c.value === filters.workflowId)) {
    choices.push({ value: filters.workflowId, label: `Workflow #${filters.workflowId}` });
  }
  const items = runs.data?.items ?? [];
  const filtered = Boolean(filters.workflowId || filters.status);

  return (
    <>
      <p class="small">
        <Link href="/workflows">← Workflows</Link>
      </p>
      <PageHeader title="Workflow runs">
        {filtered && (
          <button type="button" class="secondary small" onClick={clearFilters}>
            Clear filters
          </button>
        )}
      </PageHeader>
      <search aria-label="Filter workflow runs">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <FilterSelect
            id="wf-runs-workflow"
            label="Workflow"
            any="Any workflow"
            value={filters.workflowId}
            choices={choices}
            onChange={(value) => setFilters({ workflowId: value })}
          />
          <FilterSelect
            id="wf-runs-status"
            label="Status"
            any="Any status"
            value={filters.status}
            choices={RUN_STATUSES}
            onChange={(value) => setFilters({ status: value })}
          />
        </form>
      </search>
      <ErrorNotice error={runs.error} />
      {runs.data === undefined && runs.loading && <p aria-busy="true">Reading the runs…</p>}
      {runs.data && items.length === 0 && !runs.data.nextCursor && (
        <Empty
          title={cursor ? 'No older runs' : filtered ? 'No runs match these filters' : 'No workflow runs yet'}
        >
          <p>
            {cursor
              ? 'This is the end of the list.'
              : filtered
                ? 'Runs expire after a while; ended ones stay readable until then.'
                : 'Trigger a workflow, or turn its schedule on.'}
          </p>
        </Empty>
      )}
      {items.length === 0 && runs.data?.nextCursor && (
        <p class="muted">No runs on this page; older ones may follow.</p>
      )}
      {items.length > 0 && <WorkflowRunsTable runs={items} showWorkflow caption="Workflow runs" />}
      <Pager nextCursor={runs.data?.nextCursor} onNext={next} onPrevious={previous} />
    </>
  );
}
