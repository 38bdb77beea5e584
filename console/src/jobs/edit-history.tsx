import type { AuditRecord, Job } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Time } from '../components/common';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import { actionText, type ChangeRow, changeRows, triggeredLogIds, triggerOverrides } from './history';
import './jobs.css';

/** The audit log keeps a year by default; older changes are gone. */
const RETENTION_MS = 365 * 24 * 3600_000;

/** A job's changes from the audit log (listAudit with target job#id): who, when, what before → after. */
export function EditHistory({ job }: { job: Job }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const from = new Date(
    Math.max(Date.parse(job.createdAt) - 60_000, Date.now() - RETENTION_MS),
  ).toISOString();
  const page = useLoad(
    () =>
      api().listAudit({ query: { target: `job#${job.id}`, from, limit: 25, ...(cursor ? { cursor } : {}) } }),
    `audit:${job.id}:${job.version}:${cursor ?? ''}`,
  );

  if (page.error && (page.error.status === 403 || page.error.status === 401)) {
    return (
      <p class="muted" role="note">
        The edit history is hidden: you may not read the audit log of this job ({page.error.message}).
      </p>
    );
  }
  const records = page.data?.items ?? [];
  return (
    <div aria-busy={page.loading && !page.data}>
      <ErrorNotice error={page.error} />
      {page.data && records.length === 0 && (
        <p class="muted">No recorded changes (records are kept for a year).</p>
      )}
      <ol class="history">
        {records.map((record) => (
          <HistoryItem key={record.id} record={record} />
        ))}
      </ol>
      {(cursors.length > 0 || page.data?.nextCursor) && (
        <nav class="pager" aria-label="Edit history pages">
          <button
            type="button"
            class="secondary"
            disabled={cursors.length === 0}
            onClick={() => setCursors((c) => c.slice(0, -1))}
          >
            ← Newer changes
          </button>
          <button
            type="button"
            class="secondary"
            disabled={!page.data?.nextCursor}
            onClick={() => {
              const next = page.data?.nextCursor;
              if (next) setCursors((c) => [...c, next]);
            }}
          >
            Older changes →
          </button>
        </nav>
      )}
    </div>
  );
}

function HistoryItem({ record }: { record: AuditRecord }) {
  const rows = changeRows(record);
  const logIds = triggeredLogIds(record);
  const overrides = triggerOverrides(record);
  const table = rows.length > 0 && <ChangeTable rows={rows} creation={record.action === 'job.create'} />;
  return (
    <li>
      <div>
        <strong>{actionText(record.action)}</strong> by <span class="mono">{record.actor.name}</span>{' '}
        <Time at={record.at} />
        <span class="muted small hide-narrow"> · from {record.source.ip}</span>
      </div>
      {overrides && <div class="small muted">With {overrides}</div>}
      {logIds.length > 0 && (
        <div class="small">
          Run{logIds.length > 1 ? 's' : ''}:{' '}
          {logIds.map((logId, i) => (
            <span key={logId}>
              {i > 0 && ', '}
              <Link href={`/runs/${logId}`}>{logId}</Link>
            </span>
          ))}
        </div>
      )}
      {record.action === 'job.create' || record.action === 'job.delete' ? (
        table && (
          <details>
            <summary class="small">
              {rows.length} fields {record.action === 'job.create' ? 'at creation' : 'when deleted'}
            </summary>
            {table}
          </details>
        )
      ) : rows.length > 0 ? (
        table
      ) : record.action === 'job.update' ? (
        <div class="small muted">No field changed.</div>
      ) : null}
    </li>
  );
}

function ChangeTable({ rows, creation }: { rows: readonly ChangeRow[]; creation: boolean }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Field</th>
            {!creation && <th scope="col">Before</th>}
            <th scope="col">{creation ? 'Value' : 'After'}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.field}>
              <th scope="row">{row.label}</th>
              {!creation && <td class="change-value">{row.before ?? <span class="muted">—</span>}</td>}
              <td class="change-value">{row.after ?? <span class="muted">(removed)</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
