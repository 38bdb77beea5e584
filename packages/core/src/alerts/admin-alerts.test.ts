import {
  FakeClock,
  MemoryAlertStore,
  MemoryGroupStore,
  MemoryJobStore,
  makeJob,
  testGroup,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, problemsOf, RequestValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { createGroup, getGroup, updateGroup } from '../executors/admin-groups.js';
import { AesGcmSecretSealer } from '../executors/secret-sealer.js';
import { createJob, updateJob } from '../jobs/admin-jobs.js';
import {
  createAlertChannel,
  deleteAlertChannel,
  testAlertChannel,
  updateAlertChannel,
} from './admin-alerts.js';
import type { AlertSender } from './alert-delivery.js';
import { signBody } from './alert-message.js';

const T0 = Date.UTC(2030, 0, 1, 10, 2, 0);
const SECRET = 'a-webhook-secret-of-32-characters';

/** A sender whose POSTs answer `status` (or throw `error`); it records what it was given. */
function recordingSender(answer: { status?: number; error?: string } = {}) {
  const posts: { url: string; body: string; headers: Readonly<Record<string, string>> }[] = [];
  const emails: { subject: string; text: string; channelId: string }[] = [];
  const sender: AlertSender = {
    async post(url, body, headers) {
      posts.push({ url, body, headers });
      if (answer.error) throw new Error(answer.error);
      return answer.status ?? 200;
    },
    async email(subject, text, attributes) {
      emails.push({ subject, text, channelId: attributes.channelId });
    },
  };
  return { sender, posts, emails };
}

function setup(answer: { status?: number; error?: string } = {}) {
  const clock = new FakeClock(T0);
  const alerts = new MemoryAlertStore();
  const jobs = new MemoryJobStore();
  const groups = new MemoryGroupStore();
  const sealer = new AesGcmSecretSealer(async () => 'the-token-key');
  const sent = recordingSender(answer);
  const deps = {
    alerts,
    sealer,
    clock,
    sender: sent.sender,
    jobs,
    groups,
    logger: silentLogger,
  };
  return { clock, alerts, jobs, groups, deps, sent };
}

async function refusal(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (err) {
    return err as Error;
  }
  throw new Error('accepted');
}

const webhook = (url = 'https://hooks.example.com/t') => ({
  name: 'ops',
  kind: 'webhook',
  url,
  bodyTemplate: '{"text":"{{ text }}","kind":"{{ alert.kind }}"}',
  secret: SECRET,
});

describe('changing a channel', () => {
  it('lays the fields given over it and keeps the secret unless a new one or null is given', async () => {
    const { deps, alerts, clock } = setup();
    const created = await createAlertChannel(deps, webhook(), 'ana');
    const sealed = alerts.channels.get(created.id)?.secretSealed;
    clock.advance(1_000);

    const renamed = await updateAlertChannel(deps, created.id, { name: 'ops v2', bodyTemplate: null });
    expect(renamed).toMatchObject({ name: 'ops v2', url: 'https://hooks.example.com/t', signed: true });
    expect(renamed).toMatchObject({ revision: 2, createdAt: T0, updatedAt: T0 + 1_000 });
    expect(renamed.bodyTemplate).toBeUndefined();
    expect(alerts.channels.get(created.id)?.secretSealed).toBe(sealed);

    const rotated = await updateAlertChannel(deps, created.id, { secret: 'another-secret-of-some-length' });
    const resealed = alerts.channels.get(created.id)?.secretSealed;
    expect([rotated.signed, resealed !== sealed]).toEqual([true, true]);
    expect(await deps.sealer.open(`alertChannel#${created.id}`, resealed ?? '')).toBe(
      'another-secret-of-some-length',
    );
    expect(JSON.stringify([rotated, ...alerts.channels.values()])).not.toContain('another-secret');

    const unsigned = await updateAlertChannel(deps, created.id, { secret: null, revision: 3 });
    expect([unsigned.signed, unsigned.revision]).toEqual([false, 4]);
    expect(alerts.channels.get(created.id)).not.toHaveProperty('secretSealed');
  });

  it('names every problem of a change at once, the result checked as a whole', async () => {
    const { deps } = setup();
    const slack = await createAlertChannel(
      deps,
      { name: 'chat', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
      'ana',
    );
    const err = await refusal(
      updateAlertChannel(deps, slack.id, {
        kind: 'email',
        url: null,
        secret: 'short',
        colour: 'red',
        revision: 0,
      }),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(problemsOf(err as RequestValidationError).map((p) => p.field)).toEqual([
      'colour',
      'kind',
      'revision',
      'url',
      'secret',
    ]);
    expect(err.message).toContain('kind cannot change (slack → email)');
    expect(err.message).not.toContain('short');
  });

  it('refuses a change at another revision (409) and a channel that does not exist (404)', async () => {
    const { deps } = setup();
    const created = await createAlertChannel(deps, webhook(), 'ana');
    expect(await refusal(updateAlertChannel(deps, created.id, { name: 'x', revision: 2 }))).toBeInstanceOf(
      ConflictError,
    );
    expect(await refusal(updateAlertChannel(deps, 'nope', { name: 'x' }))).toBeInstanceOf(NotFoundError);
  });
});

describe('testing a channel', () => {
  it('sends one message through the delivery code: the template rendered, signed with the secret; no alert recorded', async () => {
    const { deps, alerts, sent } = setup();
    const created = await createAlertChannel(deps, webhook(), 'ana');
    const result = await testAlertChannel(deps, created.id, 'ana');
    expect(result).toEqual({ channelId: created.id, kind: 'webhook', delivered: true, at: T0, status: 200 });
    const [post] = sent.posts;
    expect(JSON.parse(post?.body ?? '')).toEqual({
      text: 'Test message from tickring to alert channel ops, sent by ana',
      kind: 'test',
    });
    expect(post?.headers['x-tickring-signature']).toBe(signBody(SECRET, post?.body ?? '', T0));
    expect(alerts.alerts.size).toBe(0);
  });

  it("answers the receiver's status or the error when it is not delivered", async () => {
    const refused = setup({ status: 401 });
    const hook = await createAlertChannel(refused.deps, webhook(), 'ana');
    expect(await testAlertChannel(refused.deps, hook.id, 'ana')).toMatchObject({
      delivered: false,
      status: 401,
      error: 'HTTP 401',
    });
    const down = setup({ error: 'connect ECONNREFUSED 127.0.0.1:9' });
    const unreachable = await createAlertChannel(down.deps, webhook(), 'ana');
    expect(await testAlertChannel(down.deps, unreachable.id, 'ana')).toEqual({
      channelId: unreachable.id,
      kind: 'webhook',
      delivered: false,
      at: T0,
      error: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(await refusal(testAlertChannel(down.deps, 'nope', 'ana'))).toBeInstanceOf(NotFoundError);
  });

  it('publishes an email channel’s test to the alarm topic with the channel id', async () => {
    const { deps, sent } = setup();
    const mail = await createAlertChannel(deps, { name: 'mail', kind: 'email' }, 'ana');
    expect((await testAlertChannel(deps, mail.id, 'ana')).delivered).toBe(true);
    expect(sent.emails).toEqual([
      {
        subject: 'tickring test message: alert channel mail',
        text: 'Test message from tickring to alert channel mail, sent by ana',
        channelId: mail.id,
      },
    ]);
  });
});

describe('the channels jobs and groups name', () => {
  async function withChannel() {
    const s = setup();
    const channel = await createAlertChannel(s.deps, webhook(), 'ana');
    await s.groups.create(testGroup({ appName: 'orders' }));
    let channelReads = 0;
    const counted = {
      listChannels: async () => {
        channelReads++;
        return s.alerts.listChannels();
      },
    };
    const jobsDeps = {
      jobs: s.jobs,
      groups: s.groups,
      alertChannels: counted,
      clock: s.clock,
      logger: silentLogger,
    };
    const groupsDeps = {
      groups: s.groups,
      jobs: s.jobs,
      registry: { list: async () => [] },
      registryDeadSeconds: 90,
      alertChannels: counted,
      clock: s.clock,
      logger: silentLogger,
    };
    return { ...s, channel, jobsDeps, groupsDeps, reads: () => channelReads };
  }
  const jobBody = { appName: 'orders', name: 'nightly', author: 'ops', executorHandler: 'h' };

  it('answers a job naming missing channels with a 400 naming each id, beside its other problems', async () => {
    const { jobsDeps, channel, reads } = await withChannel();
    const err = await refusal(
      createJob(jobsDeps, { ...jobBody, maxRuns: 0, alertChannels: [channel.id, 'gone-1', 'gone-2'] }),
    );
    expect(problemsOf(err as RequestValidationError)).toEqual([
      { field: 'maxRuns', message: expect.stringContaining('maxRuns') },
      {
        field: 'alertChannels',
        message: expect.stringContaining('alert channel gone-1, which does not exist'),
      },
      {
        field: 'alertChannels',
        message: expect.stringContaining('alert channel gone-2, which does not exist'),
      },
    ]);
    const alone = await refusal(createJob(jobsDeps, { ...jobBody, alertChannels: ['gone-1'] }));
    expect(problemsOf(alone as RequestValidationError).map((p) => p.field)).toEqual(['alertChannels']);
    const created = await createJob(jobsDeps, { ...jobBody, alertChannels: [channel.id] });
    expect(created.alertChannels).toEqual([channel.id]);
    const edit = await refusal(updateJob(jobsDeps, created.id, { alertChannels: ['gone-3'] }));
    expect(edit).toBeInstanceOf(RequestValidationError);
    expect(reads()).toBe(4);
    await updateJob(jobsDeps, created.id, { author: 'ana' });
    await createJob(jobsDeps, { ...jobBody, alertChannels: [] });
    expect(reads()).toBe(4);
    // null: the job names none of its own again (its group's apply).
    expect((await updateJob(jobsDeps, created.id, { alertChannels: null })).alertChannels).toBeUndefined();
  });

  it("sets a group's default channels, each of which must exist; null clears them", async () => {
    const { groupsDeps, channel } = await withChannel();
    const err = await refusal(
      createGroup(groupsDeps, {
        appName: 'billing',
        title: '',
        addressType: 'AUTO',
        alertChannels: ['gone'],
      }),
    );
    expect(problemsOf(err as RequestValidationError).map((p) => p.field)).toEqual(['title', 'alertChannels']);
    await updateGroup(groupsDeps, 'orders', { alertChannels: [channel.id] });
    expect((await getGroup(groupsDeps, 'orders')).alertChannels).toEqual([channel.id]);
    await updateGroup(groupsDeps, 'orders', { title: 'Orders' });
    expect((await getGroup(groupsDeps, 'orders')).alertChannels).toEqual([channel.id]);
    await updateGroup(groupsDeps, 'orders', { alertChannels: null });
    expect((await getGroup(groupsDeps, 'orders')).alertChannels).toBeUndefined();
  });

  it('refuses (409) to delete a channel a job or a group names, naming them; deletes it once none does', async () => {
    const { deps, jobs, groups, channel, alerts } = await withChannel();
    await jobs.create(makeJob({ id: 7, name: 'nightly', alertChannels: [channel.id] }));
    await groups.create(testGroup({ appName: 'billing', alertChannels: [channel.id] }));
    const err = await refusal(deleteAlertChannel(deps, channel.id));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe(
      `alert channel ${channel.id} is named by job 7 (nightly), group billing; take it out of their alertChannels first`,
    );
    await jobs.delete(7);
    await groups.delete('billing');
    await deleteAlertChannel(deps, channel.id);
    expect(alerts.channels.size).toBe(0);
    expect(await refusal(deleteAlertChannel(deps, channel.id))).toBeInstanceOf(NotFoundError);
  });
});
