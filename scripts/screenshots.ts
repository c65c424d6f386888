/**
 * Takes the manual's screenshots (docs/screenshots/*.png, shown in README.md, docs/web-app.md and docs/connector.md) of the web app in Debian's Chromium:
 * the real app on a fresh embedded database in a temporary directory, filled through the same
 * HTTP endpoints the pages use (boards through /api, the support console through /agent, answers
 * through /v1/answer, a ticket through /v1/tickets), with a webhook receiver on loopback.
 * Usage: npx tsx scripts/screenshots.ts [outDir=docs/screenshots]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium, type Page } from 'playwright-core';
import { createUser } from '../src/accounts/users/create-user.js';
import { buildApp } from '../src/app.js';
import { configFrom } from '../src/config.js';
import { buildWeb } from '../src/web/build.js';
import { ARTICLES } from '../test/answers/answer-fixtures.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/web/browser.js';
import { EventBus } from '../src/boards/activity/event-bus.js';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(root, process.argv[2] ?? 'docs/screenshots');
const password = 'screenshot password';

await buildWeb();
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tb-screenshots-'));
// No load shedding: on a busy machine the seeding below would be refused (503 busy) half-way.
const config = configFrom({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,5m', RATE_LIMIT_MAX: '100000', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
const app = await buildApp({ events: new EventBus(), config });
const base = await app.listen({ host: '127.0.0.1', port: 0 });

// A receiver that fails its first delivery and accepts the rest, so the log shows a retry.
let received = 0;
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (received++ === 0) response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"maintenance, back in a minute"}');
    else response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/support`;

const admin = await createUser({ db: app.db.prisma, email: 'ada@example.com', password, name: 'Ada Lovelace', siteAdmin: true });
const others = await Promise.all(
  [
    ['grace@example.com', 'Grace Hopper'],
    ['alan@example.com', 'Alan Turing'],
    ['edsger@example.com', 'Edsger Dijkstra'],
  ].map(([email, name]) => createUser({ db: app.db.prisma, email: email!, password, name: name! })),
);

// Signed in as the browser does (its User-Agent shows in the account page's session list).
const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': desktop }, body: JSON.stringify({ email: admin.email, password }) });
const session = /tb_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;

async function call<T = any>(method: string, url: string, body?: unknown, auth: Record<string, string> = { cookie: `tb_session=${session}`, origin: base }): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

// A board with the parts real boards carry.
const board = await call('POST', '/api/boards', { name: 'Website relaunch', description: 'Everything for the new site, due end of quarter.', color: 'ocean' });
for (const user of others) await call('POST', `/api/boards/${board.id}/members`, { email: user.email, role: user === others[2] ? 'observer' : 'member' });
const labels: any[] = [];
for (const [name, color] of [['Design', 'purple'], ['Backend', 'blue'], ['Bug', 'red'], ['Copy', 'yellow'], ['Blocked', 'orange']] as const) {
  labels.push(await call('POST', `/api/boards/${board.id}/labels`, { name, color }));
}
const estimate = await call('POST', `/api/boards/${board.id}/custom-fields`, { name: 'Estimate (days)', type: 'number' });
const lists: any[] = [];
for (const name of ['Backlog', 'In progress', 'Review', 'Done']) lists.push(await call('POST', `/api/boards/${board.id}/lists`, { name }));
const cardsByList: string[][] = [
  ['Pick the new typeface', 'Write the pricing page copy', 'Cookie banner without dark patterns', 'Migrate the blog posts', 'Image CDN for product shots'],
  ['Home page hero section', 'Sign-up flow: e-mail verification', 'Fix: footer links 404 on mobile'],
  ['Accessibility audit of the header', 'Contact form spam protection'],
  ['Set up the staging server', 'Choose the analytics tool', 'Redirects from the old URLs'],
];
const cards: any[] = [];
for (const [l, titles] of cardsByList.entries()) {
  for (const [i, title] of titles.entries()) {
    const card = await call('POST', `/api/lists/${lists[l].id}/cards`, {
      title,
      description: i === 0 ? 'See the brief in the shared drive. Keep it readable at small sizes.' : undefined,
      dueAt: i % 3 === 0 ? new Date(Date.now() + (l + i + 2) * 86_400_000).toISOString().slice(0, 10) : undefined,
      labelIds: [labels[(l + i) % labels.length].id, ...(i % 2 ? [labels[(l + i + 2) % labels.length].id] : [])],
      memberIds: [[admin, ...others][(l + i) % 3]!.id],
    });
    cards.push(card);
  }
}
const featured = cards[5]; // "Home page hero section"
// Archived items, for the archive panel: two cards, and a list archived with its cards.
for (const title of ['Old logo files', 'Newsletter sign-up box']) {
  const card = await call('POST', `/api/lists/${lists[0].id}/cards`, { title, labelIds: [labels[0].id] });
  await call('PATCH', `/api/cards/${card.id}`, { archived: true });
}
{
  const parked = await call('POST', `/api/boards/${board.id}/lists`, { name: 'Ideas parked' });
  for (const title of ['Dark mode', 'Podcast page', 'Customer stories']) await call('POST', `/api/lists/${parked.id}/cards`, { title });
  await call('PATCH', `/api/lists/${parked.id}`, { archived: true });
}
await call('PUT', `/api/cards/${featured.id}/fields/${estimate.id}`, { value: 3 });
const checklist = await call('POST', `/api/cards/${featured.id}/checklists`, { name: 'Steps' });
for (const [i, name] of ['Sketches', 'Copy from marketing', 'Responsive layout', 'Review with the team'].entries()) {
  const item = await call('POST', `/api/checklists/${checklist.id}/items`, { name });
  if (i < 2) await call('PATCH', `/api/items/${item.id}`, { checked: true });
}
await call('POST', `/api/cards/${featured.id}/comments`, { text: 'The first draft is in Figma; feedback welcome before Thursday.' });
{
  // An attachment, for the card's badge and the dialog's list.
  const form = new FormData();
  form.append('file', new Blob(['Hero section: headline, sub-headline, call to action.\n'], { type: 'text/plain' }), 'hero-brief.txt');
  const res = await fetch(`${base}/api/cards/${featured.id}/attachments`, { method: 'POST', headers: { cookie: `tb_session=${session}`, origin: base }, body: form });
  if (res.status !== 201) throw new Error(`attachment: ${res.status} ${await res.text()}`);
}
// An invitation of an address without an account: its link opens the invitation-accept page.
const invitation = await call('POST', `/api/boards/${board.id}/members`, { email: 'barbara@example.com', role: 'member' });
const invitationPath = new URL(invitation.invitation.url).pathname;
// A second session of the admin's, from a phone, for the account page's session list.
await fetch(`${base}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1' },
  body: JSON.stringify({ email: admin.email, password }),
});
await call('POST', '/api/boards', { name: 'Support rota', color: 'forest' });
await call('POST', '/api/boards', { name: 'Q3 planning', color: 'sunset' });
await call('POST', '/api/boards', { name: 'Hiring', color: 'purple' });

// Personal API keys.
await call('POST', '/account/keys', { name: 'Nightly import job', permission: 'write', boardIds: [board.id], expiresIn: '90d' });
await call('POST', '/account/keys', { name: 'Read-only dashboard', permission: 'read', boardIds: null, expiresIn: 'never' });

// A support workspace: knowledge, an agent, answers, a ticket and a webhook.
const workspace = await call('POST', '/agent/workspaces', { name: 'Acme Support' });
const ws = `/agent/workspaces/${workspace.id}`;
await call('POST', `${ws}/articles/import`, { articles: ARTICLES });
await call('POST', `${ws}/agents`, { name: 'Help centre assistant', referralText: 'Our team answers within one working day.' });
const { token: answerKey } = await call('POST', `${ws}/answer-keys`, { name: 'Ticketing integration' });
const { endpoint } = await call('POST', `${ws}/webhooks`, { url: receiverUrl, description: 'Ticketing system' });
const { token: workspaceToken } = await call('POST', `${ws}/token`);
const questions = [
  'I forgot my password, how do I get a reset link?',
  'How do I export my data?',
  'Can I change the e-mail address of my account?',
  'Do you support single sign-on with Okta?',
  'What is the airspeed velocity of an unladen swallow?',
  'I want to talk to a person please',
  'How do I cancel my subscription?',
  'Is there a dark mode?',
];
let lastConversation: string | undefined;
for (let i = 0; i < 60; i++) {
  const message = questions[(i * 7) % questions.length]!;
  const answer = await call('POST', '/v1/answer', { message, channel: i % 3 ? 'chat' : 'email' }, { 'x-api-key': answerKey });
  lastConversation = answer.conversationId;
}
// Spread the answers over the last two weeks, so the metrics' charts have days to show (the
// one place the data is written directly: the API stamps answers with the time they are made).
await app.db.prisma.$executeRaw`UPDATE "ConversationTurn" SET "createdAt" = "createdAt" - ((id * 5) % 14) * interval '1 day' WHERE id % 9 <> 0`;
await app.db.prisma.$executeRaw`UPDATE "Conversation" c SET "createdAt" = t."createdAt" FROM "ConversationTurn" t WHERE t."conversationId" = c.id`;
const ticket = await call(
  'POST',
  '/v1/tickets',
  { subject: 'Wants to talk to a person', description: 'Asked the agent for a human.', requester: { email: 'customer@example.com' }, priority: 'high', conversationId: lastConversation },
  { authorization: `Bearer ${workspaceToken}` },
);
await new Promise((r) => setTimeout(r, 3000)); // the webhook fails once, then is delivered
// A workspace created a moment ago, with its first articles: the console's first run.
const fresh = await call('POST', '/agent/workspaces', { name: 'Billing team' });
await call('POST', `/agent/workspaces/${fresh.id}/articles/import`, { articles: ARTICLES.slice(0, 3) });
// Files for the knowledge import's preview (one of them replaces an article).
const importDir = await mkdtemp(path.join(os.tmpdir(), 'tb-import-'));
const importFiles = {
  'Getting started.md': '# Getting started with Acme\n\nWelcome! Read **this** first: it takes five minutes.\n\n## Install\n\n* Download the app for your system\n* Run `acme setup` and sign in\n',
  'refund-policy.html': '<html><head><title>Refund policy</title></head><body><h1>Refund policy</h1><p>Refunds within <b>30 days</b> of purchase, no questions asked.</p><ul><li>Unused seats</li><li>Annual plans, pro rata</li></ul></body></html>',
  'Shipping times.txt': 'We ship within 2 working days.\nExpress delivery arrives the next working day.\n',
  [`${ARTICLES[0]!.externalId}.md`]: `# ${ARTICLES[0]!.title}\n\n${ARTICLES[0]!.body}\n`,
  'notes.md': '# Draft\n',
};
for (const [name, text] of Object.entries(importFiles)) await writeFile(path.join(importDir, name), text);
const warranty = await PDFDocument.create();
warranty.addPage().drawText('Every device carries a two-year warranty covering parts and labour.', { x: 40, y: 700, size: 12, font: await warranty.embedFont(StandardFonts.Helvetica) });
await writeFile(path.join(importDir, 'Warranty terms.pdf'), await warranty.save());

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
await mkdir(outDir, { recursive: true });
const shots: string[] = [];
async function shoot(page: Page, name: string, url: string, ready: (page: Page) => Promise<unknown>, after?: (page: Page) => Promise<unknown>) {
  await page.goto(`${base}${url}`);
  await ready(page);
  await after?.(page);
  await page.waitForTimeout(300);
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  shots.push(path.relative(root, file));
}
/**
 * A picture drawn on a canvas in the browser, as PNG bytes: a hero-section mock-up for the
 * featured card's cover, or a face-like portrait for an avatar (no image files in the repository).
 */
async function drawPicture(kind: 'hero' | 'portrait', hue: number): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    const dataUrl: string = await page.evaluate(
      ({ kind, hue }) => {
        const doc = (globalThis as any).document;
        const canvas = doc.createElement('canvas');
        canvas.width = kind === 'hero' ? 640 : 160;
        canvas.height = kind === 'hero' ? 360 : 160;
        const g = canvas.getContext('2d');
        const w = canvas.width;
        const h = canvas.height;
        const sky = g.createLinearGradient(0, 0, w, h);
        sky.addColorStop(0, `hsl(${hue} 70% 55%)`);
        sky.addColorStop(1, `hsl(${hue + 40} 70% 35%)`);
        g.fillStyle = sky;
        g.fillRect(0, 0, w, h);
        g.fillStyle = 'rgba(255,255,255,0.92)';
        if (kind === 'hero') {
          g.fillRect(40, 40, 300, 34);
          g.fillStyle = 'rgba(255,255,255,0.7)';
          g.fillRect(40, 90, 240, 14);
          g.fillRect(40, 114, 200, 14);
          g.fillStyle = `hsl(${hue + 180} 80% 60%)`;
          g.fillRect(40, 150, 120, 36);
          g.fillStyle = 'rgba(255,255,255,0.25)';
          g.beginPath();
          g.arc(500, 200, 110, 0, Math.PI * 2);
          g.fill();
        } else {
          g.beginPath();
          g.arc(80, 62, 30, 0, Math.PI * 2);
          g.fill();
          g.beginPath();
          g.ellipse(80, 150, 52, 50, 0, Math.PI, 0);
          g.fill();
        }
        return canvas.toDataURL('image/png');
      },
      { kind, hue },
    );
    return Buffer.from(dataUrl.split(',')[1]!, 'base64');
  } finally {
    await page.close();
  }
}

async function upload(url: string, method: 'POST' | 'PUT', bytes: Buffer, filename: string, cookie: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), filename);
  const res = await fetch(`${base}${url}`, { method, headers: { cookie, origin: base }, body: form });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
}

try {
  // The featured card's cover, and avatar pictures for two people (the others keep their initials).
  const hero = await upload(`/api/cards/${featured.id}/attachments`, 'POST', await drawPicture('hero', 200), 'hero-mockup.png', `tb_session=${session}`);
  await call('PUT', `/api/cards/${featured.id}/cover`, { attachmentId: hero.id });
  await upload('/api/account/avatar', 'PUT', await drawPicture('portrait', 260), 'ada.png', `tb_session=${session}`);
  {
    const res = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: others[0]!.email, password }) });
    const graceSession = /tb_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    await upload('/api/account/avatar', 'PUT', await drawPicture('portrait', 20), 'grace.png', `tb_session=${graceSession}`);
  }

  const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await shoot(await signedOut.newPage(), 'sign-in', '/signin', (p) => p.getByLabel('Password').waitFor());
  await shoot(await signedOut.newPage(), 'invitation-accept', invitationPath, (p) => p.getByRole('button', { name: 'Join the board' }).waitFor(), async (p) => {
    await p.getByLabel('Name').fill('Barbara Liskov');
  });
  await signedOut.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'tb_session', value: session, url: base, httpOnly: true, sameSite: 'Strict' }]);
  const page = await context.newPage();
  await shoot(page, 'boards', '/boards', (p) => p.getByText('Website relaunch').first().waitFor());
  await shoot(page, 'board', `/boards/${board.id}`, (p) => p.locator('[data-live="live"]').waitFor());
  await shoot(page, 'calendar', `/boards/${board.id}?view=calendar`, (p) => p.locator('.calendar-day [data-card-id]').first().waitFor());
  await shoot(page, 'table', `/boards/${board.id}?view=table&labels=${labels[0].id},${labels[1].id}`, (p) => p.locator('.board-table tbody tr').first().waitFor());
  await shoot(
    page,
    'card-dialog',
    `/boards/${board.id}`,
    (p) => p.locator('[data-live="live"]').waitFor(),
    async (p) => {
      await p.locator(`li.card[data-card-id="${featured.id}"] .card-open`).click();
      await p.getByRole('dialog').waitFor();
    },
  );
  await shoot(
    page,
    'archive',
    `/boards/${board.id}`,
    (p) => p.locator('[data-live="live"]').waitFor(),
    async (p) => {
      await p.getByRole('button', { name: 'Archived items' }).click();
      await p.getByRole('dialog', { name: 'Archived items' }).getByText('Ideas parked').waitFor();
    },
  );
  await shoot(page, 'api-keys', '/settings/keys', (p) => p.getByText('Nightly import job').waitFor());
  await shoot(page, 'site-admin', '/site-admin', (p) => p.getByText('grace@example.com').waitFor());
  await shoot(page, 'account', '/settings/account', (p) => p.getByText('Safari on iOS').waitFor(), (p) => p.setViewportSize({ width: 1280, height: 1180 }));
  await page.setViewportSize({ width: 1280, height: 800 });
  // An assistant asks to connect (what an MCP client does: register, then send the person to authorise).
  const redirectUri = 'http://127.0.0.1:8976/callback'; // answered inside the browser (context.route)
  const client = await (
    await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Claude', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'read write' }),
    })
  ).json() as { client_id: string };
  const authorize = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'read write',
    state: 'screenshot',
    code_challenge: createHash('sha256').update('a verifier for the screenshot, long enough for PKCE rules').digest('base64url'),
    code_challenge_method: 'S256',
  });
  await context.route(`${redirectUri}**`, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' }));
  await shoot(
    page,
    'connector-consent',
    `/oauth/authorize?${authorize}`,
    (p) => p.getByRole('button', { name: /^Approve/ }).waitFor(),
    async (p) => p.setViewportSize({ width: 1280, height: 700 }),
  );
  await page.getByRole('button', { name: /^Approve/ }).click();
  await page.waitForURL(`${redirectUri}**`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, 'connected-apps', '/settings/apps', (p) => p.getByTestId('connector-url').waitFor());
  await shoot(
    page,
    'support-try',
    `/support/${workspace.id}/try`,
    (p) => p.getByLabel('Message').waitFor(),
    async (p) => {
      await p.getByLabel('Message').fill('I forgot my password, how do I get a reset link?');
      await p.getByRole('button', { name: 'Ask' }).click();
      await p.getByTestId('answer').first().waitFor();
    },
  );
  await shoot(page, 'support-start', `/support/${fresh.id}`, (p) => p.getByText('1 of 5 done').waitFor(), (p) => p.setViewportSize({ width: 1280, height: 960 }));
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, 'support-knowledge', `/support/${workspace.id}/knowledge`, (p) => p.getByText(ARTICLES[0]!.title).first().waitFor());
  await shoot(
    page,
    'support-knowledge-import',
    `/support/${workspace.id}/knowledge`,
    (p) => p.getByText(ARTICLES[0]!.title).first().waitFor(),
    async (p) => {
      await p.getByRole('button', { name: 'Import files' }).click();
      await p.getByLabel('Files').setInputFiles([...Object.keys(importFiles), 'Warranty terms.pdf'].map((name) => path.join(importDir, name)));
      await p.getByTestId('import-summary').waitFor();
    },
  );
  await shoot(page, 'support-conversations', `/support/${workspace.id}/conversations`, (p) => p.getByText('How do I export my data?').first().waitFor());
  await shoot(page, 'support-metrics', `/support/${workspace.id}/metrics`, (p) => p.locator('svg').first().waitFor());
  await shoot(page, 'support-ticket', `/support/${workspace.id}/tickets/${ticket.id}`, (p) => p.getByText('Wants to talk to a person').first().waitFor());
  await shoot(
    page,
    'support-webhook',
    `/support/${workspace.id}/webhooks/${endpoint.id}`,
    (p) => p.getByText('ticket.created').first().waitFor(),
    async (p) => {
      // The first attempt (the 503) opened: the request as sent and the response.
      await p.locator('.deliveries > li').first().locator('ol.attempts > li').first().locator('summary').click();
      await p.setViewportSize({ width: 1280, height: 1000 });
    },
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await context.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await phone.addCookies([{ name: 'tb_session', value: session, url: base, httpOnly: true, sameSite: 'Strict' }]);
  const onPhone = await phone.newPage();
  await shoot(onPhone, 'board-phone', `/boards/${board.id}`, (p) => p.locator('[data-live="live"]').waitFor());
  await shoot(onPhone, 'calendar-phone', `/boards/${board.id}?view=calendar`, (p) => p.locator('.calendar-day [data-card-id]').first().waitFor());
  await shoot(onPhone, 'menu-phone', `/boards/${board.id}`, (p) => p.locator('[data-live="live"]').waitFor(), (p) => p.getByRole('button', { name: 'Menu' }).click());
  await shoot(
    onPhone,
    'card-dialog-phone',
    `/boards/${board.id}`,
    (p) => p.locator('[data-live="live"]').waitFor(),
    async (p) => {
      await p.locator(`li.card[data-card-id="${featured.id}"] .card-open`).click();
      await p.getByRole('dialog').waitFor();
    },
  );
  await shoot(onPhone, 'api-keys-phone', '/settings/keys', (p) => p.getByText('Nightly import job').waitFor(), (p) => p.getByRole('heading', { name: 'Your keys' }).scrollIntoViewIfNeeded());
  await shoot(
    onPhone,
    'support-try-phone',
    `/support/${workspace.id}/try`,
    (p) => p.getByLabel('Message').waitFor(),
    async (p) => {
      await p.getByLabel('Message').fill('I forgot my password, how do I get a reset link?');
      await p.getByRole('button', { name: 'Ask' }).click();
      await p.getByTestId('answer').first().waitFor();
    },
  );
  await shoot(onPhone, 'support-conversations-phone', `/support/${workspace.id}/conversations`, (p) => p.getByText('How do I export my data?').first().waitFor());
  // A card long-pressed and carried from Backlog towards "In progress", taken mid-drag: real
  // touches, as a finger sends them (the drag's test, test/web/touch-drag.test.ts, does the same).
  const touch = await phone.newCDPSession(onPhone);
  const finger = (type: 'touchStart' | 'touchMove' | 'touchCancel', x = 0, y = 0) =>
    touch.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchCancel' ? [] : [{ x, y, id: 1 }] });
  await shoot(
    onPhone,
    'board-drag-phone',
    `/boards/${board.id}`,
    (p) => p.locator('[data-live="live"]').waitFor(),
    async (p) => {
      // Half of each of the first two lists in view (away from the edges, where a held card scrolls them).
      await p.locator('.lists').evaluate((el: any) => (el.scrollLeft = 120));
      const from = (await p.locator(`li.card[data-card-id="${cards[1].id}"]`).boundingBox())!;
      const to = await Promise.all(cards.slice(5, 7).map(async (c) => (await p.locator(`li.card[data-card-id="${c.id}"]`).boundingBox())!));
      // Held by its lower edge, so the lifted copy leaves the slot below the finger in view.
      const x = from.x + from.width - 50;
      const y = from.y + from.height - 8;
      await finger('touchStart', x, y);
      await p.locator('.drag-ghost').waitFor();
      const [tx, ty] = [Math.min(to[0]!.x + 90, 320), (to[0]!.y + to[0]!.height + to[1]!.y) / 2];
      for (let i = 1; i <= 12; i++) await finger('touchMove', x + ((tx - x) * i) / 12, y + ((ty - y) * i) / 12);
      await p.locator(`.list[data-list-id="${lists[1].id}"] .drop-slot`).waitFor();
    },
  );
  await finger('touchCancel');
  await phone.close();
  console.log(shots.join('\n'));
} finally {
  await browser.close();
  await app.close();
  receiver.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(importDir, { recursive: true, force: true });
}
