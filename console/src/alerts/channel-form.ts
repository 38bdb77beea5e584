// The alert channel form: which fields each kind has, the checks the API makes (so most problems
// show before asking), the create body with the chosen kind's fields only, and a channel's target and
// secret in words (a secret is write-only: never shown, only whether one is set). Pure.

import type { AlertChannel, AlertChannelCreate } from '@tickring/client';
import type { ShownError } from '../lib/api';

export type ChannelKind = AlertChannel['kind'];

/** Every kind the API takes, with what it does (a Record: a new kind fails the build until described). */
export const CHANNEL_KINDS: Readonly<Record<ChannelKind, { readonly label: string; readonly help: string }>> =
  {
    webhook: {
      label: 'Webhook',
      help: 'POSTs the alert as JSON, or a body of your own, to a URL; signed with HMAC-SHA256 when it has a secret.',
    },
    slack: {
      label: 'Slack',
      help: 'A Slack (or Slack-compatible) incoming webhook: a message naming the alert, its job and count.',
    },
    email: {
      label: 'Email',
      help: 'Published on the deployment’s alarm topic (SNS): its email subscribers get it. A single box writes it to its log.',
    },
  };
export const CHANNEL_KIND_NAMES = Object.keys(CHANNEL_KINDS) as ChannelKind[];

/** The server's limits (ALERT_CHANNEL_LIMITS), checked before asking and named in the help. */
export const CHANNEL_LIMITS = {
  name: 100,
  url: 2048,
  bodyTemplate: 16 * 1024,
  secretMin: 16,
  secretMax: 256,
} as const;

/** What the form's inputs hold, every kind's fields (switching kind keeps what was typed). */
export interface ChannelForm {
  name: string;
  kind: ChannelKind;
  url: string;
  bodyTemplate: string;
  secret: string;
}
export type ChannelField = keyof ChannelForm;

/** The fields a kind shows besides its name and kind. */
export const KIND_FIELDS: Readonly<Record<ChannelKind, readonly ChannelField[]>> = {
  webhook: ['url', 'bodyTemplate', 'secret'],
  slack: ['url'],
  email: [],
};

export function newChannelForm(): ChannelForm {
  return { name: '', kind: 'webhook', url: '', bodyTemplate: '', secret: '' };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The form as a create body (the chosen kind's fields only; an empty optional one left out), or every
 * problem the API would answer, in its error shape so they show beside their fields the same way. A
 * body template's syntax is the server's to check (its 400 names the place).
 */
export function channelRequest(form: ChannelForm): { body: AlertChannelCreate } | { error: ShownError } {
  const problems: { field: ChannelField; message: string }[] = [];
  const name = form.name.trim();
  if (name === '' || name.length > CHANNEL_LIMITS.name) {
    problems.push({ field: 'name', message: `Enter a name of 1 to ${CHANNEL_LIMITS.name} characters.` });
  }
  const fields = KIND_FIELDS[form.kind];
  const url = form.url.trim();
  if (fields.includes('url')) {
    if (url === '')
      problems.push({ field: 'url', message: `A ${CHANNEL_KINDS[form.kind].label} channel needs a URL.` });
    else if (url.length > CHANNEL_LIMITS.url || !isHttpUrl(url)) {
      problems.push({
        field: 'url',
        message: `Enter an http(s) URL of at most ${CHANNEL_LIMITS.url} characters.`,
      });
    }
  }
  const bodyTemplate =
    fields.includes('bodyTemplate') && form.bodyTemplate.trim() !== '' ? form.bodyTemplate : '';
  if (bodyTemplate.length > CHANNEL_LIMITS.bodyTemplate) {
    problems.push({
      field: 'bodyTemplate',
      message: `The body template is ${bodyTemplate.length} characters; at most ${CHANNEL_LIMITS.bodyTemplate}.`,
    });
  }
  const secret = fields.includes('secret') ? form.secret : '';
  if (
    secret !== '' &&
    (secret.length < CHANNEL_LIMITS.secretMin || secret.length > CHANNEL_LIMITS.secretMax)
  ) {
    // The message never repeats the secret.
    problems.push({
      field: 'secret',
      message: `The secret must be ${CHANNEL_LIMITS.secretMin} to ${CHANNEL_LIMITS.secretMax} characters (it has ${secret.length}).`,
    });
  }
  const [first] = problems;
  if (first) {
    return { error: { message: problems.map((p) => p.message).join(' '), field: first.field, problems } };
  }
  return {
    body: {
      name,
      kind: form.kind,
      ...(fields.includes('url') ? { url } : {}),
      ...(bodyTemplate !== '' ? { bodyTemplate } : {}),
      ...(secret !== '' ? { secret } : {}),
    },
  };
}

/**
 * Where a channel sends. A Slack incoming webhook's path is its credential (anyone holding the URL can
 * post), so only its host is shown; a webhook's URL is shown whole.
 */
export function channelTarget(channel: Pick<AlertChannel, 'kind' | 'url'>): string {
  if (channel.kind === 'email') return 'the alarm topic (SNS)';
  if (!channel.url) return '—';
  if (channel.kind === 'slack') {
    try {
      return `${new URL(channel.url).origin}/…`;
    } catch {
      return '…';
    }
  }
  return channel.url;
}

/** A webhook's signing secret as far as anyone may know it: set or not (other kinds have none). */
export function secretText(channel: Pick<AlertChannel, 'kind' | 'signed'>): string | undefined {
  if (channel.kind !== 'webhook') return undefined;
  return channel.signed ? 'set' : 'not set';
}

/** A webhook's body in words: its own template, or the alert as JSON. */
export function bodyText(channel: Pick<AlertChannel, 'kind' | 'bodyTemplate'>): string | undefined {
  if (channel.kind !== 'webhook') return undefined;
  return channel.bodyTemplate ? 'own template' : 'the alert as JSON';
}
