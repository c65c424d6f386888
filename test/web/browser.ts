import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { buildTestApp, type TestApp } from '../helper.js';

// Functions given to page.evaluate run in the page. The server's tsconfig has no DOM types, so
// the browser globals they use are declared here, for this file only.
declare const document: any;
declare const window: any;

/** Debian's Chromium (`.ci/run` installs it); playwright-core downloads no browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/**
 * One headless Chromium for a test file. Fails loudly, never skips: a suite that passes because
 * it could not find a browser would say nothing about the web app.
 */
export async function launchBrowser(): Promise<Browser> {
  const buildError = inject('webBuildError');
  if (buildError) throw new Error(`The web app did not build (test/global-setup.ts ran buildWeb()): ${buildError}`);
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No browser for the web app's end-to-end tests: ${CHROMIUM_PATH} does not exist. ` +
        'Install Debian\'s chromium (`apt-get install chromium`, as .ci/run does) or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  try {
    return await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (error) {
    throw new Error(`Chromium at ${CHROMIUM_PATH} did not start: ${(error as Error).message}`);
  }
}

export interface WebApp extends TestApp {
  /** http://127.0.0.1:<port> */
  base: string;
  /** fetch against the app with a bearer token or cookie; JSON in and out. */
  call(auth: Record<string, string>, method: string, url: string, body?: unknown): Promise<{ status: number; json: any }>;
}

/** The real app on a fresh database, listening on loopback (the browser needs a real socket). */
export async function startWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  const t = await buildTestApp(env, { streamIntervals: { ping: 1000, accessCheck: 500 } });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const call = async (auth: Record<string, string>, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  return { ...t, base, call };
}

/** Logs in over HTTP and returns the `cookie` header (for `call`) and the raw token. */
export async function sessionFor(web: WebApp, email: string, password: string) {
  const res = await fetch(`${web.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const token = /tb_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!token) throw new Error('login set no session cookie');
  return { cookie: `tb_session=${token}`, token };
}

/** axe-core's one file, read once: evaluated in the page (over CDP, so the app's CSP does not apply), nothing fetched. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The phone every page is also checked at. */
export const PHONE = { width: 390, height: 844 };

/**
 * axe-core's color-contrast rule over what the page shows now, at 4.5:1 for every text (large text
 * included: the large-text threshold is moved out of reach). Returns one line per failing text:
 * where, what it says, the two colours and the ratio; text in its background's own colour counts
 * (axe leaves it undecided). Text axe cannot judge (on a picture or a gradient) is not counted.
 */
export async function contrastViolations(page: Page): Promise<string[]> {
  const url = page.url();
  if (!url.startsWith('http')) return [];
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(`${AXE_SOURCE}\n;0`);
  const found: string[] = await page.evaluate(async () => {
    const axe = window.axe;
    axe.configure({
      checks: [{
        id: 'color-contrast',
        options: {
          ignoreUnicode: true, ignoreLength: false, ignorePseudo: false, boldValue: 700,
          boldTextPt: 10_000, largeTextPt: 10_000,
          contrastRatio: { normal: { expected: 4.5 }, large: { expected: 4.5 } },
          pseudoSizeThreshold: 0.25, shadowOutlineEmMax: 0.2, textStrokeEmMin: 0.03,
        },
      }],
    });
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    // axe files text in the colour of its background (1:1, "white on white") under "incomplete", as
    // perhaps meant to be hidden: here it is a failure like any other.
    const sameColour = result.incomplete.map((v: any) => ({ ...v, nodes: v.nodes.filter((n: any) => n.any[0]?.data?.messageKey === 'equalRatio') }));
    return [...result.violations, ...sameColour].flatMap((v: any) =>
      v.nodes.map((n: any) => {
        const d = n.any[0]?.data ?? {};
        const text = (document.querySelector(n.target[0])?.textContent ?? '').trim().slice(0, 60);
        return `${n.target.join(' ')} “${text}”: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio || 1}:1`;
      }),
    );
  });
  const size = page.viewportSize();
  return found.map((line) => `${url} at ${size?.width}×${size?.height}: ${line}`);
}

/**
 * The contrast check at the tab's own size and at the other one (a 390 px phone, or 1280×800 for a
 * phone tab), then back: the page keeps its state (open menus, dialogs) through the resize.
 */
export async function checkContrast(page: Page): Promise<string[]> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const out = await contrastViolations(page);
  if (!page.url().startsWith('http')) return out;
  const other = size.width <= 700 ? { width: 1280, height: 800 } : PHONE;
  await page.setViewportSize(other);
  try {
    out.push(...(await contrastViolations(page)));
  } finally {
    await page.setViewportSize(size);
  }
  return out;
}

export interface Tab {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions and CSP violations seen so far: a page that works shows none. */
  problems: string[];
  /** Text under 4.5:1, from the contrast check run on each page before the tab leaves it. */
  contrast: string[];
  /** Runs the contrast check now (on what is open: a menu, a dialog), adding to `contrast`. */
  checkContrast(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh browser context (its own cookies and cache) and page, signed in as the user when one
 * is given (the session cookie set directly: signing in through the form has a test of its own).
 */
export async function openTab(
  browser: Browser,
  web: WebApp,
  options: { user?: { email: string; password: string }; viewport?: { width: number; height: number }; touch?: boolean } = {},
): Promise<Tab> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    baseURL: web.base,
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  if (options.user) {
    const { token } = await sessionFor(web, options.user.email, options.user.password);
    await context.addCookies([{ name: 'tb_session', value: token, url: web.base, httpOnly: true, sameSite: 'Strict' }]);
  }
  const page = await context.newPage();
  // Bounds for a busy 2-core CI box (a page load there has taken over 5 s beside other test files); a passing
  // test waits no longer for them.
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(30_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  // Every page the test opens is checked for contrast as the test leaves it (another goto, a
  // reload, closing the tab): by then it shows what the test made it show.
  const contrast: string[] = [];
  const check = async () => {
    if (page.isClosed()) return;
    contrast.push(...(await checkContrast(page)));
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => (await check(), goto(...args));
  page.reload = async (...args: Parameters<Page['reload']>) => (await check(), reload(...args));
  return {
    context,
    page,
    problems,
    contrast,
    checkContrast: check,
    async close() {
      await check();
      await context.close();
      expect(problems, 'the page threw or broke its Content-Security-Policy').toEqual([]);
      expect([...new Set(contrast)], 'text under 4.5:1 contrast (axe-core color-contrast)').toEqual([]);
    },
  };
}

/** The ids of the cards shown in each list, in screen order (list id → card ids). */
export async function cardsOnScreen(page: Page): Promise<Record<number, number[]>> {
  return page.evaluate(() => {
    const out: Record<number, number[]> = {};
    for (const list of document.querySelectorAll('.list[data-list-id]')) {
      out[Number(list.dataset.listId)] = [...list.querySelectorAll('ol.cards li.card[data-card-id]')].map((li: any) => Number(li.dataset.cardId));
    }
    return out;
  });
}

/** The list ids in screen order. */
export async function listsOnScreen(page: Page): Promise<number[]> {
  return page.evaluate(() => [...document.querySelectorAll('.list[data-list-id]')].map((l: any) => Number(l.dataset.listId)));
}

/** The same two things as the server has them. */
export async function boardFromApi(web: WebApp, auth: Record<string, string>, boardId: number) {
  const { status, json } = await web.call(auth, 'GET', `/api/boards/${boardId}`);
  if (status !== 200) throw new Error(`GET /api/boards/${boardId}: ${status}`);
  const lists = json.lists as { id: number; cards: { id: number }[] }[];
  return {
    lists: lists.map((l) => l.id),
    cards: Object.fromEntries(lists.map((l) => [l.id, l.cards.map((c) => c.id)])) as Record<number, number[]>,
  };
}

/** The page's body is no wider than its viewport (nothing to scroll sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);
}
