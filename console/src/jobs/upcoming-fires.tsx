import type { Job } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Empty, ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { exactTime, fromLocalInput } from '../lib/format';
import { useAction, useLoad } from '../lib/hooks';
import { exceptionText, moveWindow, type Occurrence, toLocalInputSeconds } from './occurrences';

/** How many upcoming fires the list shows. */
const UPCOMING = 10;

/** A change the user is about to make: skip or move one occurrence. */
type Change = { readonly kind: 'skip' | 'move'; readonly index: number };

/**
 * The job's next fires, each with its skip or move; for those who may operate the job, a Skip / Move
 * / Undo control on each fire still changeable (one planned already is too late).
 */
export function UpcomingFires({
  job,
  operate,
  onChanged,
}: {
  job: Job;
  operate: boolean;
  onChanged: () => void;
}) {
  const loaded = useLoad(
    () => api().listOccurrences({ path: { id: job.id }, query: { limit: UPCOMING } }),
    `occurrences:${job.id}:${job.version}`,
    15_000,
  );
  const [change, setChange] = useState<Change | undefined>();
  const restore = useAction(async (time: string) => {
    await api().restoreOccurrence({ path: { id: job.id, time } });
    loaded.reload();
    onChanged();
  });
  const occurrences = loaded.data?.occurrences ?? [];
  const zone = job.timeZone;
  const inZone = (iso: string) => exactTime(iso, zone);

  if (job.scheduleType === 'NONE') return <p class="muted">No schedule: the job runs only when triggered.</p>;
  if (!loaded.data) {
    return (
      <div aria-busy={loaded.loading}>
        <ErrorNotice error={loaded.error} title="The upcoming fires could not be read" />
      </div>
    );
  }
  return (
    <>
      <ErrorNotice error={loaded.error} title="Could not refresh the upcoming fires" />
      <ErrorNotice error={restore.error} title="Not undone" />
      {occurrences.length === 0 ? (
        <Empty title="No upcoming fires">
          <p>{job.triggerStatus === 'RUNNING' ? 'The schedule fires no more.' : 'Its schedule is off.'}</p>
        </Empty>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section class="table-wrap" tabIndex={0} aria-label="The upcoming fires (scrolls)">
          <table class="upcoming-fires">
            <caption class="muted">
              The next {occurrences.length} fires, in the job’s zone ({zone}). A skipped or moved fire keeps
              its scheduled time as its identity.
            </caption>
            <thead>
              <tr>
                <th scope="col">Scheduled</th>
                <th scope="col">Fires</th>
                {operate && <th scope="col">Change</th>}
              </tr>
            </thead>
            <tbody>
              {occurrences.map((occurrence, index) => (
                <tr
                  key={occurrence.time}
                  class={occurrence.exception ? `fire-${occurrence.exception.action}` : undefined}
                >
                  <td class="nowrap">
                    <time dateTime={occurrence.time}>{inZone(occurrence.time)}</time>
                  </td>
                  <td>
                    {occurrence.exception ? (
                      <span class="badge status-skipped">{exceptionText(occurrence.exception, inZone)}</span>
                    ) : occurrence.fireAt && occurrence.fireAt !== occurrence.time ? (
                      <>at {inZone(occurrence.fireAt)} (jitter)</>
                    ) : (
                      <span class="muted">as scheduled</span>
                    )}
                  </td>
                  {operate && (
                    <td class="nowrap">
                      <FireControls
                        occurrence={occurrence}
                        busy={restore.busy}
                        onSkip={() => setChange({ kind: 'skip', index })}
                        onMove={() => setChange({ kind: 'move', index })}
                        onUndo={() => void restore.run(occurrence.time)}
                        label={inZone(occurrence.time)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <ChangeDialog
        job={job}
        change={change}
        occurrences={occurrences}
        onClose={() => setChange(undefined)}
        onDone={() => {
          setChange(undefined);
          loaded.reload();
          onChanged();
        }}
      />
    </>
  );
}

function FireControls({
  occurrence,
  busy,
  label,
  onSkip,
  onMove,
  onUndo,
}: {
  occurrence: Occurrence;
  busy: boolean;
  label: string;
  onSkip: () => void;
  onMove: () => void;
  onUndo: () => void;
}) {
  if (!occurrence.changeable) return <span class="muted small">planned: too late to change</span>;
  if (occurrence.exception) {
    return (
      <button
        type="button"
        class="secondary small-button"
        disabled={busy}
        onClick={onUndo}
        aria-label={`Undo the change of the fire at ${label}`}
      >
        Undo
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        class="secondary small-button"
        onClick={onSkip}
        aria-label={`Skip the fire at ${label}`}
      >
        Skip
      </button>{' '}
      <button
        type="button"
        class="secondary small-button"
        onClick={onMove}
        aria-label={`Move the fire at ${label}`}
      >
        Move
      </button>
    </>
  );
}

const CHANGE_FIELDS = ['to', 'reason'] as const;

/** Skip or move one occurrence: the new time (a move), an optional reason; the server's problems by field. */
function ChangeDialog({
  job,
  change,
  occurrences,
  onClose,
  onDone,
}: {
  job: Job;
  change: Change | undefined;
  occurrences: readonly Occurrence[];
  onClose: () => void;
  onDone: () => void;
}) {
  const occurrence = change ? occurrences[change.index] : undefined;
  const inZone = (iso: string) => exactTime(iso, job.timeZone);
  return (
    <Dialog
      open={change !== undefined && occurrence !== undefined}
      title={change?.kind === 'move' ? 'Move one fire' : 'Skip one fire'}
      onClose={onClose}
    >
      {change && occurrence && (
        <ChangeForm
          job={job}
          change={change}
          occurrences={occurrences}
          inZone={inZone}
          onClose={onClose}
          onDone={onDone}
        />
      )}
    </Dialog>
  );
}

function ChangeForm({
  job,
  change,
  occurrences,
  inZone,
  onClose,
  onDone,
}: {
  job: Job;
  change: Change;
  occurrences: readonly Occurrence[];
  inZone: (iso: string) => string;
  onClose: () => void;
  onDone: () => void;
}) {
  const occurrence = occurrences[change.index]!;
  const allowed = moveWindow(occurrences, change.index);
  const [to, setTo] = useState(() => toLocalInputSeconds(occurrence.fireAt ?? occurrence.time));
  const [reason, setReason] = useState('');
  const action = useAction(async (movedTo: string | undefined) => {
    const time = occurrence.time;
    const why = reason.trim() === '' ? {} : { reason: reason.trim() };
    if (movedTo === undefined) await api().skipOccurrence({ path: { id: job.id, time }, body: why });
    else await api().moveOccurrence({ path: { id: job.id, time }, body: { to: movedTo, ...why } });
    onDone();
  });
  const submit = async (event: Event) => {
    event.preventDefault();
    if (change.kind === 'skip') return void (await action.run(undefined));
    const movedTo = fromLocalInput(to);
    if (movedTo === undefined) {
      action.setError({ message: 'Enter the time to move the fire to.', field: 'to', problems: [] });
      return;
    }
    await action.run(movedTo);
  };
  const formId = `occurrence-${change.kind}`;
  const toProblems = problemsFor(action.error, 'to');
  const reasonProblems = problemsFor(action.error, 'reason');
  const windowText = `after ${allowed.after ? inZone(allowed.after) : 'now'}${allowed.before ? ` and before ${inZone(allowed.before)}` : ''}`;
  return (
    <form id={formId} onSubmit={submit} noValidate>
      <p>
        The fire scheduled at <strong>{inZone(occurrence.time)}</strong>{' '}
        {change.kind === 'skip'
          ? 'does not run; the schedule goes on as it is.'
          : 'runs at the time below instead, keeping its scheduled time (its handler sees that one).'}
      </p>
      <ErrorNotice error={unplacedError(action.error, CHANGE_FIELDS)} title="Not changed" />
      {change.kind === 'move' && (
        <Field
          id="occurrence-to"
          label="Move to (your time zone)"
          help={`Between the fires before and after it: ${windowText}.`}
          problems={toProblems}
        >
          <input
            id="occurrence-to"
            type="datetime-local"
            step={1}
            required
            aria-describedby={`occurrence-to-help${toProblems.length > 0 ? ' occurrence-to-error' : ''}`}
            aria-invalid={toProblems.length > 0 ? true : undefined}
            value={to}
            onInput={(e) => setTo(e.currentTarget.value)}
          />
        </Field>
      )}
      <Field
        id="occurrence-reason"
        label="Reason (optional)"
        help="Kept with the change and in the audit log."
        problems={reasonProblems}
      >
        <input
          id="occurrence-reason"
          type="text"
          maxLength={500}
          aria-describedby={`occurrence-reason-help${reasonProblems.length > 0 ? ' occurrence-reason-error' : ''}`}
          aria-invalid={reasonProblems.length > 0 ? true : undefined}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </Field>
      <DialogButtons
        confirmLabel={change.kind === 'skip' ? 'Skip this fire' : 'Move this fire'}
        busy={action.busy}
        onCancel={onClose}
        form={formId}
      />
    </form>
  );
}
