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
  sharedChromium,
  WIDTHS,
  watchProblems,
} from './browser.js';

/**
 * The executors page in Chromium shows executor requests the stack refused: a table (app name,
 * address, reason, count, first and last seen) with the fix for each reason, and on the group's card
 * how many of its registrations were refused. The refusals are sent over HTTP as executors send them
 * (a wrong token for a group, a group's own token under an app name no group has); the page is then
 * checked at 1280 px (light) and 390 px (dark) for serious axe-core violations and sideways scroll.
 */

describe('refused executor registrations in the web console', () => {
  let e: E2eStack;
  let browser: Browser;
  let groupApp: string;
  const wrongTokenAddress = 'http://10.9.0.1:9999/';
  const typoAddress = 'http://10.9.0.2:9999/';

  const register = async (appName: string, address: string, token: string) => {
    const res = await fetch(`${e.stack.urls.api}/api/registry`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'XXL-JOB-ACCESS-TOKEN': token,
        'XXL-JOB-APPNAME': appName,
      },
      body: JSON.stringify({ registryGroup: 'EXECUTOR', registryKey: appName, registryValue: address }),
    });
    return (await res.json()) as { code: number };
  };

  beforeAll(async () => {
    [e, browser] = await Promise.all([
      startE2eStack('console-refused', { TICKRING_REFUSAL_WRITE_SECONDS: '0' }),
      sharedChromium(),
    ]);
    groupApp = await e.createAutoGroup('refused-ui');
    const set = await e.call('PUT', `/v1/groups/${groupApp}/access-token`, {});
    expect(set.status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await register(groupApp, wrongTokenAddress, 'wrong-token-1')).code).toBe(500);
    expect((await register(`${groupApp}-typo`, typoAddress, set.body.accessToken)).code).toBe(500);
  });

  afterAll(async () => {
    await closeContexts(browser);
    await e?.stop();
  });

  const open = (width: number, colorScheme: 'light' | 'dark') =>
    openConsolePage(browser, e.stack, '/executors', width, colorScheme);

  it('lists each refused key with its reason, count and fix, and counts them on the group', async () => {
    const page = await open(WIDTHS.wide, 'light');
    const problems = watchProblems(page);
    const section = page.getByRole('region', { name: 'Refused executor requests' });
    await section.waitFor();
    const rows = section.getByRole('row');
    const wrong = rows.filter({ hasText: wrongTokenAddress });
    const cells = async (row: typeof wrong) =>
      (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
    // App name and address; reason; count; first and last seen (relative times).
    await expect(cells(wrong)).resolves.toEqual([
      `${groupApp}\n${wrongTokenAddress}`,
      'wrong-token',
      '3',
      expect.stringMatching(/^first .+\nlast .+$/),
    ]);
    await expect(cells(rows.filter({ hasText: typoAddress }))).resolves.toEqual([
      `${groupApp}-typo\n${typoAddress}`,
      'unknown-app-name',
      '1',
      expect.stringMatching(/^first .+\nlast .+$/),
    ]);
    await section.getByText('No executor group has this app name', { exact: false }).waitFor();
    await section.getByText('The access token is not the one for this app name', { exact: false }).waitFor();

    const card = page.getByRole('article', { name: 'refused-ui' });
    await card.getByRole('link', { name: '1 refused registration' }).waitFor();

    await screenshot(page, 'executors-refused', WIDTHS.wide);
    const violations = (
      await runAxe(page, { page: 'executors-refused', width: WIDTHS.wide, colorScheme: 'light' })
    ).filter(isBlocking);
    expect(violations, describeViolations(violations)).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    await page.context().close();
  });

  it('fits a phone in the dark without sideways scroll or serious axe violations', async () => {
    const page = await open(WIDTHS.narrow, 'dark');
    await page.getByRole('region', { name: 'Refused executor requests' }).waitFor();
    await screenshot(page, 'executors-refused', WIDTHS.narrow);
    const violations = (
      await runAxe(page, { page: 'executors-refused', width: WIDTHS.narrow, colorScheme: 'dark' })
    ).filter(isBlocking);
    expect(violations, describeViolations(violations)).toEqual([]);
    expect(
      await horizontalOverflow(page, { page: 'executors-refused', width: WIDTHS.narrow }),
    ).toBeUndefined();
    await page.context().close();
  });
});
