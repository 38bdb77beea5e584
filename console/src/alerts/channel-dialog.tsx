import type { AlertChannel } from '@tickring/client';
import { useState } from 'preact/hooks';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api, type ShownError } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction } from '../lib/hooks';
import {
  CHANNEL_KIND_NAMES,
  CHANNEL_KINDS,
  CHANNEL_LIMITS,
  type ChannelField,
  type ChannelForm,
  channelFormOf,
  channelRequest,
  channelTarget,
  channelUpdateRequest,
  KIND_FIELDS,
  keepsUrl,
  newChannelForm,
} from './channel-form';

const FORM_FIELDS: readonly ChannelField[] = ['name', 'kind', 'url', 'bodyTemplate', 'secret'];
const FORM_ID = 'alert-channel-form';

/**
 * An alert channel in a dialog, new or edited: its name, its kind (fixed once created), and only that
 * kind's fields. An edit sends the fields changed with the revision read; its secret is kept unless a
 * new one is typed or signing is stopped. The form's own checks and the API's 400 problems show beside
 * their fields, anything else above them; a channel saved meanwhile (409) can be read again here.
 */
export function ChannelDialog({
  channel: opened,
  onSaved,
  onClose,
}: {
  /** The channel to edit; none: a new one. */
  channel?: AlertChannel;
  onSaved: (channel: AlertChannel) => void;
  onClose: () => void;
}) {
  // The channel as last read: a reload after a 409 replaces it (and the form).
  const [channel, setChannel] = useState(opened);
  const [form, setForm] = useState<ChannelForm>(() => (opened ? channelFormOf(opened) : newChannelForm()));
  const editing = channel !== undefined;
  const save = useAction(async (made: () => Promise<AlertChannel>) => onSaved(await made()));
  const reload = useAction(async (id: string) => {
    const fresh = (await api().listAlertChannels()).items.find((c) => c.id === id);
    if (!fresh) throw new Error('This channel was deleted meanwhile: close the dialog.');
    setChannel(fresh);
    setForm(channelFormOf(fresh));
    save.setError(undefined);
  });
  const set = (changes: Partial<ChannelForm>) => setForm((f) => ({ ...f, ...changes }));
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!channel) {
      const made = channelRequest(form);
      if ('error' in made) return save.setError(made.error);
      return void (await save.run(() => api().createAlertChannel({ body: made.body })));
    }
    const made = channelUpdateRequest(channel, form);
    if ('error' in made) return save.setError(made.error);
    if ('unchanged' in made) return onClose();
    await save.run(() => api().updateAlertChannel({ path: { id: channel.id }, body: made.body }));
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
  const urlKept = keepsUrl(channel);
  const signed = channel?.kind === 'webhook' && channel.signed;
  const stale = save.error?.status === 409;

  return (
    <Dialog
      open
      title={channel ? `Edit channel ${channel.name}` : 'New alert channel'}
      onClose={onClose}
      banner
      class="alerts-dialog"
    >
      <form id={FORM_ID} onSubmit={(e) => void submit(e)} noValidate>
        {stale && channel ? (
          <StaleNotice busy={reload.busy} error={reload.error} onReload={() => void reload.run(channel.id)} />
        ) : (
          <ErrorNotice
            error={unplacedError(save.error, FORM_FIELDS)}
            title={editing ? 'Not saved' : 'Not created'}
          />
        )}
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
                disabled={editing}
                onChange={() => set({ kind })}
              />
              {CHANNEL_KINDS[kind].label}
            </label>
          ))}
          <small id="channel-kind-help" class="help">
            {CHANNEL_KINDS[form.kind].help}
            {editing && ' A channel’s kind cannot change: create another channel for another kind.'}
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
                ? `From the Slack app’s Incoming Webhooks page. It is the webhook’s credential: the list shows only its host.${urlKept && channel ? ` Leave empty to keep the current one (${channelTarget(channel)}).` : ''}`
                : 'Where each alert is POSTed (http or https); 2xx counts as delivered, anything else is tried again twice.'
            }
            problems={problems('url')}
          >
            <input
              {...input('url')}
              type="url"
              inputMode="url"
              value={form.url}
              required={!urlKept}
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
            label={signed ? 'New signing secret' : 'Signing secret (optional)'}
            help={
              <>
                {signed && 'The channel signs its bodies: leave empty to keep its secret. '}
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
              value={form.stopSigning ? '' : form.secret}
              disabled={form.stopSigning}
              autoComplete="new-password"
              spellcheck={false}
              onInput={(e) => set({ secret: e.currentTarget.value })}
            />
          </Field>
        )}
        {shown.includes('secret') && signed && (
          <label class="field">
            <input
              type="checkbox"
              name="stopSigning"
              checked={form.stopSigning}
              onChange={(e) => set({ stopSigning: e.currentTarget.checked })}
            />
            Stop signing: remove the secret (bodies go unsigned)
          </label>
        )}
      </form>
      <DialogButtons
        confirmLabel={editing ? 'Save channel' : 'Create channel'}
        busy={save.busy}
        disabled={stale}
        form={FORM_ID}
        onCancel={onClose}
      />
    </Dialog>
  );
}

/** A save refused because the channel changed meanwhile: read it again (the form starts from it). */
function StaleNotice({
  busy,
  error,
  onReload,
}: {
  busy: boolean;
  error: ShownError | undefined;
  onReload: () => void;
}) {
  return (
    <div class="notice error" role="alert">
      <strong>Not saved: this channel changed meanwhile</strong> (someone saved it since you opened it).
      Reload it, then make your change again.{' '}
      <button type="button" class="secondary small" aria-busy={busy} disabled={busy} onClick={onReload}>
        Reload channel
      </button>
      {error && <p>{error.message}</p>}
    </div>
  );
}
