import { type Problem, RequestValidationError } from '../common/errors.js';
import { parseTemplate } from '../workflows/model/template.js';

export const ALERT_CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

export const ALERT_CHANNEL_LIMITS = {
  name: 100,
  url: 2048,
  /** A webhook body template (UTF-16 units; rendered, it is posted as it is). */
  bodyTemplate: 16 * 1024,
  /** The HMAC secret as given: at least 16 characters so it cannot be guessed from a few signatures. */
  secretMin: 16,
  secretMax: 256,
} as const;

/**
 * Where alerts go. `webhook`: the alert posted as JSON (or as `bodyTemplate` rendered), signed with
 * HMAC-SHA256 when it has a secret; `slack`: a Slack-compatible incoming webhook (`{text, blocks}`);
 * `email`: the SNS alarm topic (its subscribers), with the channel id as a message attribute.
 */
export interface AlertChannel {
  readonly id: string;
  readonly name: string;
  readonly kind: AlertChannelKind;
  /** webhook and slack. */
  readonly url?: string;
  /** webhook: the body, `{{ path }}` placeholders over the alert's fields (see alert-message.ts). */
  readonly bodyTemplate?: string;
  /**
   * webhook: the HMAC secret sealed (AES-GCM, SecretSealer, context `alertChannel#{id}`): it must be
   * read back to sign, so it cannot be a hash. Never answered, never logged.
   */
  readonly secretSealed?: string;
  readonly revision: number;
  readonly createdAt: number;
  readonly createdBy: string;
  readonly updatedAt: number;
}

/** What the API answers: the secret only as whether there is one. */
export type AlertChannelView = Omit<AlertChannel, 'secretSealed'> & { readonly signed: boolean };

export function alertChannelView({ secretSealed, ...channel }: AlertChannel): AlertChannelView {
  return { ...channel, signed: secretSealed !== undefined };
}

export interface AlertChannelInput {
  readonly name?: unknown;
  readonly kind?: unknown;
  readonly url?: unknown;
  readonly bodyTemplate?: unknown;
  readonly secret?: unknown;
}

export interface CheckedChannelInput {
  readonly name: string;
  readonly kind: AlertChannelKind;
  readonly url?: string;
  readonly bodyTemplate?: string;
  readonly secret?: string;
}

/** Checks a channel as given, every problem at once (RequestValidationError). */
export function checkAlertChannel(input: AlertChannelInput): CheckedChannelInput {
  const problems: Problem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '' || name.length > ALERT_CHANNEL_LIMITS.name) {
    problem('name', `name must be 1 to ${ALERT_CHANNEL_LIMITS.name} characters`);
  }
  const kind = ALERT_CHANNEL_KINDS.find((k) => k === input.kind);
  if (!kind) problem('kind', `kind must be one of ${ALERT_CHANNEL_KINDS.join(', ')}`);
  const url = typeof input.url === 'string' ? input.url.trim() : undefined;
  if (kind === 'webhook' || kind === 'slack') {
    if (url === undefined || url === '') problem('url', `a ${kind} channel needs a url`);
    else if (url.length > ALERT_CHANNEL_LIMITS.url || !isHttpUrl(url)) {
      problem('url', `url must be an http(s) URL of at most ${ALERT_CHANNEL_LIMITS.url} characters`);
    }
  } else if (kind === 'email' && input.url !== undefined) {
    problem('url', 'an email channel has no url: it publishes to the alarm topic');
  }
  let bodyTemplate: string | undefined;
  if (input.bodyTemplate !== undefined) {
    if (kind !== 'webhook') problem('bodyTemplate', 'only a webhook channel has a body template');
    else if (
      typeof input.bodyTemplate !== 'string' ||
      input.bodyTemplate.length > ALERT_CHANNEL_LIMITS.bodyTemplate
    ) {
      problem(
        'bodyTemplate',
        `bodyTemplate must be text of at most ${ALERT_CHANNEL_LIMITS.bodyTemplate} characters`,
      );
    } else {
      const parsed = parseTemplate(input.bodyTemplate);
      if ('error' in parsed) problem('bodyTemplate', `bodyTemplate: ${parsed.error}`);
      else bodyTemplate = input.bodyTemplate;
    }
  }
  let secret: string | undefined;
  if (input.secret !== undefined) {
    const { secretMin, secretMax } = ALERT_CHANNEL_LIMITS;
    if (kind !== 'webhook') problem('secret', 'only a webhook channel signs with a secret');
    else if (
      typeof input.secret !== 'string' ||
      input.secret.length < secretMin ||
      input.secret.length > secretMax
    ) {
      // The message never repeats the secret.
      problem('secret', `secret must be ${secretMin} to ${secretMax} characters`);
    } else secret = input.secret;
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return {
    name,
    kind: kind!,
    ...(url !== undefined && url !== '' ? { url } : {}),
    ...(bodyTemplate !== undefined ? { bodyTemplate } : {}),
    ...(secret !== undefined ? { secret } : {}),
  };
}

/** What a change of a channel may name: its own fields, and the revision it read. */
export const ALERT_CHANNEL_UPDATE_FIELDS = [
  'name',
  'kind',
  'url',
  'bodyTemplate',
  'secret',
  'revision',
] as const;

/** A channel's secret after a change: kept sealed as it is, a new one to seal, or none (unsigned). */
export type SecretChange = { readonly keep: true } | { readonly set: string } | { readonly remove: true };

/**
 * A change of a channel: the fields given laid over the channel as it is, the result checked as a
 * whole with every problem at once (RequestValidationError). `null` clears url, bodyTemplate or
 * secret; an absent secret is kept (it is never read back). The kind cannot change (a sent-back
 * `kind` equal to the channel's is fine); `revision`, when given, is the caller's to compare.
 */
export function checkAlertChannelUpdate(
  current: Pick<AlertChannel, 'name' | 'kind' | 'url' | 'bodyTemplate'>,
  input: Readonly<Record<string, unknown>>,
): { readonly fields: Omit<CheckedChannelInput, 'secret'>; readonly secret: SecretChange } {
  const problems: Problem[] = [];
  for (const key of Object.keys(input)) {
    if (!(ALERT_CHANNEL_UPDATE_FIELDS as readonly string[]).includes(key)) {
      problems.push({
        field: key,
        message: `unknown field "${key}"; a channel change names ${ALERT_CHANNEL_UPDATE_FIELDS.join(', ')}`,
      });
    }
  }
  if (input.kind !== undefined && input.kind !== current.kind) {
    problems.push({
      field: 'kind',
      message: `kind cannot change (${current.kind} → ${String(input.kind)}); create a channel of that kind instead`,
    });
  }
  const revision = input.revision;
  if (revision !== undefined && !(Number.isSafeInteger(revision) && (revision as number) >= 1)) {
    problems.push({ field: 'revision', message: 'revision must be the revision read (1, 2, ...)' });
  }
  const laid = (field: 'url' | 'bodyTemplate'): unknown =>
    input[field] === null ? undefined : input[field] === undefined ? current[field] : input[field];
  let fields: Omit<CheckedChannelInput, 'secret'> | undefined;
  let secret: SecretChange = { keep: true };
  try {
    const { secret: given, ...checked } = checkAlertChannel({
      name: input.name === undefined ? current.name : input.name,
      kind: current.kind,
      url: laid('url'),
      bodyTemplate: laid('bodyTemplate'),
      secret: input.secret === null ? undefined : input.secret,
    });
    fields = checked;
    if (given !== undefined) secret = { set: given };
    else if (input.secret === null) secret = { remove: true };
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    problems.push(...err.problems);
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  // No problem: the checked fields are there.
  return { fields: fields!, secret };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function sealContextOf(channelId: string): string {
  return `alertChannel#${channelId}`;
}
