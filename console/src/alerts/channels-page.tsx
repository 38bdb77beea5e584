import type { AlertChannel } from '@tickring/client';
import { useId, useState } from 'preact/hooks';
import { Empty, ErrorNotice, Time } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { api } from '../lib/api';
import { useAction, useLoad } from '../lib/hooks';
import { AlertsAdminOnly, AlertsSection } from './alerts-section';
import { ChannelDialog } from './channel-dialog';
import { bodyText, CHANNEL_KINDS, channelTarget, secretText } from './channel-form';

const TITLE = 'Alert channels';

/** Alert channels: where alerts go. List, create, delete (a channel's row has room for more actions). */
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

/** A channel as a card: where it sends, its body and secret (set or not), and its actions. */
function ChannelCard({ channel, onDelete }: { channel: AlertChannel; onDelete: () => void }) {
  const titleId = useId();
  const body = bodyText(channel);
  const secret = secretText(channel);
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
        {/* Edit and Send test join Delete here once the API has them. */}
        <div class="card-actions">
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
