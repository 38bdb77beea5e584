import type { AlertSilence, AlertSilenceCreate } from '@tickring/client';
import { useState } from 'preact/hooks';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { groupChoices } from '../components/filters';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction, useLoad } from '../lib/hooks';
import { ALERT_KIND_LABELS, ALERT_KINDS } from './alert-history';
import {
  lastingFor,
  newSilenceForm,
  SILENCE_REASON_MAX,
  type SilenceField,
  type SilenceForm,
  silenceRequest,
} from './silence-form';

const FORM_FIELDS: readonly SilenceField[] = ['body', 'jobId', 'appName', 'kind', 'from', 'to', 'reason'];
const FORM_ID = 'alert-silence-form';
const HOUR = 3600_000;
const LENGTHS = [
  { label: '1 hour', ms: HOUR },
  { label: '8 hours', ms: 8 * HOUR },
  { label: '1 day', ms: 24 * HOUR },
  { label: '1 week', ms: 7 * 24 * HOUR },
];

/**
 * A new silence in a dialog: what it matches (a job, a group, a kind: every one given), when it starts
 * and ends, and why. The form's checks and the API's 400 problems show beside their fields.
 */
export function SilenceDialog({
  onSaved,
  onClose,
}: {
  onSaved: (silence: AlertSilence) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<SilenceForm>(() => newSilenceForm());
  const groups = useLoad(() => api().listGroups(), 'groups');
  const save = useAction(async (body: AlertSilenceCreate) => {
    onSaved(await api().createAlertSilence({ body }));
  });
  const set = (changes: Partial<SilenceForm>) => setForm((f) => ({ ...f, ...changes }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const made = silenceRequest(form);
    if ('error' in made) return save.setError(made.error);
    await save.run(made.body);
  };
  const problems = (field: SilenceField) => problemsFor(save.error, field);
  const input = (field: keyof SilenceForm) => {
    const id = `silence-${field}`;
    const invalid = problems(field).length > 0;
    return {
      id,
      name: field,
      'aria-invalid': invalid ? true : undefined,
      'aria-describedby': [`${id}-help`, invalid ? `${id}-error` : ''].filter(Boolean).join(' '),
    };
  };
  const matchProblems = problems('body');

  return (
    <Dialog open title="New silence" onClose={onClose} banner class="alerts-dialog">
      <form id={FORM_ID} onSubmit={(e) => void submit(e)} noValidate>
        <ErrorNotice error={unplacedError(save.error, FORM_FIELDS)} title="Not created" />
        <fieldset
          class={`silence-match${matchProblems.length > 0 ? ' invalid' : ''}`}
          aria-describedby="silence-match-help"
        >
          <legend>Silence the alerts of</legend>
          <small id="silence-match-help" class="help">
            Every field given must match; leave the others at “any”.
          </small>
          <div class="grid">
            <Field id="silence-jobId" label="Job id" help="Empty: any job." problems={problems('jobId')}>
              <input
                {...input('jobId')}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={form.jobId}
                onInput={(e) => set({ jobId: e.currentTarget.value })}
              />
            </Field>
            <Field id="silence-appName" label="Group" help="Any job of it." problems={problems('appName')}>
              <select
                {...input('appName')}
                value={form.appName}
                onChange={(e) => set({ appName: e.currentTarget.value })}
              >
                <option value="">Any group</option>
                {groupChoices(groups.data?.items ?? [], form.appName || undefined).map((c) => {
                  const { value, label } = typeof c === 'string' ? { value: c, label: c } : c;
                  return (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  );
                })}
              </select>
            </Field>
            <Field id="silence-kind" label="Kind" help="Of alert." problems={problems('kind')}>
              <select
                {...input('kind')}
                value={form.kind}
                onChange={(e) => set({ kind: e.currentTarget.value })}
              >
                <option value="">Any kind</option>
                {ALERT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {ALERT_KIND_LABELS[kind]}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          {matchProblems.length > 0 && (
            <small class="field-error" role="alert">
              {matchProblems.join(' ')}
            </small>
          )}
        </fieldset>
        <div class="grid">
          <Field
            id="silence-from"
            label="From (your time zone)"
            help="Empty: now."
            problems={problems('from')}
          >
            <input
              {...input('from')}
              type="datetime-local"
              value={form.from}
              onInput={(e) => set({ from: e.currentTarget.value })}
            />
          </Field>
          <Field
            id="silence-to"
            label="Until (your time zone)"
            help="Alerts from then on are sent again."
            problems={problems('to')}
          >
            <input
              {...input('to')}
              type="datetime-local"
              value={form.to}
              required
              onInput={(e) => set({ to: e.currentTarget.value })}
            />
          </Field>
        </div>
        <fieldset class="silence-lengths">
          <legend class="muted small">Last for</legend>
          {LENGTHS.map((length) => (
            <button
              key={length.label}
              type="button"
              class="secondary small"
              onClick={() => setForm((f) => lastingFor(f, length.ms))}
            >
              {length.label}
            </button>
          ))}
        </fieldset>
        <Field
          id="silence-reason"
          label="Reason"
          help="Shown beside the silence and the alerts it silenced (a maintenance, a known outage)."
          problems={problems('reason')}
        >
          <input
            {...input('reason')}
            value={form.reason}
            required
            maxLength={SILENCE_REASON_MAX}
            autoComplete="off"
            onInput={(e) => set({ reason: e.currentTarget.value })}
          />
        </Field>
      </form>
      <DialogButtons confirmLabel="Create silence" busy={save.busy} form={FORM_ID} onCancel={onClose} />
    </Dialog>
  );
}
