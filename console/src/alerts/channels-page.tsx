import type { AlertChannel, AlertChannelTestResult } from '@tickring/client';
import { useId, useState } from 'preact/hooks';
import { Empty, ErrorNotice, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { api } from '../lib/api';
import { useAction, useLoad } from '../lib/hooks';
import { AlertsAdminOnly, AlertsSection } from './alerts-section';
import { ChannelDialog } from './channel-dialog';
import { bodyText, CHANNEL_KINDS, channelTarget, secretText, testResultText } from './channel-form';

const TITLE = 'Alert channels';

/** Alert channels: where alerts go. List, create, edit, send a test message, delete. */
export function AlertChannelsPage() {
  return (
    <AlertsAdminOnly title={TITLE}>
      <AlertChannels />
    </AlertsAdminOnly>
  );
}

function AlertChannels() {
  const channels = useLoad(() => api().listAlertChannels(), 'alert-channels', 10_000);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AlertChannel | undefined>();
  const [deleting, setDeleting] = useState<AlertChannel | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const remove = useAction(async (channel: AlertChannel) => {
    await api().deleteAlertChannel({ path: { id: channel.id } });
    setDeleting(undefined);
    setDone(`Channel ${channel.name} deleted.`);
    channels.reload();
  });
  const items = [...(channels.data?.items ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <AlertsSection
      title={TITLE}
      actions={
        <button type="button" onClick={() => setCreating(true)}>
          New channel
        </button>
      }
    >
      <p class="alerts-status" role="status">
        {done}
      </p>
      <ErrorNotice error={channels.error} />
      {channels.data === undefined && channels.loading && <p aria-busy="true">Reading the channels…</p>}
      {channels.data && items.length === 0 && (
        <Empty title="No alert channels yet">
          <p>
            A channel is where alerts go: a webhook (your own body, signed with a secret), a Slack incoming
            webhook, or email through the alarm topic. Create one, then name it in a job’s alert channels; a
            job that names none uses its group’s.
          </p>
        </Empty>
      )}
      {items.length > 0 && (
        <ul class="alert-list">
          {items.map((channel) => (
            <ChannelCard
              key={channel.id}
              channel={channel}
              onEdit={() => setEditing(channel)}
              onDelete={() => {
                remove.setError(undefined);
                setDeleting(channel);
              }}
            />
          ))}
        </ul>
      )}
      {creating && (
        <ChannelDialog
          onClose={() => setCreating(false)}
          onSaved={(channel) => {
            setCreating(false);
            setDone(`Channel ${channel.name} created.`);
            channels.reload();
          }}
        />
      )}
      {editing && (
        <ChannelDialog
          channel={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(channel) => {
            setEditing(undefined);
            setDone(`Channel ${channel.name} saved.`);
            channels.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== undefined}
        title={`Delete channel ${deleting?.name ?? ''}?`}
        confirmLabel="Delete channel"
        danger
        busy={remove.busy}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && void remove.run(deleting)}
      >
        <p>
          Alerts routed to it from now on record a failed delivery naming it, and reach no one through it.
        </p>
        <ErrorNotice error={remove.error} title="Not deleted" />
      </ConfirmDialog>
    </AlertsSection>
  );
}

/**
 * A channel as a card: where it sends, its body and secret (set or not), and its actions; a test
 * message's answer (delivered, or the receiver's status and error) stays on the card.
 */
function ChannelCard({
  channel,
  onEdit,
  onDelete,
}: {
  channel: AlertChannel;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const titleId = useId();
  const body = bodyText(channel);
  const secret = secretText(channel);
  const [tested, setTested] = useState<AlertChannelTestResult | undefined>();
  const test = useAction(async () => {
    setTested(undefined);
    setTested(await api().testAlertChannel({ path: { id: channel.id } }));
  });
  return (
    <li>
      <article class="alert-card" aria-labelledby={titleId}>
        <header class="alert-card-head">
          <h2 id={titleId} class="alert-title">
            {channel.name}
          </h2>
          <span class="muted">{CHANNEL_KINDS[channel.kind].label}</span>
        </header>
        <dl class="facts alert-facts">
          <dt>Sends to</dt>
          <dd class={channel.kind === 'email' ? undefined : 'mono'}>{channelTarget(channel)}</dd>
          {body !== undefined && (
            <>
              <dt>Body</dt>
              <dd>{body}</dd>
            </>
          )}
          {secret !== undefined && (
            <>
              <dt>Signing secret</dt>
              <dd>{secret}</dd>
            </>
          )}
          <dt>Created</dt>
          <dd>
            <Time at={channel.createdAt} /> by {channel.createdBy}
          </dd>
          <dt>Id</dt>
          <dd class="mono">{channel.id}</dd>
        </dl>
        <p class="channel-test" role="status">
          {tested && (
            <>
              <span class={`badge ${tested.delivered ? 'status-success' : 'status-fail'}`}>
                {tested.delivered ? 'delivered' : 'not delivered'}
              </span>{' '}
              Test message <Time at={tested.at} />: {testResultText(tested)}
            </>
          )}
        </p>
        <ErrorNotice error={test.error} title="Test not sent" />
        <div class="card-actions">
          <button
            type="button"
            class="secondary small"
            aria-label={`Send test to ${channel.name}`}
            aria-busy={test.busy}
            disabled={test.busy}
            onClick={() => void test.run()}
          >
            Send test
          </button>
          <button type="button" class="secondary small" aria-label={`Edit ${channel.name}`} onClick={onEdit}>
            Edit
          </button>
          <button
            type="button"
            class="secondary small"
            aria-label={`Delete ${channel.name}`}
            onClick={onDelete}
          >
            Delete
          </button>
        </div>
      </article>
    </li>
  );
}
