import type { Group } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { api, describeError, type ShownError } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { useAction, useLoad } from '../lib/hooks';
import {
  addressKey,
  cappedCount,
  type ExecutorInfo,
  executorCounts,
  type GroupView,
  joinGroups,
  type RefusedInfo,
  refusedText,
  runsByAddress,
} from '../runs/executors';
import { GroupDialog } from '../runs/group-dialog';
import { RefusedRegistrations } from '../runs/refused-registrations';
import { StartExecutorHelp } from '../runs/start-executor-help';

/** Running runs read per group (one page): more than this shows as "100+". */
const RUNNING_PAGE = 100;
/** Running runs counted: those triggered within this long (the monitors end lost runs long before). */
const RUNNING_WITHIN_MS = 6 * 3600_000;

interface RunningNow {
  readonly byAddress: Map<string, number>;
  readonly total: number;
  readonly capped: boolean;
  readonly error?: ShownError;
}

interface ExecutorsData {
  readonly groups: GroupView[];
  readonly rawGroups: Map<string, Group>;
  readonly refused: readonly RefusedInfo[];
}

async function loadGroups(): Promise<ExecutorsData> {
  const [groups, executors] = await Promise.all([api().listGroups(), api().listExecutors()]);
  return {
    groups: joinGroups(groups.items, executors.items),
    rawGroups: new Map(groups.items.map((g) => [g.appName, g])),
    refused: executors.refused,
  };
}

/** The running runs of each group, counted per executor address (read apart: it can take a while). */
async function loadRunning(appNames: readonly string[]): Promise<Map<string, RunningNow>> {
  const running = new Map<string, RunningNow>();
  // Bounded in time: an unbounded status filter reads back through every hour of the group's runs.
  const from = new Date(Date.now() - RUNNING_WITHIN_MS).toISOString();
  await Promise.all(
    appNames.map(async (appName) => {
      try {
        const page = await api().listRuns({
          query: { appName, status: 'running', from, limit: RUNNING_PAGE },
        });
        running.set(appName, {
          byAddress: runsByAddress(page.items),
          total: page.items.length,
          capped: page.nextCursor !== null,
        });
      } catch (err) {
        running.set(appName, { byAddress: new Map(), total: 0, capped: false, error: describeError(err) });
      }
    }),
  );
  return running;
}

/** Executor groups, their executors online or not, and the runs each has now; admins manage the groups. */
export function ExecutorsPage() {
  const { me } = useAuth();
  const admin = isAdmin(me);
  const data = useLoad(loadGroups, 'executors', 10_000);
  const appNames = (data.data?.groups ?? []).map((g) => g.appName);
  const running = useLoad(() => loadRunning(appNames), `running:${appNames.join(',')}`, 10_000);
  const [editing, setEditing] = useState<{ group: Group | undefined } | undefined>();
  const [deleting, setDeleting] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const removal = useAction(async (appName: string) => {
    await api().deleteGroup({ path: { appName } });
    setNotice(`Group ${appName} was deleted.`);
    data.reload();
  });
  const remove = async (appName: string) => {
    await removal.run(appName);
    setDeleting(undefined);
  };

  const groups = data.data?.groups ?? [];
  const counts = executorCounts(groups);
  return (
    <>
      <PageHeader title="Executors">
        {admin && (
          <button type="button" class="small" onClick={() => setEditing({ group: undefined })}>
            New group
          </button>
        )}
      </PageHeader>
      {data.data && groups.length > 0 && (
        <p class="muted">
          {groups.length === 1 ? '1 group' : `${groups.length} groups`}: {counts.online} online,{' '}
          {counts.offline} offline
          {counts.unknown > 0 && `, ${counts.unknown} not registering (MANUAL)`}. Running now: runs triggered
          in the last 6 hours that have no result yet.
        </p>
      )}
      {notice && (
        <div class="notice" role="status">
          {notice}
        </div>
      )}
      <ErrorNotice error={data.error} />
      <ErrorNotice error={removal.error} title="Not deleted" />
      {data.data === undefined && data.loading && <p aria-busy="true">Loading executors…</p>}
      {data.data && <RefusedRegistrations refused={data.data.refused} />}
      {data.data && groups.length === 0 && (
        <Empty title="No executor groups yet">
          <StartExecutorHelp onExecutorsPage />
        </Empty>
      )}
      {groups.map((group) => (
        <GroupCard
          key={group.appName}
          group={group}
          running={running.data?.get(group.appName)}
          admin={admin}
          onEdit={() => setEditing({ group: data.data?.rawGroups.get(group.appName) })}
          onDelete={() => setDeleting(group.appName)}
        />
      ))}
      {editing && (
        <GroupDialog
          group={editing.group}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined);
            setNotice(`Group ${saved.appName} was ${editing.group ? 'saved' : 'created'}.`);
            data.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={`Delete group ${deleting ?? ''}?`}
        confirmLabel="Delete group"
        danger
        busy={removal.busy}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          The group and its registrations go. A group that still has jobs cannot be deleted: move or delete
          its jobs first.
        </p>
      </ConfirmDialog>
    </>
  );
}

function GroupCard({
  group,
  running,
  admin,
  onEdit,
  onDelete,
}: {
  group: GroupView;
  running: RunningNow | undefined;
  admin: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const headingId = `group-${group.appName.replace(/[^\w-]/g, '_')}`;
  const known = new Set(group.executors.map((e) => addressKey(e.address)));
  const elsewhere = running
    ? [...running.byAddress.entries()].filter(([key]) => !known.has(key)).reduce((n, [, c]) => n + c, 0)
    : 0;
  return (
    <article aria-labelledby={headingId}>
      <header class="page-header">
        <div>
          <h2 id={headingId} style={{ fontSize: '1.25rem', marginBottom: '0.25rem' }}>
            {group.title}
          </h2>
          <span class="mono">{group.appName}</span> · <span class="badge">{group.addressType}</span>
          {group.refusedRegistrations > 0 && (
            <>
              {' '}
              · <a href="#refused-heading">{refusedText(group.refusedRegistrations)}</a>
            </>
          )}
          {running && running.total > 0 && (
            <>
              {' '}
              ·{' '}
              <Link href={`/runs?status=running&range=24h&appName=${encodeURIComponent(group.appName)}`}>
                {cappedCount(running.total, running.capped)} running
              </Link>
            </>
          )}
        </div>
        {admin && (
          <div class="actions">
            <button
              type="button"
              class="secondary small"
              onClick={onEdit}
              aria-label={`Edit group ${group.appName}`}
            >
              Edit
            </button>
            <button
              type="button"
              class="secondary small"
              onClick={onDelete}
              aria-label={`Delete group ${group.appName}`}
            >
              Delete
            </button>
          </div>
        )}
      </header>
      <ErrorNotice error={running?.error} title="Running runs not read" />
      {group.executors.length === 0 ? (
        <p class="muted">
          {group.addressType === 'AUTO' ? (
            <>
              No executor is registered under <code>{group.appName}</code>: start one with this AppName (it
              shows here within seconds of its first heartbeat).
            </>
          ) : (
            'No addresses: edit the group to list its executors.'
          )}
        </p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Running now
                </th>
              </tr>
            </thead>
            <tbody>
              {group.executors.map((executor) => (
                <ExecutorRow key={executor.address} executor={executor} running={running} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {elsewhere > 0 && (
        <p class="muted small">
          {elsewhere} running {elsewhere === 1 ? 'run is' : 'runs are'} on addresses no longer listed here.
        </p>
      )}
      {running?.capped && (
        <p class="muted small">Counted from {RUNNING_PAGE} running runs of the group; there are more.</p>
      )}
    </article>
  );
}

function ExecutorRow({ executor, running }: { executor: ExecutorInfo; running: RunningNow | undefined }) {
  const count = running?.byAddress.get(addressKey(executor.address)) ?? 0;
  return (
    <tr>
      <td class="mono">
        <BreakableAddress address={executor.address} />
      </td>
      <td>
        {executor.online === true && <span class="badge online">online</span>}
        {executor.online === false && <span class="badge offline">offline</span>}
        {executor.online === null && (
          <span class="badge" title="A MANUAL address that does not register: its state is not known">
            not registering
          </span>
        )}{' '}
        <div class="small">
          {executor.lastHeartbeat ? (
            <>
              <span class="muted">heartbeat</span> <Time at={executor.lastHeartbeat} />
            </>
          ) : (
            <span class="muted">no heartbeat kept</span>
          )}
        </div>
      </td>
      <td class="num">
        {running ? cappedCount(count, running.capped && count > 0) : <span class="muted">counting…</span>}
      </td>
    </tr>
  );
}

/** An address that may wrap after its scheme and before its port (narrow screens), never inside a host. */
function BreakableAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=:\/\/)|(?=:\d)|(?<=\d)(?=\/)/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && <wbr />}
          {part}
        </span>
      ))}
    </>
  );
}
