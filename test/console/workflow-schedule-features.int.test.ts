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
 * A scheduled workflow's deadline and fire ledger in Chromium: the page's deadline badge and its
 * "Fires owed" section (read from GET /v1/workflows/{id}/ledger), the editor's deadline fields writing
 * into the definition's text and the server's problem shown beside the field; at 1280 px (light) and
 * 390 px (dark) with no serious axe-core violation and no sideways scroll.
 */
describe('a workflow’s deadline and fires owed in the console', () => {
  let e: E2eStack;
  let browser: Browser;
  let workflowId: number;

  beforeAll(async () => {
    [e, browser] = await Promise.all([startE2eStack('console-workflow-features'), sharedChromium()]);
    const appName = await e.createAutoGroup('console-wf');
    const job = await e.createJob({ appName, name: 'Export', executorHandler: 'export' });
    const created = await e.call('POST', '/v1/workflows', {
      name: 'Nightly export',
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0 0 2 * * ?',
      timeZone: 'Europe/Berlin',
      triggerStatus: 'RUNNING',
      deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
      nodes: [{ key: 'export', jobId: job.id }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    workflowId = created.body.id;
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
  });

  const open = (path: string, width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, path, width, colorScheme);

  it('shows the deadline badge and the fires owed; the editor’s deadline fields change the definition', async () => {
    const page = await open(`/workflows/${workflowId}`, WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    await page.getByText('deadline 06:00 Europe/Berlin —').waitFor();
    await page.locator('.deadline-line').getByText('pending').waitFor();
    const ledger = page.getByRole('region', { name: 'Fires owed' });
    await ledger.getByText(/fires? owed: \d+ ran, \d+ skipped/).waitFor();
    await ledger.getByRole('button', { name: 'Last day' }).click();
    await ledger.getByText(/fires? owed: \d+ ran/).waitFor();

    await page.locator('#wf-deadlineTime').fill('07:15');
    await page.locator('#wf-deadlineDays').selectOption('weekdays');
    const text = JSON.parse(await page.locator('#wf-definition').inputValue());
    expect(text.deadline).toEqual({ time: '07:15', timeZone: 'Europe/Berlin', days: 'weekdays' });
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText('Saved: version 2.').waitFor();
    await page.getByText('deadline 07:15 Europe/Berlin on weekdays —').waitFor();
    expect((await e.call('GET', `/v1/workflows/${workflowId}`)).body.deadline).toEqual({
      time: '07:15',
      timeZone: 'Europe/Berlin',
      days: 'weekdays',
    });

    await page.locator('#wf-deadlineZone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    await page
      .locator('#wf-deadlineZone-error')
      .getByText(/IANA time zone/)
      .waitFor();
    await screenshot(page, 'workflow-schedule-features', WIDTHS.wide);
    await expectNoBlockingAxe(page, 'workflow-schedule-features', WIDTHS.wide, 'light');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    // The one refusal is the bad zone's save.
    expect(problems.failedRequests).toEqual([
      `/workflows/${workflowId}: PUT /v1/workflows/${workflowId} → 400`,
    ]);
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    const page = await open(`/workflows/${workflowId}`, WIDTHS.narrow, 'dark');
    await page.getByRole('region', { name: 'Fires owed' }).getByText(/owed:/).waitFor();
    await screenshot(page, 'workflow-schedule-features', WIDTHS.narrow);
    await expectNoBlockingAxe(page, 'workflow-schedule-features', WIDTHS.narrow, 'dark');
    expect(
      await horizontalOverflow(page, { page: 'workflow-schedule-features', width: WIDTHS.narrow }),
    ).toBeUndefined();
    await page.context().close();
  });
});
