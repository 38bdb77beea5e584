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
 * Today's schedule features on the job page and in the editor, in Chromium: an upcoming fire skipped
 * (with its reason) and undone, a move outside its window refused with the server's words beside the
 * input, the failure policy and the deadline shown, a backfill counted before it starts and then
 * cancelled from its list, the editor's preview marking the skipped fire and its policy fields showing
 * the local and the server's problems; at 1280 px (light) and 390 px (dark) with no serious axe-core
 * violation and no sideways scroll.
 */

/** The browser context's zone (browser.ts): `datetime-local` values are typed in it. */
const BROWSER_ZONE = 'America/New_York';
const HOUR = 3_600_000;

function localInput(ms: number): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: BROWSER_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
    .format(ms)
    .replace(' ', 'T');
}

describe('schedule features on the job page and in the editor', () => {
  let e: E2eStack;
  let browser: Browser;
  let jobId: number;

  beforeAll(async () => {
    [e, browser] = await Promise.all([startE2eStack('console-schedule-features'), sharedChromium()]);
    const appName = await e.createAutoGroup('console-features');
    const job = await e.createJob({
      appName,
      name: 'Hourly export',
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      timeZone: 'UTC',
      executorHandler: 'export',
      triggerStatus: 'RUNNING',
      failurePolicy: { pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 },
      deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
    });
    jobId = job.id;
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
  });

  const open = (path: string, width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, path, width, colorScheme);

  it('skips, refuses a move out of its window, undoes; shows the policy and deadline; backfills and cancels', async () => {
    const page = await open(`/jobs/${jobId}`, WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    await page.getByText('deadline 06:00 Europe/Berlin —').waitFor();
    await page.getByText('pause after 3 failures of the last 5; resumes 600 s later').waitFor();

    const fires = page.getByRole('table', { name: /^The next 10 fires/ });
    // The second fire: the first may be planned already (within 15 s of the hour).
    const second = fires.getByRole('row').nth(2);
    await second.getByRole('button', { name: /^Skip the fire at/ }).click();
    const skipDialog = page.getByRole('dialog', { name: 'Skip one fire' });
    await skipDialog.getByLabel('Reason (optional)').fill('holiday');
    await skipDialog.getByRole('button', { name: 'Skip this fire' }).click();
    await second.getByText('skipped (holiday), by').waitFor();
    const job = await e.call('GET', `/v1/jobs/${jobId}`);
    expect(job.body.occurrenceExceptions).toMatchObject([{ action: 'skip', reason: 'holiday' }]);

    // The third fire moved past the fourth: refused, with the window the server names.
    const third = fires.getByRole('row').nth(3);
    await third.getByRole('button', { name: /^Move the fire at/ }).click();
    const moveDialog = page.getByRole('dialog', { name: 'Move one fire' });
    const thirdTime = Date.parse((await third.locator('time').getAttribute('datetime')) as string);
    await moveDialog.getByLabel('Move to (your time zone)').fill(localInput(thirdTime + 2 * HOUR + 30_000));
    await moveDialog.getByRole('button', { name: 'Move this fire' }).click();
    await moveDialog
      .locator('#occurrence-to-error')
      .getByText(/must lie strictly between/)
      .waitFor();
    await screenshot(page, 'job-occurrence-move', WIDTHS.wide);
    await expectNoBlockingAxe(page, 'job-occurrence-move', WIDTHS.wide, 'light');
    await moveDialog.getByRole('button', { name: 'Cancel' }).click();

    await second.getByRole('button', { name: /^Undo the change of the fire at/ }).click();
    await second.getByText('as scheduled').waitFor();
    expect((await e.call('GET', `/v1/jobs/${jobId}`)).body.occurrenceExceptions).toEqual([]);

    await page.getByRole('button', { name: 'Backfill…' }).click();
    const backfill = page.getByRole('dialog', { name: 'Backfill “Hourly export”' });
    const lastHour = Math.floor(Date.now() / HOUR) * HOUR;
    await backfill.getByLabel('From (your time zone)').fill(localInput(lastHour - 3 * HOUR).slice(0, 16));
    await backfill.getByLabel('To (your time zone)').fill(localInput(lastHour - HOUR + 60_000).slice(0, 16));
    await backfill.getByRole('button', { name: 'Count the fires' }).click();
    await backfill.getByText('3 fires', { exact: true }).waitFor();
    await backfill.getByRole('button', { name: 'Start 3 fires' }).click();
    const backfills = page.getByRole('region', { name: 'Backfills', exact: true });
    // One fire starts at once; the rest wait for the monitors' sweep (a minute): it is still running.
    await backfills.getByRole('button', { name: /^Cancel backfill/ }).click();
    await backfills.getByText(/^cancelled by /).waitFor();
    await backfills.getByRole('progressbar', { name: /of 3 done/ }).waitFor();

    await screenshot(page, 'job-schedule-features', WIDTHS.wide);
    await expectNoBlockingAxe(page, 'job-schedule-features', WIDTHS.wide, 'light');
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    await page.context().close();
  });

  it('marks a skipped fire in the editor’s preview and shows the policy’s problems beside its fields', async () => {
    const fire = (await e.call('GET', `/v1/jobs/${jobId}/occurrences?limit=3`)).body.occurrences[2].time;
    const skipped = await e.call('POST', `/v1/jobs/${jobId}/occurrences/${fire}/skip`, { reason: 'audit' });
    expect(skipped.status).toBe(200);

    const page = await open(`/jobs/${jobId}/edit`, WIDTHS.wide, 'light');
    await page.getByRole('cell', { name: 'skipped (audit)' }).waitFor();
    await expect(page.getByLabel('Pause the schedule').inputValue()).resolves.toBe('ofLast');
    await page.getByLabel('Failures', { exact: true }).fill('6');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .locator('#job-pauseFailures-error')
      .getByText('6 failures cannot be more than the last 5.')
      .waitFor();

    await page.getByLabel('Failures', { exact: true }).fill('2');
    await page.getByLabel('Deadline time zone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .locator('#job-deadlineZone-error')
      .getByText(/IANA time zone/)
      .waitFor();
    await expectNoBlockingAxe(page, 'job-editor-policy', WIDTHS.wide, 'light');
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    for (const [path, name] of [
      [`/jobs/${jobId}`, 'job-schedule-features'],
      [`/jobs/${jobId}/edit`, 'job-editor-policy'],
    ] as const) {
      const page = await open(path, WIDTHS.narrow, 'dark');
      await screenshot(page, name, WIDTHS.narrow);
      await expectNoBlockingAxe(page, name, WIDTHS.narrow, 'dark');
      expect(await horizontalOverflow(page, { page: name, width: WIDTHS.narrow })).toBeUndefined();
      await page.context().close();
    }
  });
});
