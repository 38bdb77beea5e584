import type { AlertSilence } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { api } from '../lib/api';
import { useAction, useLoad } from '../lib/hooks';
import { ALERT_KIND_LABELS } from './alert-history';
import { AlertsAdminOnly, AlertsSection } from './alerts-section';
import { SilenceDialog } from './silence-dialog';
import {
  SILENCE_STATUSES,
  type SilenceStatus,
  silenceMatchText,
  silenceStatus,
  silencesByStatus,
  silenceTimeWords,
} from './silence-form';

const TITLE = 'Alert silences';

const SECTIONS: Readonly<
  Record<SilenceStatus, { heading: string; end: string; question: string; endHelp: string }>
> = {
  active: {
    heading: 'Active',
    end: 'End now',
    question: 'End the silence now?',
    endHelp: 'Alerts it matches are sent again from now on.',
  },
  upcoming: {
    heading: 'Upcoming',
    end: 'Delete',
    question: 'Delete the upcoming silence?',
    endHelp: 'It will not start: alerts it would have matched are sent.',
  },
  ended: {
    heading: 'Ended',
    end: 'Remove',
    question: 'Remove the ended silence?',
    endHelp: 'It leaves this list. The alerts it silenced stay in the history.',
  },
};

/** Silences: active, upcoming and ended; create one, end one. */
export function AlertSilencesPage() {
  return (
    <AlertsAdminOnly title={TITLE}>
      <AlertSilences />
    </AlertsAdminOnly>
  );
}

function AlertSilences() {
  const silences = useLoad(() => api().listAlertSilences(), 'alert-silences', 10_000);
  const [creating, setCreating] = useState(false);
  const [ending, setEnding] = useState<AlertSilence | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const end = useAction(async (silence: AlertSilence) => {
    await api().deleteAlertSilence({ path: { id: silence.id } });
    setEnding(undefined);
    setDone(`Silence “${silence.reason}” ${silenceStatus(silence) === 'active' ? 'ended' : 'removed'}.`);
    silences.reload();
  });
  const now = Date.now();
  const groups = silencesByStatus(silences.data?.items ?? [], now);
  const endingSection = ending ? SECTIONS[silenceStatus(ending, now)] : undefined;

  return (
    <AlertsSection
      title={TITLE}
      actions={
        <button type="button" onClick={() => setCreating(true)}>
          New silence
        </button>
      }
    >
      <p class="alerts-status" role="status">
        {done}
      </p>
      <ErrorNotice error={silences.error} />
      {silences.data === undefined && silences.loading && <p aria-busy="true">Reading the silences…</p>}
      {silences.data && silences.data.items.length === 0 && (
        <Empty title="No silences">
          <p>
            A silence holds back the alerts of a job, a group or a kind for a while (a maintenance, a known
            outage): they are still recorded in the history, as silenced, and sent nowhere.
          </p>
        </Empty>
      )}
      {SILENCE_STATUSES.filter((status) => groups[status].length > 0).map((status) => (
        <section key={status} class="silence-group" aria-labelledby={`silences-${status}`}>
          <h2 id={`silences-${status}`}>
            {SECTIONS[status].heading} ({groups[status].length})
          </h2>
          <div class="table-wrap">
            <table class="alerts-table">
              <thead>
                <tr>
                  <th scope="col">Silence</th>
                  <th scope="col">When</th>
                  <th scope="col" class="hide-narrow">
                    Created by
                  </th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {groups[status].map((silence) => (
                  <tr key={silence.id}>
                    <td class="reason-cell">
                      <strong>{silence.reason}</strong>
                      <div class="small">
                        <SilenceMatch silence={silence} />
                      </div>
                    </td>
                    <td class="nowrap">
                      {silenceTimeWords(status).start} <Time at={silence.from} />
                      <br />
                      {silenceTimeWords(status).end} <Time at={silence.to} />
                    </td>
                    <td class="hide-narrow">
                      {silence.createdBy}
                      <div class="muted small">
                        <Time at={silence.createdAt} />
                      </div>
                    </td>
                    <td>
                      <div class="row-actions">
                        <button
                          type="button"
                          class="secondary small"
                          aria-label={`${SECTIONS[status].end}: ${silence.reason}`}
                          onClick={() => {
                            end.setError(undefined);
                            setEnding(silence);
                          }}
                        >
                          {SECTIONS[status].end}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
      {creating && (
        <SilenceDialog
          onClose={() => setCreating(false)}
          onSaved={(silence) => {
            setCreating(false);
            setDone(`Silence “${silence.reason}” created.`);
            silences.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={ending !== undefined}
        title={endingSection?.question ?? ''}
        confirmLabel={endingSection?.end ?? 'End'}
        busy={end.busy}
        onCancel={() => setEnding(undefined)}
        onConfirm={() => ending && void end.run(ending)}
      >
        <p>
          “{ending?.reason}” ({ending && silenceMatchText(ending)}). {endingSection?.endHelp}
        </p>
        <ErrorNotice error={end.error} title="Not done" />
      </ConfirmDialog>
    </AlertsSection>
  );
}

/** What a silence matches: its job as a link, its group and kind, the rest implied as “any”. */
function SilenceMatch({ silence }: { silence: AlertSilence }) {
  return (
    <span title={silenceMatchText(silence)}>
      {silence.jobId !== undefined && (
        <>
          <Link href={`/jobs/${silence.jobId}`}>job {silence.jobId}</Link>
          {(silence.appName !== undefined || silence.kind !== undefined) && ' · '}
        </>
      )}
      {silence.appName !== undefined && (
        <>
          group <span class="mono">{silence.appName}</span>
          {silence.kind !== undefined && ' · '}
        </>
      )}
      {silence.kind !== undefined && ALERT_KIND_LABELS[silence.kind]}
    </span>
  );
}
