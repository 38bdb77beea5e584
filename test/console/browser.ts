import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { consoleOrigin } from './console-origin.js';

/**
 * The browser side of the console's end-to-end test: Debian's Chromium driven by playwright-core
 * (no browser is downloaded), screenshots into test-output/console/, and axe-core run inside the
 * page under the console's own CSP.
 */

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const OUTPUT_DIR = join(repoRoot, 'test-output', 'console');

export const CHROMIUM = '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Debian's Chromium; its absence fails (never skips) the test, saying how to get it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing. The console's browser test drives Debian's Chromium (never a downloaded ` +
        'browser): `.ci/run` installs it through tools/ci/ensure-chromium.sh; on this machine run ' +
        '`bash tools/ci/ensure-chromium.sh` (as root), then the test again.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}

let shared: Promise<Browser> | undefined;

/**
 * Debian's Chromium, launched once per test worker and shared by the browser files it runs (the
 * integration project keeps one module graph per worker: isolate false): a launch costs 1–3 s of
 * CPU. Each test opens contexts of its own, and a file ends with
 * {@link closeContexts}; playwright kills the browser when the worker exits. A browser that went
 * away (crashed) is launched again.
 */
export function sharedChromium(): Promise<Browser> {
  if (shared === undefined) {
    const launching = launchChromium();
    const forget = () => {
      if (shared === launching) shared = undefined;
    };
    launching.then((browser) => browser.on('disconnected', forget), forget);
    shared = launching;
  }
  return shared;
}

/** A file's end: closes every context it left open in the shared browser, which stays for the next file. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** The two widths every page is checked at. */
export const WIDTHS = { wide: 1280, narrow: 390 } as const;

export interface ContextOptions {
  readonly width: number;
  readonly colorScheme?: 'light' | 'dark';
  /** A token the console finds in this tab's sessionStorage, as if signed in. */
  readonly token?: string;
}

/**
 * A fresh context at one width (no cache, no storage). Its height is a phone's at 390 px, a laptop's
 * at 1280 px; `token` signs the console in before any of its scripts run.
 */
export async function newContext(browser: Browser, options: ContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.width <= 600 ? 844 : 860 },
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-US',
    // The viewer sits in another zone than the jobs: a time shown in the job's zone is the job's doing.
    timezoneId: 'America/New_York',
    reducedMotion: 'reduce',
  });
  // Fail a step in seconds, not in the 30 s default: every wait here is for something local.
  context.setDefaultTimeout(10_000);
  if (options.token !== undefined) {
    await context.addInitScript((token: string) => {
      (
        globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
      ).sessionStorage.setItem('tickring.token', token);
    }, options.token);
  }
  return context;
}

/** What went wrong in a page that no assertion looks at: uncaught errors and CSP refusals. */
export interface PageProblems {
  readonly pageErrors: string[];
  readonly cspViolations: string[];
  readonly consoleErrors: string[];
  /** Answers of 400 and up to the page's requests: method, status, path. */
  readonly failedRequests: string[];
}

/** Starts recording the page's uncaught errors, CSP refusals and console errors. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { pageErrors: [], cspViolations: [], consoleErrors: [], failedRequests: [] };
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    problems.failedRequests.push(
      `${new URL(page.url()).pathname}: ${response.request().method()} ${url.pathname}${url.search} → ${response.status()}`,
    );
  });
  page.on('pageerror', (err) => problems.pageErrors.push(`${page.url()}: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/Content Security Policy/i.test(text)) problems.cspViolations.push(`${page.url()}: ${text}`);
    else problems.consoleErrors.push(`${page.url()}: ${text}`);
  });
  return problems;
}

/**
 * Waits until the page shows its content: its h1 is visible and nothing says it is still loading
 * (no aria-busy="true" left, the console's loading sign).
 */
export async function settle(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible', timeout: timeoutMs });
  const busy = page.locator('[aria-busy="true"]');
  const deadline = Date.now() + timeoutMs;
  while ((await busy.count()) > 0) {
    if (Date.now() > deadline) {
      const shown = (
        await busy.evaluateAll((els) => els.map((el) => (el as { outerHTML: string }).outerHTML))
      )
        .map((html) => html.slice(0, 200))
        .join('\n');
      throw new Error(`${page.url()} still shows busy element(s) after ${timeoutMs} ms:\n${shown}`);
    }
    await page.waitForTimeout(50);
  }
}

/**
 * With TICKRING_CONSOLE_SCREENSHOTS=1, writes test-output/console/<name>-<width>.png (the whole page) and
 * returns its path; otherwise does nothing (undefined). The pictures are for a person to look at, nothing
 * asserts on them, and encoding a whole page as PNG cost about a third of the time axe-core takes on it
 * (63 checks of the console test: 23 s of screenshots beside 53 s of axe-core, measured under load).
 */
export async function screenshot(page: Page, name: string, width: number): Promise<string | undefined> {
  if (process.env.TICKRING_CONSOLE_SCREENSHOTS !== '1') return undefined;
  await mkdir(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
  return path;
}

/** Writes a screenshot for the README (docs/images/<file>): the visible part only. */
export async function readmeScreenshot(page: Page, file: string): Promise<string> {
  const path = join(repoRoot, 'docs', 'images', file);
  await mkdir(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: false, animations: 'disabled', caret: 'hide' });
  return path;
}

// ---------------------------------------------------------------------------------------------
// axe-core

export interface AxeViolation {
  readonly page: string;
  readonly width: number;
  readonly colorScheme: string;
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodeCount: number;
  readonly nodes: { readonly target: string; readonly summary: string }[];
}

let axeSource: string | undefined;

async function loadAxeSource(): Promise<string> {
  if (axeSource === undefined) {
    const require = createRequire(import.meta.url);
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  }
  return axeSource;
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A/AA and best practices) and returns every
 * violation. The console's CSP (script-src 'self') refuses an inline <script>, so addScriptTag({content})
 * cannot inject axe; the source is evaluated through the DevTools protocol instead (page.evaluate),
 * which the CSP does not govern, and the console keeps running under its real CSP.
 */
export async function runAxe(
  page: Page,
  where: { page: string; width: number; colorScheme: string },
): Promise<AxeViolation[]> {
  const loaded = await page.evaluate('typeof globalThis.axe === "object"');
  if (!loaded) await page.evaluate(await loadAxeSource());
  const raw = (await page.evaluate(`
    axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    }).then((r) => r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodeCount: v.nodes.length,
      nodes: v.nodes.slice(0, 3).map((n) => ({
        target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' '),
        summary: (n.failureSummary ?? '').replace(/\\s+/g, ' ').slice(0, 300),
      })),
    })))
  `)) as Omit<AxeViolation, 'page' | 'width' | 'colorScheme'>[];
  return raw.map((v) => ({ ...where, ...v }));
}

/** A page wider than the viewport (the whole page scrolls sideways): by how much, and what sticks out. */
export interface Overflow {
  readonly page: string;
  readonly width: number;
  readonly overflowPx: number;
  readonly culprits: string[];
}

/**
 * Whether the page scrolls sideways at this width; a table may scroll inside its .table-wrap, the
 * page itself may not. Names the innermost elements reaching past the right edge.
 */
export async function horizontalOverflow(
  page: Page,
  where: { page: string; width: number },
): Promise<Overflow | undefined> {
  const found = (await page.evaluate(`(() => {
    const root = document.documentElement;
    const overflowPx = root.scrollWidth - root.clientWidth;
    if (overflowPx <= 0) return { overflowPx, culprits: [] };
    const limit = root.clientWidth + 1;
    const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > limit);
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    const culprits = innermost.slice(0, 4).map((el) => {
      const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      return name + ' "' + (el.textContent || '').trim().slice(0, 60) + '" right=' + Math.round(el.getBoundingClientRect().right);
    });
    return { overflowPx, culprits };
  })()`)) as { overflowPx: number; culprits: string[] };
  return found.overflowPx > 0 ? { ...where, ...found } : undefined;
}

export const isBlocking = (v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical';

/** One line per violation, with the first nodes' targets: what a failed assertion shows. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `- [${v.page} @ ${v.width}px ${v.colorScheme}] ${v.id} (${v.impact}): ${v.help} — ${v.nodeCount} node(s), e.g. ` +
        v.nodes.map((n) => `${n.target} {${n.summary}}`).join('; '),
    )
    .join('\n');
}

export async function writeReport(file: string, content: unknown): Promise<void> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  await writeFile(join(OUTPUT_DIR, file), `${JSON.stringify(content, null, 2)}\n`);
}

/** A stack whose console a test opens: its API (the console's origin) and its admin token. */
export interface ConsoleStack {
  readonly urls: { readonly api: string };
  readonly tokens: { readonly adminToken: string };
}

/** Opens `path` of the stack's console in a fresh context signed in as its admin, settled. */
export async function openConsolePage(
  browser: Browser,
  stack: ConsoleStack,
  path: string,
  width: number,
  colorScheme: 'light' | 'dark',
): Promise<Page> {
  const origin = await consoleOrigin(stack.urls.api);
  const context = await newContext(browser, { width, colorScheme, token: stack.tokens.adminToken });
  const page = await context.newPage();
  await page.goto(`${origin.url}${path}`);
  await settle(page);
  return page;
}

/** Fails the test on any serious or critical axe-core violation of the page as it is now. */
export async function expectNoBlockingAxe(
  page: Page,
  name: string,
  width: number,
  colorScheme: 'light' | 'dark',
): Promise<void> {
  const violations = (await runAxe(page, { page: name, width, colorScheme })).filter(isBlocking);
  expect(violations, describeViolations(violations)).toEqual([]);
}
