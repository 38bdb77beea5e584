import { readFileSync } from 'node:fs';
import type { AlertChannel } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import {
  bodyText,
  CHANNEL_KIND_NAMES,
  CHANNEL_LIMITS,
  type ChannelForm,
  channelFormOf,
  channelRequest,
  channelTarget,
  channelUpdateRequest,
  newChannelForm,
  secretText,
  testResultText,
} from './channel-form';

const form = (changes: Partial<ChannelForm>): ChannelForm => ({ ...newChannelForm(), ...changes });
const fieldsOf = (made: ReturnType<typeof channelRequest>) =>
  'error' in made ? made.error.problems.map((p) => p.field) : [];

describe('channelRequest', () => {
  it('sends a webhook with its url, template and secret, the name trimmed', () => {
    const made = channelRequest(
      form({
        name: ' ops ',
        kind: 'webhook',
        url: ' https://hooks.example.com/t ',
        bodyTemplate: '{"text":"{{ text }}"}',
        secret: 'a-long-random-shared-secret',
      }),
    );
    expect(made).toEqual({
      body: {
        name: 'ops',
        kind: 'webhook',
        url: 'https://hooks.example.com/t',
        bodyTemplate: '{"text":"{{ text }}"}',
        secret: 'a-long-random-shared-secret',
      },
    });
  });

  it('leaves out an empty template and secret: the alert as JSON, unsigned', () => {
    const made = channelRequest(form({ name: 'ops', url: 'http://10.0.0.5/hook', bodyTemplate: '  ' }));
    expect(made).toEqual({ body: { name: 'ops', kind: 'webhook', url: 'http://10.0.0.5/hook' } });
  });

  it('sends only the chosen kind’s fields, whatever was typed for another kind', () => {
    const typed = {
      name: 'n',
      url: 'https://hooks.slack.com/services/T/B/X',
      bodyTemplate: 'x',
      secret: 's'.repeat(20),
    };
    expect(channelRequest(form({ ...typed, kind: 'slack' }))).toEqual({
      body: { name: 'n', kind: 'slack', url: typed.url },
    });
    expect(channelRequest(form({ ...typed, kind: 'email' }))).toEqual({ body: { name: 'n', kind: 'email' } });
  });

  it('names every problem at once, beside its field', () => {
    const made = channelRequest(form({ name: '  ', kind: 'webhook', url: 'ftp://files', secret: 'short' }));
    expect(fieldsOf(made)).toEqual(['name', 'url', 'secret']);
    // The secret's problem never repeats it.
    expect('error' in made && made.error.problems.some((p) => p.message.includes('short'))).toBe(false);
  });

  it('asks a webhook or Slack channel for its URL, and takes none from email', () => {
    expect(fieldsOf(channelRequest(form({ name: 'n', kind: 'slack', url: '' })))).toEqual(['url']);
    expect(fieldsOf(channelRequest(form({ name: 'n', kind: 'webhook', url: 'not a url' })))).toEqual(['url']);
    expect(fieldsOf(channelRequest(form({ name: 'n', kind: 'email', url: '' })))).toEqual([]);
  });

  it('holds each field to the server’s limits, at their edges', () => {
    const name = (n: number) => fieldsOf(channelRequest(form({ name: 'x'.repeat(n), kind: 'email' })));
    expect(name(CHANNEL_LIMITS.name)).toEqual([]);
    expect(name(CHANNEL_LIMITS.name + 1)).toEqual(['name']);
    const secret = (n: number) =>
      fieldsOf(channelRequest(form({ name: 'n', url: 'https://h.example/', secret: 's'.repeat(n) })));
    expect(secret(CHANNEL_LIMITS.secretMin - 1)).toEqual(['secret']);
    expect(secret(CHANNEL_LIMITS.secretMin)).toEqual([]);
    expect(secret(CHANNEL_LIMITS.secretMax)).toEqual([]);
    expect(secret(CHANNEL_LIMITS.secretMax + 1)).toEqual(['secret']);
    const url = (n: number) => {
      const base = 'https://h.example/';
      return fieldsOf(channelRequest(form({ name: 'n', url: base + 'p'.repeat(n - base.length) })));
    };
    expect(url(CHANNEL_LIMITS.url)).toEqual([]);
    expect(url(CHANNEL_LIMITS.url + 1)).toEqual(['url']);
    const template = (n: number) =>
      fieldsOf(channelRequest(form({ name: 'n', url: 'https://h.example/', bodyTemplate: 't'.repeat(n) })));
    expect(template(CHANNEL_LIMITS.bodyTemplate)).toEqual([]);
    expect(template(CHANNEL_LIMITS.bodyTemplate + 1)).toEqual(['bodyTemplate']);
  });

  it('has the limits and kinds of the API’s own contract (openapi.json)', () => {
    const contract = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    const fields = contract.components.schemas.AlertChannelCreate.properties;
    expect({
      name: fields.name.maxLength,
      url: fields.url.maxLength,
      bodyTemplate: fields.bodyTemplate.maxLength,
      secretMin: fields.secret.minLength,
      secretMax: fields.secret.maxLength,
    }).toEqual(CHANNEL_LIMITS);
    expect(fields.kind.enum).toEqual(CHANNEL_KIND_NAMES);
  });
});

describe('channelUpdateRequest', () => {
  const hook: AlertChannel = {
    id: 'ch-ops',
    name: 'ops',
    kind: 'webhook',
    url: 'https://hooks.example.com/t',
    bodyTemplate: '{"t":"{{ text }}"}',
    signed: true,
    revision: 4,
    createdAt: '2030-01-01T10:02:00.000Z',
    createdBy: 'ana',
    updatedAt: '2030-01-01T10:02:00.000Z',
  };
  const edit = (channel: AlertChannel, changes: Partial<ChannelForm>) =>
    channelUpdateRequest(channel, { ...channelFormOf(channel), ...changes });

  it('starts from the channel as read, its secret never (empty keeps it)', () => {
    expect(channelFormOf(hook)).toEqual({
      name: 'ops',
      kind: 'webhook',
      url: 'https://hooks.example.com/t',
      bodyTemplate: '{"t":"{{ text }}"}',
      secret: '',
      stopSigning: false,
    });
    expect(edit(hook, {})).toEqual({ unchanged: true });
  });

  it('sends only the fields changed, with the revision read', () => {
    expect(edit(hook, { name: ' ops 2 ', url: 'https://hooks.example.com/v2' })).toEqual({
      body: { name: 'ops 2', url: 'https://hooks.example.com/v2', revision: 4 },
    });
    // An emptied template is null: the alert as JSON again.
    expect(edit(hook, { bodyTemplate: ' ' })).toEqual({ body: { bodyTemplate: null, revision: 4 } });
  });

  it('replaces the secret when one is typed, removes it on "stop signing", and never changes the kind', () => {
    const secret = 'another-long-random-shared-secret';
    expect(edit(hook, { secret })).toEqual({ body: { secret, revision: 4 } });
    expect(edit(hook, { secret, stopSigning: true })).toEqual({ body: { secret: null, revision: 4 } });
    expect(edit({ ...hook, signed: false }, { stopSigning: true })).toEqual({ unchanged: true });
    expect(edit(hook, { kind: 'email', name: 'mail' })).toEqual({ body: { name: 'mail', revision: 4 } });
  });

  it("keeps a Slack webhook's URL, never shown, unless a new one is typed", () => {
    const slack: AlertChannel = { ...hook, kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' };
    expect(channelFormOf(slack).url).toBe('');
    expect(edit(slack, {})).toEqual({ unchanged: true });
    expect(edit(slack, { url: 'https://hooks.slack.com/services/T/B/Y' })).toEqual({
      body: { url: 'https://hooks.slack.com/services/T/B/Y', revision: 4 },
    });
  });

  it('names every problem at once, as a create does', () => {
    const made = edit(hook, { name: '', url: '', secret: 'short' });
    expect(fieldsOf(made as ReturnType<typeof channelRequest>)).toEqual(['name', 'url', 'secret']);
  });
});

describe('testResultText', () => {
  it("says delivered with the receiver's status, or why not", () => {
    expect(testResultText({ kind: 'webhook', delivered: true, status: 204 })).toBe('Delivered (HTTP 204).');
    expect(testResultText({ kind: 'email', delivered: true })).toBe(
      'Delivered: published on the alarm topic.',
    );
    expect(testResultText({ kind: 'webhook', delivered: false, status: 503, error: 'HTTP 503' })).toBe(
      'Not delivered: HTTP 503.',
    );
    expect(
      testResultText({ kind: 'slack', delivered: false, error: 'connect ECONNREFUSED 127.0.0.1:9' }),
    ).toBe('Not delivered: connect ECONNREFUSED 127.0.0.1:9.');
  });
});

describe('a channel in the list', () => {
  it('shows a webhook’s URL whole, a Slack webhook’s host only, and email’s topic', () => {
    expect(channelTarget({ kind: 'webhook', url: 'https://hooks.example.com/t?x=1' })).toBe(
      'https://hooks.example.com/t?x=1',
    );
    expect(channelTarget({ kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/secretpart' })).toBe(
      'https://hooks.slack.com/…',
    );
    expect(channelTarget({ kind: 'email' })).toBe('the alarm topic (SNS)');
  });

  it('says whether a webhook’s secret is set, never what it is; other kinds have none', () => {
    expect(secretText({ kind: 'webhook', signed: true })).toBe('set');
    expect(secretText({ kind: 'webhook', signed: false })).toBe('not set');
    expect(secretText({ kind: 'slack', signed: false })).toBeUndefined();
  });

  it('names a webhook’s body: its own template or the alert as JSON', () => {
    expect(bodyText({ kind: 'webhook', bodyTemplate: '{{ text }}' })).toBe('own template');
    expect(bodyText({ kind: 'webhook' })).toBe('the alert as JSON');
    expect(bodyText({ kind: 'email' })).toBeUndefined();
  });
});
