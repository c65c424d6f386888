import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { makeUser } from '../factories.js';
import type { TestAppHandle } from '../helper.js';

/** A small help centre, enough to tell right from wrong answers. */
export const ARTICLES = [
  { externalId: 'pw-reset', title: 'Reset your password', body: 'If you forgot your password, click "Forgot password?" on the sign-in page. We e-mail you a reset link valid for 60 minutes.', url: 'https://help.example/pw-reset' },
  { externalId: 'pw-change', title: 'Change your password', body: 'To change a password you know, open Profile > Security and click Change password. Enter the current one, then the new one twice.' },
  { externalId: 'inv-pdf', title: 'Export invoices to PDF', body: 'Open an invoice and click Download > PDF. Select several invoices to download a ZIP of PDFs.' },
  { externalId: 'inv-csv', title: 'Export invoices to CSV', body: 'In the Invoices list click Export and choose CSV: one line per invoice with number, client, amount and status.' },
  { externalId: 'cancel', title: 'Cancel your subscription', body: 'Owners cancel under Admin > Billing > Cancel subscription. The plan stays active until the end of the billing period.' },
  { externalId: 'android', title: 'Android app', body: 'Get the app from Google Play (Android 10 or later). Allow notifications to receive push alerts for assignments.' },
  { externalId: 'e4417', title: 'Error E-4417 when syncing calendars', body: 'Error E-4417 means your calendar token expired. Disconnect the calendar under Profile > Integrations and connect it again.' },
  { externalId: 'slack', title: 'Slack integration', body: 'Connect Slack under Admin > Integrations > Slack to post new and completed tasks to a channel.' },
];

export type Admin = (...argv: string[]) => Promise<Record<string, unknown>>;

/** Runs an admin CLI command in-process, as the server's admin socket does (the server's bus and effects); fails the test unless it succeeds. */
export function adminOf(t: TestAppHandle): Admin {
  return async (...argv) => {
    const outcome = await runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
    expect(outcome, `admin ${argv.join(' ')}`).toMatchObject({ exitCode: 0 });
    return outcome.body;
  };
}

/** A workspace with an agent, the knowledge above and an answer key, set up through the CLI. */
export async function answerWorkspace(t: TestAppHandle, options: { articles?: object[]; fallback?: string; referral?: string } = {}) {
  const admin = adminOf(t);
  const owner = await makeUser(t.db);
  const workspace = await admin('workspace', 'create', '--name', 'Support', '--owner', owner.email);
  const workspaceId = String(workspace.id);
  const agentArgs = ['agent', 'create', '--workspace', workspaceId, '--name', 'Helper', '--fallback-message', options.fallback ?? 'Sorry, a person will help you.'];
  if (options.referral) agentArgs.push('--referral', options.referral);
  const agent = await admin(...agentArgs);
  const file = path.join(os.tmpdir(), `kb-${process.pid}-${Date.now()}-${Math.random()}.json`);
  await writeFile(file, JSON.stringify(options.articles ?? ARTICLES));
  try {
    await admin('knowledge', 'import', '--workspace', workspaceId, '--file', file);
  } finally {
    await rm(file, { force: true });
  }
  const key = await admin('answer-key', 'create', '--workspace', workspaceId, '--name', 'tests');
  return { owner, workspaceId: Number(workspaceId), agentId: agent.id as string, token: key.token as string, keyId: key.id as number, admin };
}

/** POST /v1/answer with the key. */
export function ask(t: TestAppHandle, token: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/answer', headers: { 'x-api-key': token, ...headers }, payload: body as object });
}

/** A one-page PDF whose text layer says `text`, base64-encoded as /v1/answer takes attachments. */
export async function pdfSaying(text: string) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage().drawText(text, { x: 40, y: 700, size: 12, font });
  return Buffer.from(await pdf.save()).toString('base64');
}
