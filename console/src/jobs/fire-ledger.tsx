import type {
  Job,
  FireLedger as JobLedger,
  LedgerEntry,
  Workflow,
  WorkflowFireLedger,
  WorkflowLedgerEntry,
} from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Time } from '../components/common';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';

/** The windows offered: owed fires against what became of them, over the last hour or day. */
const WINDOWS = [
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { label: 'Last day', ms: 24 * 3_600_000 },
] as const;

type Outcome = LedgerEntry['outcome'];
/** A job's ledger or a workflow's (whose fires name the runs they started). */
type Ledger = JobLedger | WorkflowFireLedger;
type Entry = LedgerEntry | WorkflowLedgerEntry;

/** Each outcome's words and colour (the colour is never the only sign: the legend and the table name it). */
const OUTCOMES: Record<Outcome, { readonly label: string; readonly color: string }> = {
  ran: { label: 'ran', color: 'var(--tr-success)' },
  skipped: { label: 'skipped (a rule)', color: 'var(--tr-skipped)' },
  calendar: { label: 'not owed: calendar', color: 'var(--pico-muted-border-color)' },
  exception: { label: 'not owed: exception', color: 'var(--pico-muted-border-color)' },
  paused: { label: 'not owed: schedule stopped', color: 'var(--pico-muted-color)' },
  notYetDue: { label: 'not yet due', color: 'var(--tr-running)' },
  unexplained: { label: 'unexplained', color: 'var(--tr-fail)' },
};
const ORDER = Object.keys(OUTCOMES) as Outcome[];

/** The colour of a ran fire: by its run's status. */
function colorOf(entry: Entry): string {
  if (entry.outcome === 'ran' && entry.status === 'fail') return 'var(--tr-fail)';
  if (entry.outcome === 'ran' && entry.status === 'running') return 'var(--tr-running)';
  return OUTCOMES[entry.outcome].color;
}

/**
 * A job's fire ledger (GET /v1/jobs/{id}/ledger), or a workflow's (GET /v1/workflows/{id}/ledger):
 * every fire its schedule owed in the window, drawn on a time strip coloured by outcome, the counts
 * per outcome, and the fires that did not simply run (a workflow's: the run each started).
 */
export function FireLedger(props: { job: Job } | { workflow: Workflow }) {
  const [windowMs, setWindowMs] = useState<number>(WINDOWS[0].ms);
  // Rounded to the minute, so a re-render does not ask for a new window every time.
  const [now] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  const from = new Date(now - windowMs).toISOString();
  const to = new Date(now).toISOString();
  const query = { from, to };
  const subject = 'job' in props ? { kind: 'job', ...props.job } : { kind: 'workflow', ...props.workflow };
  const loaded = useLoad<Ledger>(
    () =>
      'job' in props
        ? api().getJobLedger({ path: { id: props.job.id }, query })
        : api().getWorkflowLedger({ path: { id: props.workflow.id }, query }),
    `ledger:${subject.kind}:${subject.id}:${from}:${to}`,
  );
  if (subject.scheduleType === 'NONE')
    return <p class="muted">This {subject.kind} has no schedule: it owes no fires.</p>;
  const ledger = loaded.data;
  return (
    <div aria-busy={loaded.loading && !ledger}>
      <fieldset aria-label="Window">
        {WINDOWS.map((w) => (
          <button
            key={w.ms}
            type="button"
            class={w.ms === windowMs ? '' : 'secondary outline'}
            aria-pressed={w.ms === windowMs}
            onClick={() => setWindowMs(w.ms)}
          >
            {w.label}
          </button>
        ))}
      </fieldset>
      <ErrorNotice error={loaded.error} title="Could not read the ledger" />
      {ledger && <LedgerBody ledger={ledger} />}
    </div>
  );
}

function LedgerBody({ ledger }: { ledger: Ledger }) {
  const { summary } = ledger;
  const owed = summary.ran + summary.skipped + summary.notYetDue + summary.unexplained;
  const entries: readonly Entry[] = ledger.entries;
  const notable = entries.filter((e) => e.outcome !== 'ran' || e.status === 'fail');
  return (
    <>
      <p>
        {owed} fire{owed === 1 ? '' : 's'} owed: {summary.ran} ran, {summary.skipped} skipped,{' '}
        <strong style={summary.unexplained > 0 ? { color: 'var(--tr-fail)' } : undefined}>
          {summary.unexplained} unexplained
        </strong>
        {summary.notYetDue > 0 && `, ${summary.notYetDue} not yet due`}.
        {ledger.definitionChangedInWindow && ' The schedule changed inside the window.'}
      </p>
      <LedgerStrip ledger={ledger} />
      <ul class="tl-legend" aria-label="Legend">
        {ORDER.filter((o) => summary[o] > 0).map((o) => (
          <li key={o}>
            <span
              aria-hidden="true"
              style={{
                display: 'inline-block',
                width: 12,
                height: 12,
                background: OUTCOMES[o].color,
                marginRight: 4,
              }}
            />
            {OUTCOMES[o].label} ({summary[o]})
          </li>
        ))}
      </ul>
      {notable.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section class="table-wrap" tabIndex={0} aria-label="The fires and their fate (scrolls)">
          <table class="striped">
            <thead>
              <tr>
                <th scope="col">Scheduled</th>
                <th scope="col">Fires</th>
                <th scope="col">Outcome</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {notable.slice(0, 100).map((e) => (
                <tr key={`${e.scheduledTime}:${e.outcome}`}>
                  <td>
                    <Time at={e.scheduledTime} />
                    {e.until && (
                      <>
                        {' – '}
                        <Time at={e.until} />
                      </>
                    )}
                  </td>
                  <td>{e.count}</td>
                  <td style={{ color: colorOf(e) }}>{OUTCOMES[e.outcome].label}</td>
                  <td>
                    <Why entry={e} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

function Why({ entry }: { entry: Entry }) {
  const run = entry.logId === null ? null : <Link href={`/runs/${entry.logId}`}>run {entry.logId}</Link>;
  // A workflow's fire: the workflow run it started (its schedule job's run beside it).
  const started =
    'runId' in entry && entry.runId ? (
      <Link href={`/workflows/runs/${entry.runId}`}>
        {entry.runId}
        {entry.runStatus ? ` (${entry.runStatus})` : ''}
      </Link>
    ) : null;
  switch (entry.outcome) {
    case 'ran':
      if ('runId' in entry && entry.runId === null) return <>not started: see {run}</>;
      return started ? (
        <>
          {started} failed, from {run}
        </>
      ) : (
        <>{run} failed</>
      );
    case 'skipped':
      return (
        <>
          {entry.rule} {run}
          {started && <>, caught up by {started}</>}
        </>
      );
    case 'calendar':
      return (
        <>
          {entry.calendar
            ? `${entry.calendar.calendarId}: ${entry.calendar.date} ${entry.calendar.label ?? ''}`
            : ''}
        </>
      );
    case 'exception':
      return (
        <>
          {entry.exception
            ? `${entry.exception.action} by ${entry.exception.by} ${entry.exception.reason ?? ''}`
            : ''}
        </>
      );
    case 'paused':
      return <>{entry.stoppedBy}</>;
    case 'unexplained':
      return run ? (
        <>{run} claimed it, and no workflow run came of it</>
      ) : (
        <>no run, skip, pause, calendar or exception explains it</>
      );
    default:
      return null;
  }
}

const STRIP_HEIGHT = 18;

/** The window as a strip: each entry a block from its first to its last fire, coloured by outcome. */
function LedgerStrip({ ledger }: { ledger: Ledger }) {
  const from = Date.parse(ledger.from);
  const span = Math.max(1, Date.parse(ledger.to) - from);
  const x = (iso: string) => ((Date.parse(iso) - from) / span) * 1000;
  return (
    <svg
      viewBox={`0 0 1000 ${STRIP_HEIGHT}`}
      preserveAspectRatio="none"
      style={{ width: '100%', height: STRIP_HEIGHT, display: 'block' }}
      role="img"
      aria-label={`Owed fires from ${ledger.from} to ${ledger.to}, by outcome`}
    >
      {(ledger.entries as readonly Entry[]).map((e) => {
        const start = x(e.scheduledTime);
        const width = Math.max(1.5, (e.until ? x(e.until) : start) - start);
        return (
          <rect
            key={`${e.scheduledTime}:${e.outcome}`}
            x={start}
            y={0}
            width={width}
            height={STRIP_HEIGHT}
            fill={colorOf(e)}
          >
            <title>
              {e.scheduledTime}
              {e.until ? ` – ${e.until}` : ''}: {OUTCOMES[e.outcome].label}
              {e.count > 1 ? ` (${e.count} fires)` : ''}
            </title>
          </rect>
        );
      })}
    </svg>
  );
}
