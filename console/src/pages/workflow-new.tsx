import { useMemo } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import { ErrorNotice, PageHeader } from '../components/common';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { viewerTimeZone } from '../lib/format';
import { useLoad } from '../lib/hooks';
import { definitionText, exampleDefinition } from '../workflows/definition';
import { DefinitionEditor } from '../workflows/definition-editor';

/** /workflows/new: the definition as JSON, prefilled with a small example over the group's first jobs. */
export function WorkflowNewPage() {
  const { me } = useAuth();
  const [, navigate] = useLocation();
  const search = useSearch();
  const asked = new URLSearchParams(search).get('appName') ?? '';
  const groups = useLoad(() => api().listGroups(), 'groups');
  const operated = (groups.data?.items ?? []).filter((g) => canOperate(me, g.appName));
  const appName = asked || operated[0]?.appName || '';
  const jobs = useLoad(
    () =>
      appName === ''
        ? Promise.resolve({ items: [], nextCursor: null })
        : api().listJobs({ query: { appName, limit: 10 } }),
    `example-jobs:${appName}`,
  );
  const jobIds = (jobs.data?.items ?? [])
    .filter((j) => j.executorHandler !== 'tickring.workflow')
    .map((j) => j.id);
  const initial = useMemo(
    () =>
      definitionText(exampleDefinition({ appName: appName || 'my-app', jobIds, timeZone: viewerTimeZone() })),
    [appName, jobIds.join(',')],
  );

  if (!canOperate(me)) {
    return (
      <>
        <PageHeader title="New workflow" />
        <div class="notice">
          You may not create workflows: your role ({me?.role}) operates no executor group.{' '}
          <Link href="/workflows">Back to the workflows</Link>
        </div>
      </>
    );
  }
  return (
    <>
      <PageHeader title="New workflow">
        <Link href="/workflows" role="button" class="secondary">
          Back to the workflows
        </Link>
      </PageHeader>
      <p>
        Start from the example: its nodes run jobs of {appName ? <strong>{appName}</strong> : 'a group'}
        {jobIds.length === 0 ? ' (replace the placeholder job ids with your jobs’)' : ''}. A workflow is
        created with its schedule off; turn it on from its page.
      </p>
      <ErrorNotice error={groups.error} title="The groups could not be read" />
      {(!groups.data && !groups.error) || (!jobs.data && !jobs.error) ? (
        <p aria-busy="true">Reading the group’s jobs…</p>
      ) : (
        <DefinitionEditor
          initial={initial}
          readOnly={false}
          alwaysPreview
          previewHeading="h2"
          submitLabel="Create workflow"
          send={(body) => api().createWorkflow({ body })}
          onSaved={(created) => navigate(`/workflows/${created.id}`)}
        />
      )}
    </>
  );
}
