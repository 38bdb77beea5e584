// The alert channel form: which fields each kind has, the checks the API makes (so most problems
// show before asking), the create body with the chosen kind's fields only, an edit's body with the
// fields changed only, and a channel's target, secret and test answer in words (a secret is
// write-only: never shown, only whether one is set). Pure.

import type {
  AlertChannel,
  AlertChannelCreate,
  AlertChannelTestResult,
  AlertChannelUpdate,
} from '@tickring/client';
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
  /** A new secret; in an edit, empty keeps the one set. */
  secret: string;
  /** An edit of a signed webhook: remove its secret (bodies no longer signed). */
  stopSigning: boolean;
}
export type ChannelField = Exclude<keyof ChannelForm, 'stopSigning'>;

/** The fields a kind shows besides its name and kind. */
export const KIND_FIELDS: Readonly<Record<ChannelKind, readonly ChannelField[]>> = {
  webhook: ['url', 'bodyTemplate', 'secret'],
  slack: ['url'],
  email: [],
};

export function newChannelForm(): ChannelForm {
  return { name: '', kind: 'webhook', url: '', bodyTemplate: '', secret: '', stopSigning: false };
}

/**
 * An existing channel's form: its fields as read. Its secret is never read back (empty keeps it), nor
 * a Slack webhook's URL, whose path is its credential (empty keeps it too; see `keepsUrl`).
 */
export function channelFormOf(channel: AlertChannel): ChannelForm {
  return {
    name: channel.name,
    kind: channel.kind,
    url: channel.kind === 'slack' ? '' : (channel.url ?? ''),
    bodyTemplate: channel.bodyTemplate ?? '',
    secret: '',
    stopSigning: false,
  };
}

/** Whether an edit's empty URL field keeps the channel's URL: a Slack webhook's, which the form does not show. */
export function keepsUrl(channel: Pick<AlertChannel, 'kind' | 'url'> | undefined): boolean {
  return channel?.kind === 'slack' && Boolean(channel.url);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

interface CheckedForm {
  readonly name: string;
  /** The URL typed (empty: none, or, in an edit that keeps it, the channel's). */
  readonly url: string;
  readonly bodyTemplate: string;
  readonly secret: string;
}

type Problems = { field: ChannelField; message: string }[];

/** The form's values as the API would take them, and every problem it would answer. */
function checkForm(form: ChannelForm, urlKept: boolean): { checked: CheckedForm; problems: Problems } {
  const problems: Problems = [];
  const name = form.name.trim();
  if (name === '' || name.length > CHANNEL_LIMITS.name) {
    problems.push({ field: 'name', message: `Enter a name of 1 to ${CHANNEL_LIMITS.name} characters.` });
  }
  const fields = KIND_FIELDS[form.kind];
  const url = fields.includes('url') ? form.url.trim() : '';
  if (fields.includes('url')) {
    if (url === '') {
      if (!urlKept)
        problems.push({ field: 'url', message: `A ${CHANNEL_KINDS[form.kind].label} channel needs a URL.` });
    } else if (url.length > CHANNEL_LIMITS.url || !isHttpUrl(url)) {
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
  const secret = fields.includes('secret') && !form.stopSigning ? form.secret : '';
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
  return { checked: { name, url, bodyTemplate, secret }, problems };
}

/** Problems in the API's error shape, so they show beside their fields the same way. */
function problemsError(problems: Problems): { error: ShownError } {
  const [first] = problems;
  return {
    error: {
      message: problems.map((p) => p.message).join(' '),
      ...(first ? { field: first.field } : {}),
      problems,
    },
  };
}

/**
 * The form as a create body (the chosen kind's fields only; an empty optional one left out), or every
 * problem the API would answer, in its error shape so they show beside their fields the same way. A
 * body template's syntax is the server's to check (its 400 names the place).
 */
export function channelRequest(form: ChannelForm): { body: AlertChannelCreate } | { error: ShownError } {
  const { checked, problems } = checkForm({ ...form, stopSigning: false }, false);
  if (problems.length > 0) return problemsError(problems);
  const fields = KIND_FIELDS[form.kind];
  return {
    body: {
      name: checked.name,
      kind: form.kind,
      ...(fields.includes('url') ? { url: checked.url } : {}),
      ...(checked.bodyTemplate !== '' ? { bodyTemplate: checked.bodyTemplate } : {}),
      ...(checked.secret !== '' ? { secret: checked.secret } : {}),
    },
  };
}

/**
 * An edit as a PATCH body: only the fields changed (an emptied template is null: the alert as JSON;
 * a new secret, or null to stop signing; the kind never), with the revision read, so a channel
 * someone saved meanwhile is refused (409) rather than overwritten. `unchanged` when nothing would
 * change; every problem the API would answer otherwise.
 */
export function channelUpdateRequest(
  channel: AlertChannel,
  form: ChannelForm,
): { body: AlertChannelUpdate } | { error: ShownError } | { unchanged: true } {
  const edited = { ...form, kind: channel.kind };
  const { checked, problems } = checkForm(edited, keepsUrl(channel));
  if (problems.length > 0) return problemsError(problems);
  const fields = KIND_FIELDS[channel.kind];
  const body: AlertChannelUpdate = {};
  if (checked.name !== channel.name) body.name = checked.name;
  if (fields.includes('url') && checked.url !== '' && checked.url !== channel.url) body.url = checked.url;
  if (fields.includes('bodyTemplate') && checked.bodyTemplate !== (channel.bodyTemplate ?? '')) {
    body.bodyTemplate = checked.bodyTemplate === '' ? null : checked.bodyTemplate;
  }
  if (fields.includes('secret')) {
    if (form.stopSigning && channel.signed) body.secret = null;
    else if (checked.secret !== '') body.secret = checked.secret;
  }
  if (Object.keys(body).length === 0) return { unchanged: true };
  return { body: { ...body, revision: channel.revision } };
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

/** A test message's answer in words: delivered (with the receiver's status), or why not. */
export function testResultText(
  result: Pick<AlertChannelTestResult, 'delivered' | 'status' | 'error' | 'kind'>,
): string {
  const status = result.status === undefined ? undefined : `HTTP ${result.status}`;
  if (result.delivered) {
    if (result.kind === 'email') return 'Delivered: published on the alarm topic.';
    return status ? `Delivered (${status}).` : 'Delivered.';
  }
  const why = [status, result.error !== status ? result.error : undefined].filter(Boolean).join(': ');
  return `Not delivered: ${why || 'no answer'}.`;
}
