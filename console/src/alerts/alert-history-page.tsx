import type { Alert, AlertChannel, AlertSilence } from '@tickring/client';
import { useId } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, Pager, Time } from '../components/common';
import { FilterSelect } from '../components/filters';
import { api } from '../lib/api';
import { fromLocalInput, toLocalInput } from '../lib/format';
import { useCursor, useLoad, useUrlFilters } from '../lib/hooks';
import { isQuickRange, QUICK_RANGES } from '../runs/filters';
import { RunLink } from '../runs/run-cells';
import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  ALERT_STATE_NAMES,
  ALERT_STATES,
  alertListQuery,
  attemptText,
  deliveriesByChannel,
  deliveryView,
  groupingText,
  hasAlertFilters,
  isCounting,
} from './alert-history';
import { AlertsAdminOnly, AlertsSection } from './alerts-section';
import { CHANNEL_KINDS } from './channel-form';
import { silenceMatchText, silenceStatus, silenceTimeWords } from './silence-form';

const TITLE = 'Alert history';
const PAGE_SIZE = 25;
const FILTERS = ['jobId', 'kind', 'state', 'range', 'from', 'to'] as const;
const CUSTOM = 'custom';
const RANGE_CHOICES = [
  { value: '', label: 'Any time' },
  ...Object.entries(QUICK_RANGES).map(([value, { label }]) => ({ value, label })),
  { value: CUSTOM, label: 'Between…' },
];

/** The alert history, newest first: filtered by job, kind, state and time (in the URL), paged by cursor. */
export function AlertHistoryPage() {
  return (
    <AlertsAdminOnly title={TITLE}>
      <AlertHistory />
    </AlertsAdminOnly>
  );
}

function AlertHistory() {
  const [filters, setFilters, clearFilters] = useUrlFilters(FILTERS);
  const { cursor, next, previous } = useCursor();
  const alerts = useLoad(
    () =>
      api().listAlerts({
        query: { ...alertListQuery(filters), limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
    JSON.stringify({ ...filters, cursor }),
    // Only the first page moves (new alerts come on top, counts grow); older pages stay put.
    cursor === undefined ? 10_000 : undefined,
  );
  // Names for the deliveries' channels and the silences that matched.
  const channels = useLoad(() => api().listAlertChannels(), 'alert-channels', 30_000);
  const silences = useLoad(() => api().listAlertSilences(), 'alert-silences', 30_000);
  const rangeMode = isQuickRange(filters.range) ? filters.range : filters.from || filters.to ? CUSTOM : '';
  const items = alerts.data?.items ?? [];
  const filtered = hasAlertFilters(filters);
  const now = Date.now();

  return (
    <AlertsSection
      title={TITLE}
      actions={
        filtered && (
          <button type="button" class="secondary small" onClick={clearFilters}>
            Clear filters
          </button>
        )
      }
    >
      <search aria-label="Filter alerts">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <div>
            <label for="alerts-job">Job id</label>
            <input
              id="alerts-job"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="Any job"
              value={filters.jobId ?? ''}
              onChange={(e) => setFilters({ jobId: e.currentTarget.value.trim() })}
            />
          </div>
          <FilterSelect
            id="alerts-kind"
            label="Kind"
            any="Any kind"
            value={filters.kind}
            choices={ALERT_KINDS.map((k) => ({ value: k, label: ALERT_KIND_LABELS[k] }))}
            onChange={(kind) => setFilters({ kind })}
          />
          <FilterSelect
            id="alerts-state"
            label="State"
            any="Any state"
            value={filters.state}
            choices={ALERT_STATE_NAMES.map((s) => ({ value: s, label: ALERT_STATES[s].label }))}
            onChange={(state) => setFilters({ state })}
          />
          <FilterSelect
            id="alerts-range"
            label="First raised"
            value={rangeMode}
            choices={RANGE_CHOICES}
            onChange={(value) => {
              if (value === CUSTOM) {
                setFilters({
                  range: undefined,
                  from: new Date(Date.now() - 24 * 3600_000).toISOString(),
                  to: undefined,
                });
              } else setFilters({ range: value, from: undefined, to: undefined });
            }}
          />
          {rangeMode === CUSTOM && (
            <>
              <div>
                <label for="alerts-from">From (at or after)</label>
                <input
                  id="alerts-from"
                  type="datetime-local"
                  value={toLocalInput(filters.from)}
                  onChange={(e) => setFilters({ from: fromLocalInput(e.currentTarget.value) })}
                />
              </div>
              <div>
                <label for="alerts-to">To (before)</label>
                <input
                  id="alerts-to"
                  type="datetime-local"
                  value={toLocalInput(filters.to)}
                  onChange={(e) => setFilters({ to: fromLocalInput(e.currentTarget.value) })}
                />
              </div>
            </>
          )}
        </form>
      </search>
      <ErrorNotice error={alerts.error} />
      {alerts.data === undefined && alerts.loading && <p aria-busy="true">Reading the alerts…</p>}
      {alerts.data !== undefined && items.length === 0 && !alerts.data.nextCursor && (
        <Empty
          title={cursor ? 'No older alerts' : filtered ? 'No alerts match these filters' : 'No alerts yet'}
        >
          {cursor ? (
            <p>This is the end of the history.</p>
          ) : filtered ? (
            <p>Widen the filters (another kind or state, a longer time) or clear them.</p>
          ) : (
            <AboutAlerts />
          )}
        </Empty>
      )}
      {items.length === 0 && alerts.data?.nextCursor && (
        <p class="muted">No alerts on this page; older ones may follow.</p>
      )}
      {items.length > 0 && (
        <ul class="alert-list">
          {items.map((alert) => (
            <AlertCard
              key={alert.id}
              alert={alert}
              channels={channels.data?.items}
              silences={silences.data?.items}
              now={now}
            />
          ))}
        </ul>
      )}
      <Pager nextCursor={alerts.data?.nextCursor} onNext={next} onPrevious={previous} />
    </AlertsSection>
  );
}

/** What alerts are and how they reach someone: the empty history's explanation. */
function AboutAlerts() {
  return (
    <>
      <p>
        An alert is raised when a job’s run fails for good, its failure policy pauses it, it recovers, its
        deadline passes without a success, or fires it owed went missing. Repeats of the same job and kind
        within 10 minutes are counted into one alert, not sent again.
      </p>
      <p>
        To send them somewhere, create a <Link href="/alerts/channels">channel</Link> (a webhook, Slack or
        email) and name it in the job’s alert channels (<code>alertChannels</code> in the jobs API); a job
        that names none uses its group’s. Without one, alerts are recorded here as unrouted.
      </p>
    </>
  );
}

function AlertCard({
  alert,
  channels,
  silences,
  now,
}: {
  alert: Alert;
  channels: readonly AlertChannel[] | undefined;
  silences: readonly AlertSilence[] | undefined;
  now: number;
}) {
  const titleId = useId();
  const state = ALERT_STATES[alert.state];
  const jobName = alert.jobName || `Job ${alert.jobId}`;
  return (
    <li>
      <article class="alert-card" aria-labelledby={titleId}>
        <header class="alert-card-head">
          <h2 id={titleId} class="alert-title">
            {ALERT_KIND_LABELS[alert.kind]}: <Link href={`/jobs/${alert.jobId}`}>{jobName}</Link>
          </h2>
          <span class="muted small nowrap">
            #{alert.jobId} · {alert.appName}
          </span>
          <span class={`badge ${state.badge}`} title={state.meaning}>
            {state.label}
          </span>
        </header>
        <p class="alert-summary">{alert.summary}</p>
        <dl class="facts alert-facts">
          <dt>Raised</dt>
          <dd>
            <strong>{groupingText(alert)}</strong>: first <Time at={alert.firstAt} />
            {alert.count > 1 && (
              <>
                , last <Time at={alert.lastAt} />
              </>
            )}
            {isCounting(alert, now) && (
              <span class="muted">
                {' '}
                · counting repeats, its window closes <Time at={alert.windowEnd} />
              </span>
            )}
          </dd>
          {alert.logId !== undefined && (
            <>
              <dt>First run</dt>
              <dd>
                <RunLink logId={alert.logId} />
              </dd>
            </>
          )}
          {alert.workflow && (
            <>
              <dt>Workflow</dt>
              <dd>
                <Link href={`/workflows/${alert.workflow.id}`}>{alert.workflow.name}</Link>
                {alert.workflow.runId !== undefined && (
                  <>
                    : run{' '}
                    <Link href={`/workflows/runs/${encodeURIComponent(alert.workflow.runId)}`} class="mono">
                      {alert.workflow.runId}
                    </Link>
                  </>
                )}
              </dd>
            </>
          )}
          {alert.state === 'silenced' && (
            <>
              <dt>Silenced by</dt>
              <dd>
                <SilenceRef id={alert.silenceId} silences={silences} />
              </dd>
            </>
          )}
          {alert.state === 'unrouted' && (
            <>
              <dt>Not sent</dt>
              <dd>Neither the job nor its group names an alert channel.</dd>
            </>
          )}
        </dl>
        {alert.deliveries.length > 0 && <Deliveries alert={alert} channels={channels} />}
      </article>
    </li>
  );
}

function SilenceRef({
  id,
  silences,
}: {
  id: string | undefined;
  silences: readonly AlertSilence[] | undefined;
}) {
  const silence = silences?.find((s) => s.id === id);
  if (!silence) {
    return <span class="muted">a silence that has since been removed</span>;
  }
  return (
    <>
      <Link href="/alerts/silences">{silence.reason}</Link>{' '}
      <span class="muted small">
        ({silenceMatchText(silence)}, {silenceTimeWords(silenceStatus(silence)).end} <Time at={silence.to} />)
      </span>
    </>
  );
}

/** Each channel's messages of the alert: state, attempts, the last error and the next attempt. */
function Deliveries({ alert, channels }: { alert: Alert; channels: readonly AlertChannel[] | undefined }) {
  return (
    <ul class="alert-deliveries" aria-label="Deliveries">
      {deliveriesByChannel(alert.deliveries).map(({ channelId, deliveries }) => {
        const channel = channels?.find((c) => c.id === channelId);
        return (
          <li key={channelId}>
            <strong>{channel?.name ?? (channels ? 'Deleted channel' : 'Channel')}</strong>{' '}
            <span class="muted small">{channel ? CHANNEL_KINDS[channel.kind].label : channelId}</span>
            <ul>
              {deliveries.map((delivery) => {
                const view = deliveryView(delivery);
                return (
                  <li key={delivery.message}>
                    {view.message}: <span class={`badge ${view.badge}`}>{view.state}</span>{' '}
                    <span class="muted">{view.attempts}</span>
                    {view.lastError && (
                      <>
                        {' '}
                        · last error: <span class="delivery-error">{view.lastError}</span>
                      </>
                    )}
                    {view.nextAttemptAt && (
                      <>
                        {' '}
                        · next attempt <Time at={view.nextAttemptAt} />
                      </>
                    )}
                    {delivery.attempts.length > 0 && (
                      <details class="delivery-attempts">
                        <summary>Attempts</summary>
                        <ol>
                          {delivery.attempts.map((attempt) => (
                            <li key={attempt.at}>
                              <Time at={attempt.at} />: {attempt.ok ? 'taken' : 'failed'} (
                              {attemptText(attempt)})
                            </li>
                          ))}
                        </ol>
                      </details>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
