import type { AuditRecord } from '@tickring/client';
import { Fragment } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader, Pager, Time } from '../components/common';
import { api, type ShownError } from '../lib/api';
import { isAdmin, useAuth } from '../lib/auth';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { exactTime, fromLocalInput, toLocalInput } from '../lib/format';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import {
  AUDIT_ACTIONS,
  type DiffRow,
  diffRows,
  fieldCount,
  type ShownValue,
  type TargetView,
  targetView,
} from '../people/audit-view';
import { useKnownGroups } from '../people/known-groups';
import '../people/people.css';

const FILTERS = ['target', 'actor', 'action', 'appName', 'from', 'to'] as const;
type FilterName = (typeof FILTERS)[number];
const PAGE_SIZE = 25;

/** The audit log: who changed what, when and from where, newest first; filters and pages in the URL. */
export function AuditPage() {
  const { me } = useAuth();
  const admin = isAdmin(me);
  const [filters, setFilters, clear] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const knownGroups = useKnownGroups();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  const query = {
    ...filters,
    limit: PAGE_SIZE,
    ...(cursor === undefined ? {} : { cursor }),
  };
  const page = useLoad(
    () => api().listAudit({ query }),
    JSON.stringify(query),
    // The newest page follows new changes; older pages stay as read.
    cursor === undefined ? 10_000 : undefined,
  );

  const filtered = FILTERS.some((name) => filters[name] !== undefined);
  const toggle = (recordId: string) =>
    setOpen((current) => {
      const nextSet = new Set(current);
      if (!nextSet.delete(recordId)) nextSet.add(recordId);
      return nextSet;
    });
  const items = page.data?.items ?? [];

  return (
    <>
      <PageHeader title="Audit log">
        {filtered && (
          <button type="button" class="secondary" onClick={clear}>
            Clear filters
          </button>
        )}
      </PageHeader>
      <p class="muted">
        Every accepted change, newest first: who made it, from where, and the fields before and after. A
        filter applies when you press Enter or leave its box.
        {!admin && ' You see the records of your groups.'}
      </p>

      <AuditFilters filters={filters} setFilters={setFilters} error={page.error} knownGroups={knownGroups} />

      <ErrorNotice error={unplacedError(page.error, FILTERS)} title="Audit log not read" />
      {page.data === undefined && page.loading && <p aria-busy="true">Loading the audit log…</p>}
      {page.data !== undefined && items.length === 0 && (
        <Empty
          title={
            page.data.nextCursor
              ? 'No records on this page'
              : filtered
                ? 'No change matches these filters'
                : 'No changes recorded yet'
          }
        >
          {page.data.nextCursor ? (
            <p>Older records may follow: go on with Older.</p>
          ) : filtered ? (
            <p>
              Widen the filters (without a From, the last 30 days are read), or{' '}
              <button type="button" class="link-button" onClick={clear}>
                clear them
              </button>
              .
            </p>
          ) : (
            <p>
              Changes made through the API or this console (jobs, groups, users, tokens; start, stop, trigger,
              kill) appear here. Without a From, the last 30 days are read.
            </p>
          )}
        </Empty>
      )}
      {items.length > 0 && (
        <div class="table-wrap">
          <table class="audit-table people-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col" class="hide-narrow">
                  Who
                </th>
                <th scope="col">Action</th>
                <th scope="col" class="hide-narrow">
                  Target
                </th>
                <th scope="col" class="hide-narrow">
                  Group
                </th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {items.map((record) => (
                <AuditRow
                  key={record.id}
                  record={record}
                  admin={admin}
                  expanded={open.has(record.id)}
                  onToggle={() => toggle(record.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager nextCursor={page.data?.nextCursor} onNext={next} onPrevious={previous} />
    </>
  );
}

function AuditFilters({
  filters,
  setFilters,
  error,
  knownGroups,
}: {
  filters: Partial<Record<FilterName, string>>;
  setFilters: (changes: Partial<Record<FilterName | 'cursor', string | undefined>>) => void;
  error: ShownError | undefined;
  knownGroups: readonly string[];
}) {
  const id = useId();
  return (
    <form
      class="filters"
      aria-label="Filter the audit log"
      onSubmit={(e) => {
        e.preventDefault();
        // Apply every box as typed.
        const data = new FormData(e.currentTarget as HTMLFormElement);
        const changes: Partial<Record<FilterName, string | undefined>> = {};
        for (const name of ['target', 'actor', 'action', 'appName'] as const) {
          changes[name] = String(data.get(name) ?? '').trim();
        }
        for (const name of ['from', 'to'] as const)
          changes[name] = fromLocalInput(String(data.get(name) ?? ''));
        setFilters(changes);
      }}
    >
      <FilterBox
        id={`${id}-target`}
        name="target"
        label="Target"
        placeholder="job#7"
        value={filters.target}
        problems={problemsFor(error, 'target')}
        onApply={(target) => setFilters({ target })}
      />
      <FilterBox
        id={`${id}-actor`}
        name="actor"
        label="Actor"
        placeholder="ana, token:ci"
        value={filters.actor}
        problems={problemsFor(error, 'actor')}
        onApply={(actor) => setFilters({ actor })}
      />
      <FilterBox
        id={`${id}-action`}
        name="action"
        label="Action"
        placeholder="job.*"
        list={`${id}-actions`}
        value={filters.action}
        problems={problemsFor(error, 'action')}
        onApply={(action) => setFilters({ action })}
      />
      <FilterBox
        id={`${id}-group`}
        name="appName"
        label="Group"
        placeholder="AppName"
        list={`${id}-groups`}
        value={filters.appName}
        problems={problemsFor(error, 'appName')}
        onApply={(appName) => setFilters({ appName })}
      />
      <FilterBox
        id={`${id}-from`}
        name="from"
        label="From"
        type="datetime-local"
        value={filters.from}
        problems={problemsFor(error, 'from')}
        onApply={(from) => setFilters({ from })}
      />
      <FilterBox
        id={`${id}-to`}
        name="to"
        label="To"
        type="datetime-local"
        value={filters.to}
        problems={problemsFor(error, 'to')}
        onApply={(to) => setFilters({ to })}
      />
      <datalist id={`${id}-actions`}>
        {AUDIT_ACTIONS.map((action) => (
          <option key={action} value={action} />
        ))}
      </datalist>
      <datalist id={`${id}-groups`}>
        {knownGroups.map((group) => (
          <option key={group} value={group} />
        ))}
      </datalist>
    </form>
  );
}

/**
 * One filter box: it shows the URL's value and applies what is typed when it is left or Enter is
 * pressed (not at every key). A time is typed in the viewer's zone and kept in the URL as an instant.
 */
function FilterBox({
  id,
  name,
  label,
  placeholder,
  list,
  type = 'search',
  value,
  problems,
  onApply,
}: {
  id: string;
  name: string;
  label: string;
  placeholder?: string;
  list?: string;
  type?: 'search' | 'datetime-local';
  value: string | undefined;
  problems: readonly string[];
  onApply: (value: string | undefined) => void;
}) {
  const shown = type === 'datetime-local' ? toLocalInput(value) : (value ?? '');
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const invalid = problems.length > 0;
  return (
    <div
      class={
        [type === 'datetime-local' ? 'time-filter' : '', invalid ? 'field invalid' : ''].join(' ').trim() ||
        undefined
      }
    >
      <label for={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        spellcheck={false}
        list={list}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onInput={(e) => setText((e.currentTarget as HTMLInputElement).value)}
        onChange={(e) => {
          const typed = (e.currentTarget as HTMLInputElement).value;
          onApply(type === 'datetime-local' ? fromLocalInput(typed) : typed.trim());
        }}
      />
      {invalid && (
        <small id={`${id}-error`} class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </div>
  );
}

function AuditRow({
  record,
  admin,
  expanded,
  onToggle,
}: {
  record: AuditRecord;
  admin: boolean;
  expanded: boolean;
  onToggle: () => void;
}) {
  const target = targetView(record.target, admin);
  const detailId = `audit-${record.id}`;
  const source = `${record.source.ip} · ${record.source.userAgent || 'no user agent'}`;
  const changed = Object.keys(record.changes).length;
  const toggleText = changed === 0 && record.detail !== null ? 'details' : fieldCount(record.changes);
  return (
    <Fragment>
      <tr>
        <td>
          <Time at={record.at} />
          <small class="only-narrow muted">
            by <span class="mono">{record.actor.name}</span>
          </small>
        </td>
        <td class="hide-narrow">
          <span class="mono" title={source}>
            {record.actor.name}
          </span>
          <br />
          <small class="muted">{record.source.ip}</small>
        </td>
        <td>
          <span class="mono">{record.action}</span>
          <span class="only-narrow target-cell">
            <TargetLink target={target} raw={record.target} />
          </span>
        </td>
        <td class="hide-narrow target-cell">
          <TargetLink target={target} raw={record.target} />
        </td>
        <td class="hide-narrow">
          {record.appName ? <span class="mono">{record.appName}</span> : <span class="muted">—</span>}
        </td>
        <td>
          <button
            type="button"
            class="secondary small expander"
            aria-expanded={expanded}
            aria-controls={expanded ? detailId : undefined}
            aria-label={`${expanded ? 'Hide' : 'Show'} ${toggleText} of ${record.action} on ${record.target}`}
            onClick={onToggle}
          >
            {expanded ? '▾' : '▸'} {toggleText}
          </button>
        </td>
      </tr>
      {expanded && (
        <tr class="audit-detail" id={detailId}>
          <td colSpan={6}>
            <AuditDetail record={record} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function TargetLink({ target, raw }: { target: TargetView; raw: string }) {
  return target.href ? (
    <Link href={target.href} class="mono">
      {raw}
    </Link>
  ) : (
    <span class="mono">{raw}</span>
  );
}

function AuditDetail({ record }: { record: AuditRecord }) {
  const rows = diffRows(record.changes as Record<string, { before?: unknown; after?: unknown }>);
  return (
    <div class="detail-grid">
      <div>
        <h2 class="detail-heading">Changed fields</h2>
        {rows.length === 0 ? (
          <p class="muted small-text">
            {record.detail === null
              ? 'No field of the target changed (for example, a job started while it was already running).'
              : 'No field of the target changed: what was done is in the detail below.'}
          </p>
        ) : (
          <DiffTable rows={rows} caption={`Fields of ${record.target} before and after ${record.action}`} />
        )}
        {record.detail !== null && (
          <>
            <h2 class="detail-heading">Detail</h2>
            <pre class="detail-json">{JSON.stringify(record.detail, null, 2)}</pre>
          </>
        )}
      </div>
      <div>
        <h2 class="detail-heading">Source</h2>
        <dl class="facts source small-text">
          <dt>When</dt>
          <dd>{exactTime(record.at)}</dd>
          <dt>Actor</dt>
          <dd>
            <span class="mono">{record.actor.name}</span> <span class="muted">({record.actor.kind})</span>
          </dd>
          <dt>Address</dt>
          <dd class="mono">{record.source.ip}</dd>
          <dt>User agent</dt>
          <dd>{record.source.userAgent || <span class="muted">none</span>}</dd>
          <dt>Request</dt>
          <dd class="mono">{record.requestId}</dd>
        </dl>
        <ul class="detail-links small-text">
          <li>
            <Link href={`/audit?target=${encodeURIComponent(record.target)}`}>
              Every change to {record.target}
            </Link>
          </li>
          <li>
            <Link href={`/audit?actor=${encodeURIComponent(record.actor.name)}`}>
              Every change by {record.actor.name}
            </Link>
          </li>
        </ul>
      </div>
    </div>
  );
}

function DiffTable({ rows, caption }: { rows: readonly DiffRow[]; caption: string }) {
  return (
    <table class="diff">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.field}>
            <th scope="row">{row.field}</th>
            <td>
              <Value value={row.before} />
            </td>
            <td>
              <Value value={row.after} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Value({ value }: { value: ShownValue }) {
  if (value.redacted) {
    return (
      <span class="redacted" title="A secret: the audit log never keeps it">
        [redacted]
      </span>
    );
  }
  if (value.absent) {
    return (
      <span class="blank" title="Not there">
        —
      </span>
    );
  }
  if (value.block) return <pre>{value.text}</pre>;
  return <span class={value.blank ? 'blank mono' : 'mono'}>{value.text}</span>;
}
