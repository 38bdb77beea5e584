import type { AlertChannel, AlertChannelCreate } from '@tickring/client';
import { useState } from 'preact/hooks';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction } from '../lib/hooks';
import {
  CHANNEL_KIND_NAMES,
  CHANNEL_KINDS,
  CHANNEL_LIMITS,
  type ChannelField,
  type ChannelForm,
  channelRequest,
  KIND_FIELDS,
  newChannelForm,
} from './channel-form';

const FORM_FIELDS: readonly ChannelField[] = ['name', 'kind', 'url', 'bodyTemplate', 'secret'];
const FORM_ID = 'alert-channel-form';

/**
 * A new alert channel in a dialog: its name, its kind, and only that kind's fields. The form's own
 * checks and the API's 400 problems show beside their fields, anything else above them.
 */
export function ChannelDialog({
  onSaved,
  onClose,
}: {
  onSaved: (channel: AlertChannel) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<ChannelForm>(newChannelForm);
  const save = useAction(async (body: AlertChannelCreate) => {
    onSaved(await api().createAlertChannel({ body }));
  });
  const set = (changes: Partial<ChannelForm>) => setForm((f) => ({ ...f, ...changes }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const made = channelRequest(form);
    if ('error' in made) return save.setError(made.error);
    await save.run(made.body);
  };
  const shown = KIND_FIELDS[form.kind];
  const problems = (field: ChannelField) => problemsFor(save.error, field);
  /** An input's common attributes: id, invalid state, and the help and problems that describe it. */
  const input = (field: ChannelField) => {
    const id = `channel-${field}`;
    const invalid = problems(field).length > 0;
    return {
      id,
      name: field,
      'aria-invalid': invalid ? true : undefined,
      'aria-describedby': [`${id}-help`, invalid ? `${id}-error` : ''].filter(Boolean).join(' '),
    };
  };

  return (
    <Dialog open title="New alert channel" onClose={onClose} banner class="alerts-dialog">
      <form id={FORM_ID} onSubmit={(e) => void submit(e)} noValidate>
        <ErrorNotice error={unplacedError(save.error, FORM_FIELDS)} title="Not created" />
        <Field
          id="channel-name"
          label="Name"
          help="For people: it names the channel in the history."
          problems={problems('name')}
        >
          <input
            {...input('name')}
            value={form.name}
            required
            maxLength={CHANNEL_LIMITS.name}
            autoComplete="off"
            onInput={(e) => set({ name: e.currentTarget.value })}
          />
        </Field>
        <fieldset class="field channel-kinds" aria-describedby="channel-kind-help">
          <legend>Kind</legend>
          {CHANNEL_KIND_NAMES.map((kind) => (
            <label key={kind}>
              <input
                type="radio"
                name="kind"
                value={kind}
                checked={form.kind === kind}
                onChange={() => set({ kind })}
              />
              {CHANNEL_KINDS[kind].label}
            </label>
          ))}
          <small id="channel-kind-help" class="help">
            {CHANNEL_KINDS[form.kind].help}
          </small>
          {problems('kind').length > 0 && (
            <small class="field-error" role="alert">
              {problems('kind').join(' ')}
            </small>
          )}
        </fieldset>
        {shown.includes('url') && (
          <Field
            id="channel-url"
            label={form.kind === 'slack' ? 'Incoming webhook URL' : 'URL'}
            help={
              form.kind === 'slack'
                ? 'From the Slack app’s Incoming Webhooks page. It is the webhook’s credential: the list shows only its host.'
                : 'Where each alert is POSTed (http or https); 2xx counts as delivered, anything else is tried again twice.'
            }
            problems={problems('url')}
          >
            <input
              {...input('url')}
              type="url"
              inputMode="url"
              value={form.url}
              required
              autoComplete="off"
              spellcheck={false}
              placeholder={
                form.kind === 'slack'
                  ? 'https://hooks.slack.com/services/…'
                  : 'https://hooks.example.com/tickring'
              }
              onInput={(e) => set({ url: e.currentTarget.value })}
            />
          </Field>
        )}
        {shown.includes('bodyTemplate') && (
          <Field
            id="channel-bodyTemplate"
            label="Body template (optional)"
            help={
              <>
                The body with <code>{'{{ path }}'}</code> placeholders over the alert: <code>text</code>,{' '}
                <code>alert.kind</code>, <code>alert.count</code>, <code>alert.firstAt</code>,{' '}
                <code>alert.summary</code>, <code>job.id</code>, <code>job.name</code>,{' '}
                <code>job.appName</code>. Empty: the alert as JSON.
              </>
            }
            problems={problems('bodyTemplate')}
          >
            <textarea
              {...input('bodyTemplate')}
              rows={4}
              class="mono"
              value={form.bodyTemplate}
              spellcheck={false}
              placeholder={'{"text": "{{ text }}", "job": {{ job.id }}}'}
              onInput={(e) => set({ bodyTemplate: e.currentTarget.value })}
            />
          </Field>
        )}
        {shown.includes('secret') && (
          <Field
            id="channel-secret"
            label="Signing secret (optional)"
            help={
              <>
                {CHANNEL_LIMITS.secretMin} to {CHANNEL_LIMITS.secretMax} characters. Each body is signed:{' '}
                <code>X-Tickring-Signature: t=&lt;unix s&gt;,v1=&lt;HMAC-SHA256 of "t.body"&gt;</code>. It is
                stored sealed and never shown again, not even here.
              </>
            }
            problems={problems('secret')}
          >
            <input
              {...input('secret')}
              type="password"
              value={form.secret}
              autoComplete="new-password"
              spellcheck={false}
              onInput={(e) => set({ secret: e.currentTarget.value })}
            />
          </Field>
        )}
      </form>
      <DialogButtons confirmLabel="Create channel" busy={save.busy} form={FORM_ID} onCancel={onClose} />
    </Dialog>
  );
}
