import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { OCR_STYLES, renderSample } from '../answers/ocr-images.js';
import { KNOWLEDGE, MESSAGES } from '../answers/try-box-fixtures.js';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

let browser: Browser;
let web: WebApp;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  // The product's defaults: ranking by meaning with the built-in sentence encoder, OCR of screenshots.
  // A screenshot's OCR gets time enough on a loaded machine (the default 2 s is for a server's answers).
  web = await startWebApp({ SEMANTIC_RANKING: 'true', ATTACHMENT_READ_TIMEOUT_MS: '60000' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'try-box-'));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await web?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the try box answers what a new user asks', () => {
  it('answers typos, plan names and read screenshots whose article ranks first, and quotes the part that answers', async () => {
    const w = await answerWorkspace(web, { articles: KNOWLEDGE });
    // The knowledge's vectors are computed in the background after an import; a new user reaches the try box after that.
    await web.app.semanticRanking!.build({ db: web.db.prisma, workspaceId: w.workspaceId });
    const tab = await openTab(browser, web, { user: w.owner });
    const { page } = tab;
    await page.goto(`/support/${w.workspaceId}/try`);
    const outcomes: { message: string; answered: boolean; first: string | null; right: boolean; reply: string; why: string | null }[] = [];
    for (const [i, m] of MESSAGES.entries()) {
      // Each message a conversation of its own, as each customer's would be.
      if (i > 0) await page.getByRole('button', { name: 'New conversation' }).click();
      await page.getByLabel('Message').fill(m.message);
      if (m.screenshot) {
        const png = path.join(dir, `screen-${i}.png`);
        await writeFile(png, await renderSample(browser, { kind: 'dialog', title: m.screenshot.title, text: m.screenshot.text, article: m.article }, OCR_STYLES[0]!, 'png'));
        await page.getByLabel(/Attachments/).setInputFiles(png);
      }
      await page.getByRole('button', { name: 'Ask' }).click();
      const answer = page.getByTestId('answer').first();
      // The first screenshot starts an OCR reader (seconds on a loaded machine).
      await answer.waitFor({ timeout: 150_000 });
      const text = await answer.innerText();
      const first = await answer.locator('.sources li a').first().innerText().catch(() => null);
      const answered = text.includes('Answered');
      const title = KNOWLEDGE.find((a) => a.externalId === m.article)!.title;
      outcomes.push({ message: m.message, answered, first, right: answered && first === title, reply: await answer.locator('.reply').innerText(), why: answered ? null : await answer.locator('.why').innerText() });
    }
    console.log(outcomes.map((o) => `${o.right ? 'answered right' : o.answered ? 'answered WRONG' : 'handed over  '} | first: ${o.first} | ${o.message}`).join('\n'));
    const table = JSON.stringify(outcomes, null, 1);
    // The right article comes first for nearly every message (typos corrected, plan names, screenshots read)…
    expect(outcomes.filter((o) => o.first === KNOWLEDGE.find((a) => a.externalId === MESSAGES[outcomes.indexOf(o)]!.article)!.title).length, table).toBeGreaterThanOrEqual(9);
    // …and is answered for 8 of them (issue #32's target): a typo, a misspelt "doesn't", "how much", a screenshot
    // pointed at. The decision still hands over messages whose key word the knowledge lacks ("stop" for "cancel",
    // "spreadsheet" for "CSV").
    expect(outcomes.filter((o) => o.right).length, table).toBeGreaterThanOrEqual(8);
    // Never an answer from the wrong article.
    expect(outcomes.filter((o) => o.answered && !o.right)).toEqual([]);

    // A hand-off that cites an article says how close it came, never that nothing matched.
    const handed = outcomes.find((o) => !o.answered && o.first);
    if (handed) {
      expect(handed.why).toMatch(new RegExp(`The best match, "${handed.first}" \\(0\\.\\d\\d\\), was not close enough to answer on its own`));
      expect(handed.why).not.toContain('Nothing');
    }
    // The reply is the part of the article that answers, not the article: the paragraph about the reset link,
    // without the section on expired links, then where to read the whole article.
    const first = outcomes[0]!.reply;
    expect(first).toContain('Forgot password?');
    expect(first).not.toContain('Links expire after one hour');
    expect(first).toContain('(From "Reset your password".)');
    await tab.close();
  }, 600_000);
});
