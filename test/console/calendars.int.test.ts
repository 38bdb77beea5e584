import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from '../e2e-stack.js';
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
 * The calendars pages in Chromium: the list names a calendar imported from an .ics file (its zone,
 * working days, holiday and make-up counts), and its page shows 2030 month by month, each day's kind
 * in its accessible name (a holiday with its label, a make-up Saturday, a weekend, a working day),
 * the holidays and make-up days listed; at 1280 px (light) and 390 px (dark) with no serious axe-core
 * violation and no sideways scroll.
 */

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//console test//EN',
  'X-WR-CALNAME:China workdays',
  'X-WR-TIMEZONE:Asia/Shanghai',
  'BEGIN:VEVENT',
  'UID:national-day',
  'DTSTAMP:20300101T000000Z',
  'DTSTART;VALUE=DATE:20301001',
  'DTEND;VALUE=DATE:20301008',
  'SUMMARY:National Day',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:makeup',
  'DTSTAMP:20300101T000000Z',
  'DTSTART;VALUE=DATE:20300928',
  'SUMMARY:Make-up for National Day',
  'CATEGORIES:WORKDAY',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('calendars in the web console', () => {
  let e: E2eStack;
  let browser: Browser;
  const id = `cn-console-${Date.now().toString(36)}`;

  beforeAll(async () => {
    [e, browser] = await Promise.all([startE2eStack('console-calendars'), sharedChromium()]);
    const imported = await e.call('POST', '/v1/calendars/import', { id, ics: ICS });
    expect(imported.status).toBe(201);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
  });

  const open = (path: string, width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, path, width, colorScheme);

  it('lists the calendar and opens it as a year of months, each day named with its kind', async () => {
    const page = await open('/calendars', WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    const row = page.getByRole('row').filter({ hasText: id });
    await expect(
      row
        .getByRole('cell')
        .allInnerTexts()
        .then((cells) => cells.slice(0, 5).map((t) => t.trim())),
    ).resolves.toEqual([`China workdays\n${id}`, 'Asia/Shanghai', 'Mon–Fri', '1', '1']);

    await row.getByRole('link', { name: 'China workdays' }).click();
    await page.waitForURL(`**/calendars/${id}`);
    await settle(page);
    // Back to 2030 from this year with the year buttons (a reader of the page would do the same).
    const thisYear = new Date().getFullYear();
    for (let year = thisYear; year !== 2030; year += year > 2030 ? -1 : 1) {
      await page.getByRole('button', { name: `Year ${year > 2030 ? year - 1 : year + 1}` }).click();
    }
    await page.getByRole('heading', { name: '2030', level: 2 }).waitFor();
    const october = page.getByRole('table', { name: /^October 2030/ });
    await october.getByRole('cell', { name: '2030-10-01, holiday: National Day' }).waitFor();
    await october.getByRole('cell', { name: '2030-10-08, working day' }).waitFor();
    await expect(october.locator('caption').innerText()).resolves.toBe('October 2030 (18 working days)');
    const september = page.getByRole('table', { name: /^September 2030/ });
    await september
      .getByRole('cell', { name: '2030-09-28, make-up workday: Make-up for National Day' })
      .waitFor();
    await september.getByRole('cell', { name: '2030-09-29, not a working weekday' }).waitFor();
    expect(await page.getByRole('table', { name: /2030/ }).count()).toBe(12);
    await page
      .getByRole('region', { name: 'Holidays (1)' })
      .getByRole('row', { name: '2030-10-01 – 2030-10-07 National Day' })
      .waitFor();

    await screenshot(page, 'calendar', WIDTHS.wide);
    const violations = (
      await runAxe(page, { page: 'calendar', width: WIDTHS.wide, colorScheme: 'light' })
    ).filter(isBlocking);
    expect(violations, describeViolations(violations)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.failedRequests).toEqual([]);
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    for (const path of ['/calendars', `/calendars/${id}?year=2030`]) {
      const page = await open(path, WIDTHS.narrow, 'dark');
      const name = path === '/calendars' ? 'calendars' : 'calendar';
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
