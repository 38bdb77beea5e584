import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack, startWebhook, type Webhook } from '../e2e-stack.js';
import { waitFor } from '../stand-ins.js';
import {
  closeContexts,
  describeViolations,
  horizontalOverflow,
  isBlocking,
  openConsolePage,
  runAxe,
  screenshot,
  settle,
  sharedChromium,
  WIDTHS,
  watchProblems,
} from './browser.js';

/**
 * The alerts pages in Chromium: a webhook channel created in its dialog (a short secret refused at
 * the field before asking, the server's 400 about the body template shown at that field, the secret
 * never shown after), a silence of one job created in its dialog; then two jobs whose runs fail on a
 * real SDK executor: the history shows one alert sent and delivered to the channel (a real receiver),
 * the other silenced with the silence's reason. Then the channel edited in its dialog, a test message
 * the receiver takes shown on its card, the channel made its group's default in the group's dialog,
 * and named on the page of a job that inherits it. Each page at 390 px (dark) without sideways scroll
 * or serious axe-core violations.
 */

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
type ApiAlert = any;

describe('alerts in the web console', () => {
  let e: E2eStack;
  let browser: Browser;
  let hook: Webhook;
  let appName: string;
  const secret = `console-secret-${Date.now().toString(36)}`;

  beforeAll(async () => {
    [e, browser, hook] = await Promise.all([
      // The monitors deliver alerts: every 2 s here, not every minute.
      startE2eStack('console-alerts', {}, { monitorPeriodMs: 2_000 }),
      sharedChromium(),
      startWebhook(),
    ]);
    appName = await e.createAutoGroup('alerts-ui');
    const executor = await e.startExecutor(appName, {
      fails: () => {
        throw new Error('disk full');
      },
    });
    await e.waitForExecutor(appName, executor.address);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
    await hook?.close();
  });

  const open = (path: string, width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, path, width, colorScheme);

  const failingJob = async (name: string, channelId: string) => {
    const job = await e.createJob({
      appName,
      name,
      // Running, but its own fires are far off: its run is triggered here.
      scheduleType: 'CRON',
      scheduleConf: '0 0 3 1 1 ?',
      triggerStatus: 'RUNNING',
      executorHandler: 'fails',
      alertChannels: [channelId],
    });
    return job.id as number;
  };

  it('creates a channel and a silence, and shows an alert delivered and one silenced', async () => {
    const page = await open('/alerts/channels', WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    await page.getByText('No alert channels yet').waitFor();

    await page.getByRole('button', { name: 'New channel' }).click();
    const channelDialog = page.getByRole('dialog', { name: 'New alert channel' });
    await channelDialog.getByLabel('Name').fill('ops hook');
    await channelDialog.getByLabel('URL', { exact: true }).fill(hook.url);
    await channelDialog.getByLabel('Signing secret (optional)').fill('short');
    await channelDialog.getByRole('button', { name: 'Create channel' }).click();
    await expect(channelDialog.locator('#channel-secret-error').innerText()).resolves.toMatch(/16 to 256/);
    // Slack shows no template or secret fields; back to the webhook, its values kept.
    await channelDialog.getByLabel('Slack', { exact: true }).check();
    expect(await channelDialog.getByLabel('Signing secret (optional)').count()).toBe(0);
    await channelDialog.getByLabel('Webhook', { exact: true }).check();
    await channelDialog.getByLabel('Signing secret (optional)').fill(secret);
    await channelDialog.getByLabel('Body template (optional)').fill('{"text": "{{ text "}');
    await channelDialog.getByRole('button', { name: 'Create channel' }).click();
    // The template's syntax is the server's to check: its 400 shows at the field.
    await expect(channelDialog.locator('#channel-bodyTemplate-error').innerText()).resolves.toMatch(
      /^bodyTemplate: /,
    );
    // Numbers only: the receiver reads each body as JSON.
    await channelDialog
      .getByLabel('Body template (optional)')
      .fill('{"job": {{ job.id }}, "count": {{ alert.count }}}');
    await channelDialog.getByRole('button', { name: 'Create channel' }).click();
    const card = page.getByRole('article', { name: 'ops hook' });
    await card.waitFor();
    const [terms, details] = [
      await card.locator('dt').allInnerTexts(),
      await card.locator('dd').allInnerTexts(),
    ];
    expect(Object.fromEntries(terms.map((term, i) => [term, details[i]]))).toMatchObject({
      'Sends to': hook.url,
      Body: 'own template',
      'Signing secret': 'set',
    });
    expect(await page.content()).not.toContain(secret);

    const channels = await e.call('GET', '/v1/alert-channels');
    const channelId = channels.body.items[0].id as string;
    const [sentJob, silencedJob] = [
      await failingJob('Nightly export', channelId),
      await failingJob('Cache warmup', channelId),
    ];

    await page.getByRole('navigation', { name: 'Alerts' }).getByRole('link', { name: 'Silences' }).click();
    await page.waitForURL('**/alerts/silences');
    await settle(page);
    await page.getByRole('button', { name: 'New silence' }).click();
    const silenceDialog = page.getByRole('dialog', { name: 'New silence' });
    await silenceDialog.getByLabel('Job id').fill(String(silencedJob));
    await silenceDialog.getByLabel('Reason').fill('cache rebuild');
    await silenceDialog.getByRole('button', { name: 'Create silence' }).click();
    const active = page.getByRole('region', { name: 'Active (1)' });
    await active
      .getByRole('row')
      .filter({ hasText: 'cache rebuild' })
      .getByRole('link', { name: `job ${silencedJob}` })
      .waitFor();

    await e.trigger(sentJob);
    await e.trigger(silencedJob);
    const alertOf = async (jobId: number): Promise<ApiAlert> =>
      (await e.call('GET', `/v1/alerts?jobId=${jobId}`)).body.items[0];
    await waitFor(async () => (await alertOf(sentJob))?.deliveries[0]?.state === 'delivered', {
      what: 'the alert delivered to the webhook',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await alertOf(silencedJob))?.state === 'silenced', {
      what: 'the silenced alert recorded',
    });
    expect(hook.bodies).toEqual([{ job: sentJob, count: 1 }]);

    await page.getByRole('navigation', { name: 'Alerts' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL(/\/alerts$/);
    await settle(page);
    const sent = page.getByRole('article', { name: 'Run failed: Nightly export' });
    await expect(sent.locator('.alert-card-head .badge').innerText()).resolves.toBe('sent');
    await expect(sent.getByRole('list', { name: 'Deliveries' }).innerText()).resolves.toMatch(
      /^ops hook\s+Webhook\s+First alarm: delivered\s+1 attempt/,
    );
    const silenced = page.getByRole('article', { name: 'Run failed: Cache warmup' });
    await expect(silenced.locator('.alert-card-head .badge').innerText()).resolves.toBe('silenced');
    await silenced.getByRole('link', { name: 'cache rebuild' }).waitFor();
    await screenshot(page, 'alerts', WIDTHS.wide);
    const violations = (
      await runAxe(page, { page: 'alerts', width: WIDTHS.wide, colorScheme: 'light' })
    ).filter(isBlocking);
    expect(violations, describeViolations(violations)).toEqual([]);

    await sent.getByRole('link', { name: 'Nightly export' }).click();
    await page.waitForURL(`**/jobs/${sentJob}`);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    // The server's refusal of the body template, and nothing else.
    expect(problems.failedRequests).toEqual(['/alerts/channels: POST /v1/alert-channels → 400']);
    await page.context().close();
  });

  it("edits the channel, sends a test that the receiver takes, and makes it its group's default", async () => {
    const page = await open('/alerts/channels', WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    await page.getByRole('button', { name: 'Edit ops hook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit channel ops hook' });
    // The secret is never shown: an empty field keeps it.
    await expect(dialog.getByLabel('New signing secret').inputValue()).resolves.toBe('');
    await dialog.getByLabel('Name').fill('ops hook v2');
    await dialog.getByRole('button', { name: 'Save channel' }).click();
    const card = page.getByRole('article', { name: 'ops hook v2' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Send test to ops hook v2' }).click();
    await expect(card.getByRole('status').innerText()).resolves.toMatch(
      /^delivered\s+Test message .+: Delivered \(HTTP 200\)\.$/,
    );
    // The template rendered over the test alert: job 0.
    expect(hook.bodies.at(-1)).toEqual({ job: 0, count: 1 });
    const [channel] = (await e.call('GET', '/v1/alert-channels')).body.items;
    expect([channel.name, channel.signed, channel.revision]).toEqual(['ops hook v2', true, 2]);

    await page.goto(`${new URL(page.url()).origin}/executors`);
    await settle(page);
    await page.getByRole('button', { name: `Edit group ${appName}` }).click();
    const groupDialog = page.getByRole('dialog', { name: `Edit group ${appName}` });
    await groupDialog.getByLabel('These channels').check();
    await groupDialog.getByRole('checkbox', { name: /ops hook v2/ }).check();
    await groupDialog.getByRole('button', { name: 'Save group' }).click();
    await groupDialog.waitFor({ state: 'hidden' });
    expect((await e.call('GET', `/v1/groups/${appName}`)).body.alertChannels).toEqual([channel.id]);

    // A job on its group's default names the group's channels, beside a link to its alerts.
    const job = await e.createJob({ appName, name: 'Inherits', executorHandler: 'fails' });
    await page.goto(`${new URL(page.url()).origin}/jobs/${job.id}`);
    await settle(page);
    const channels = page.locator('dt', { hasText: /^Alert channels$/ }).locator('+ dd');
    // The group is read first, then the channels it names.
    await channels.getByText('group default: ops hook v2', { exact: true }).waitFor();
    await channels.getByRole('link', { name: 'Alerts of this job' }).click();
    await page.waitForURL(`**/alerts?jobId=${job.id}`);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    for (const [path, name] of [
      ['/alerts', 'alerts'],
      ['/alerts/channels', 'alert-channels'],
      ['/alerts/silences', 'alert-silences'],
    ] as const) {
      const page = await open(path, WIDTHS.narrow, 'dark');
      await screenshot(page, name, WIDTHS.narrow);
      const violations = (
        await runAxe(page, { page: name, width: WIDTHS.narrow, colorScheme: 'dark' })
      ).filter(isBlocking);
      expect(violations, describeViolations(violations)).toEqual([]);
      expect(await horizontalOverflow(page, { page: name, width: WIDTHS.narrow })).toBeUndefined();
      await page.context().close();
    }
  });
});
