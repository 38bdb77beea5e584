import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from '../e2e-stack.js';
import {
  closeContexts,
  expectNoBlockingAxe,
  horizontalOverflow,
  openConsolePage,
  screenshot,
  sharedChromium,
  WIDTHS,
  watchProblems,
} from './browser.js';

/**
 * The job editor's alert channels and log retention, and a scheduled workflow's backfills, in
 * Chromium: channels and retention set in the editor show on the job's page (names, days, share and
 * the cost estimate with its price) and in the job as the API reads it, a later save that picks the
 * group's default leaves the retention as it was; a workflow's past fires counted, a backfill started
 * and listed on its page. At 1280 px (light) and 390 px (dark) with no serious axe-core violation and
 * no sideways scroll.
 */

/** The browser context's zone (browser.ts): `datetime-local` values are typed in it. */
const BROWSER_ZONE = 'America/New_York';
const HOUR = 3_600_000;

function localMinute(ms: number): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: BROWSER_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .format(ms)
    .replace(' ', 'T');
}

describe('a job’s alert channels and log retention, a workflow’s backfills', () => {
  let e: E2eStack;
  let browser: Browser;
  let jobId: number;
  let workflowId: number;
  let opsChannel: string;

  beforeAll(async () => {
    [e, browser] = await Promise.all([startE2eStack('console-job-settings'), sharedChromium()]);
    const appName = await e.createAutoGroup('console-settings');
    const channels = await Promise.all(
      ['ops webhook', 'chat'].map((name) =>
        e.call('POST', '/v1/alert-channels', { name, kind: 'webhook', url: 'https://hooks.example.com/x' }),
      ),
    );
    expect(channels.map((c) => c.status)).toEqual([201, 201]);
    opsChannel = channels[0]!.body.id;
    const job = await e.createJob({
      appName,
      name: 'Hourly export',
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      timeZone: 'UTC',
      executorHandler: 'export',
    });
    jobId = job.id;
    const node = await e.createJob({
      appName,
      name: 'Nightly step',
      scheduleType: 'NONE',
      executorHandler: 'step',
    });
    const workflow = await e.call('POST', '/v1/workflows', {
      name: 'Hourly chain',
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      timeZone: 'UTC',
      nodes: [{ key: 'only', jobId: node.id }],
    });
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);
    workflowId = workflow.body.id;
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
  });

  const open = (path: string, width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, path, width, colorScheme);

  it('sets channels and retention in the editor and shows them on the job’s page; an untouched field stays', async () => {
    const page = await open(`/jobs/${jobId}/edit`, WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    await page.getByRole('radio', { name: 'These channels' }).check();
    await page.getByRole('checkbox', { name: /^ops webhook/ }).check();
    await page.getByLabel('Keep run history (days)').fill('90');
    await page.getByLabel('Successful runs kept (%)').fill('10');
    await expectNoBlockingAxe(page, 'job-editor-alerts-retention', WIDTHS.wide, 'light');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await page.waitForURL(new RegExp(`/jobs/${jobId}$`));
    const facts = page.locator('dl.facts');
    await facts.getByText('ops webhook', { exact: true }).waitFor();
    await facts.getByText('90 days; 10 % of successes kept (the others 1 day)').waitFor();
    await facts.getByText(/^Estimate, not a bill: about/).waitFor();
    await facts.getByText(/at 0\.25 USD per GB-month/).waitFor();
    const saved = (await e.call('GET', `/v1/jobs/${jobId}`)).body;
    expect(saved).toMatchObject({
      alertChannels: [opsChannel],
      logRetentionDays: 90,
      keepSuccessfulRuns: 0.1,
      retention: { days: 90, successSample: 0.1 },
    });
    await screenshot(page, 'job-alerts-retention', WIDTHS.wide);

    // Back to the group's channels: the retention, not touched this time, is kept as it was.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.waitForURL(new RegExp(`/jobs/${jobId}/edit$`));
    await expect(page.getByRole('radio', { name: 'These channels' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Successful runs kept (%)').inputValue()).resolves.toBe('10');
    await page.getByRole('radio', { name: 'Group default' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(`/jobs/${jobId}$`));
    // The job's group names no channels.
    await facts.getByText('group default: none', { exact: true }).waitFor();
    expect((await e.call('GET', `/v1/jobs/${jobId}`)).body).toMatchObject({
      alertChannels: null,
      logRetentionDays: 90,
      keepSuccessfulRuns: 0.1,
      version: saved.version + 1,
    });
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    await page.context().close();
  });

  it('counts a scheduled workflow’s past fires, starts a backfill and lists it on the workflow’s page', async () => {
    const page = await open(`/workflows/${workflowId}`, WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    const backfills = page.getByRole('region', { name: 'Backfills', exact: true });
    await backfills.getByText('No backfills').waitFor();
    await backfills.getByRole('button', { name: 'Backfill…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Backfill “Hourly chain”' });
    const lastHour = Math.floor(Date.now() / HOUR) * HOUR;
    await dialog.getByLabel('From (your time zone)').fill(localMinute(lastHour - 3 * HOUR));
    await dialog.getByLabel('To (your time zone)').fill(localMinute(lastHour - HOUR + 60_000));
    await dialog.getByRole('button', { name: 'Count the fires' }).click();
    await dialog.getByText('3 fires', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Start 3 fires' }).click();
    await backfills.getByRole('progressbar', { name: /of 3 done/ }).waitFor();

    const listed = (await e.call('GET', `/v1/workflows/${workflowId}/backfills`)).body.items;
    expect(listed).toMatchObject([
      { workflowId, total: 3, from: new Date(lastHour - 3 * HOUR).toISOString() },
    ]);
    await backfills.getByText(listed[0].id).waitFor();
    await screenshot(page, 'workflow-backfills', WIDTHS.wide);
    await expectNoBlockingAxe(page, 'workflow-backfills', WIDTHS.wide, 'light');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    for (const [path, name] of [
      [`/jobs/${jobId}/edit`, 'job-editor-alerts-retention'],
      [`/workflows/${workflowId}`, 'workflow-backfills'],
    ] as const) {
      const page = await open(path, WIDTHS.narrow, 'dark');
      if (name === 'job-editor-alerts-retention') {
        await page.getByRole('radio', { name: 'These channels' }).check();
        await page.getByRole('checkbox', { name: /^chat/ }).waitFor();
      }
      await screenshot(page, name, WIDTHS.narrow);
      await expectNoBlockingAxe(page, name, WIDTHS.narrow, 'dark');
      expect(await horizontalOverflow(page, { page: name, width: WIDTHS.narrow })).toBeUndefined();
      await page.context().close();
    }
  });
});
