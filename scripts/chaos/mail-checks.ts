import type { Check } from './checks.js';
import { AMBIGUOUS, type Ledger, type Target } from './load.js';
import type { ArrivedMail, Mailbox } from './mailbox.js';
import { sleep } from './server.js';

/** What the mail part of a run measured, for the report. */
export interface MailFigures {
  /** Mails the SMTP server accepted (copies included). */
  arrived: number;
  /** Distinct Message-IDs among them. */
  messages: number;
  /** Accepted again with a Message-ID accepted before: a resend after a lost acknowledgement. */
  duplicates: number;
  /** Hand-overs cut short by a disruption (the connection closed in DATA or before the 250). */
  cut: number;
  /** From the end of the load until everything expected had arrived and nothing was left pending. */
  waitMs: number;
}

/** The site admin's session (the delivery log is for signed-in site admins only). */
async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in for the delivery log: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

/** How many mails the delivery log holds in a state (it lists at most 100), or null when it does not answer. */
async function logged(base: string, cookie: string, status: 'pending' | 'failed'): Promise<{ count: number; sample: string[] } | null> {
  try {
    const res = await fetch(`${base}/admin/mail?status=${status}`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });
    if (res.status !== 200) return null;
    const { mail } = (await res.json()) as { mail: { recipient: string; lastError: string | null }[] };
    return { count: mail.length, sample: mail.slice(0, 3).map((m) => `${m.recipient}${m.lastError ? ` (${m.lastError})` : ''}`) };
  } catch {
    return null;
  }
}

/** The cards a notification mail lists as assigned (“title” is how a notification quotes a card). */
const assignedTitles = (mail: ArrivedMail) => [...mail.text.matchAll(/assigned you to “([^”]+)”/g)].map((m) => m[1]!);

/**
 * Mail: every acknowledged invitation's mail and every acknowledged assignment's notification
 * arrived at least once; none for what was not asked; each change's mail is one message (one
 * Message-ID, whatever the copies) and sent in one mail; nothing left pending or failed in the
 * delivery log. Waits up to `waitMs` for the stragglers (a killed process's claims come back
 * only when their lease runs out).
 */
export async function checkMail(target: Target, ledger: Ledger, mailbox: Mailbox, admin: { email: string; password: string }, waitMs: number): Promise<{ checks: Check[]; figures: MailFigures }> {
  const t0 = Date.now();
  const cookie = await signIn(target.base, admin.email, admin.password);
  const invited = [...ledger.invited];
  // "address title": the assignment of a card to one member, told by a mail to that address.
  const assigned = [...ledger.cards.values()].filter((c) => c.assigned === 'ack').map((c) => `${c.assignee} ${c.title}`);
  const assigneeEmails = new Set(target.assignees.map((a) => a.email));
  const isAssignee = (m: ArrivedMail) => m.to.some((a) => assigneeEmails.has(a));
  const toAssignees = () => mailbox.arrived.filter(isAssignee);
  const told = (m: ArrivedMail) => m.to.filter((a) => assigneeEmails.has(a)).flatMap((a) => assignedTitles(m).map((t) => `${a} ${t}`));
  const missing = () => {
    const mailedTo = new Set(mailbox.arrived.flatMap((m) => m.to));
    const tellings = new Set(toAssignees().flatMap(told));
    return { invitations: invited.filter((a) => !mailedTo.has(a)), assignments: assigned.filter((t) => !tellings.has(t)) };
  };
  let gap = missing();
  let pending = await logged(target.base, cookie, 'pending');
  while ((gap.invitations.length || gap.assignments.length || pending?.count !== 0) && Date.now() - t0 < waitMs) {
    await sleep(500);
    gap = missing();
    pending = await logged(target.base, cookie, 'pending');
  }
  const settledMs = Date.now() - t0;
  const failed = await logged(target.base, cookie, 'failed');

  const checks: Check[] = [];
  checks.push({
    name: "every acknowledged invitation's mail arrived",
    ok: gap.invitations.length === 0,
    detail:
      `${invited.length} invitations, ${invited.length - gap.invitations.length} mailed (all in ${(settledMs / 1000).toFixed(1)} s after the load stopped)` +
      (gap.invitations.length ? `; NOT MAILED: ${gap.invitations.slice(0, 10).join(', ')}` : ''),
  });
  checks.push({
    name: "every acknowledged assignment's notification was mailed",
    ok: gap.assignments.length === 0,
    detail:
      `${assigned.length} assignments, ${assigned.length - gap.assignments.length} in ${new Set(toAssignees().map((m) => m.messageId)).size} notification mails to ${new Set(toAssignees().flatMap((m) => m.to)).size} assignees (at most ${Math.max(0, ...[...assigneeEmails].map((a) => new Set(mailbox.arrived.filter((m) => m.to.includes(a)).map((m) => m.messageId)).size))} to one)` +
      (gap.assignments.length ? `; NOT MAILED: ${gap.assignments.slice(0, 10).join(', ')}` : ''),
  });

  // Nothing mailed that was not asked for: an invitation or an assignment not acknowledged must at least have been sent.
  const mayInvite = new Set([...ledger.invited, ...ledger.ambiguousInvited]);
  const mayAssign = new Set([...ledger.cards.values()].filter((c) => c.assigned === 'ack' || (c.assigned && AMBIGUOUS.has(c.assigned))).map((c) => `${c.assignee} ${c.title}`));
  const strangers = mailbox.arrived.filter((m) => !m.to.some((a) => mayInvite.has(a) || assigneeEmails.has(a)));
  const strayTitles = [...new Set(toAssignees().flatMap(told))].filter((t) => !mayAssign.has(t));
  const landed = [...ledger.ambiguousInvited].filter((a) => mailbox.arrived.some((m) => m.to.includes(a))).length;
  checks.push({
    name: 'no mail that was not asked for',
    ok: strangers.length === 0 && strayTitles.length === 0,
    detail:
      `${landed} of ${ledger.ambiguousInvited.size} unacknowledged invitations landed and were mailed` +
      (strangers.length ? `; MAIL TO: ${strangers.slice(0, 5).map((m) => m.to.join(',')).join('; ')}` : '') +
      (strayTitles.length ? `; ASSIGNMENTS NEVER MADE: ${strayTitles.slice(0, 10).join(', ')}` : ''),
  });

  // One change, one message: copies of a resend carry the Message-ID of the first (a receiver drops them), and no change is in two messages.
  const idsPer = new Map<string, Set<string>>();
  const note = (what: string, id: string) => idsPer.set(what, (idsPer.get(what) ?? new Set()).add(id));
  for (const m of mailbox.arrived) {
    for (const a of m.to) if (mayInvite.has(a)) note(`invitation of ${a}`, m.messageId);
    for (const t of told(m)) note(`assignment of ${t}`, m.messageId);
  }
  const split = [...idsPer.entries()].filter(([, ids]) => ids.size > 1);
  const noId = mailbox.arrived.filter((m) => !/^<[^<>@\s]+@[^<>\s]+>$/.test(m.messageId)).length;
  const copies = new Map<string, number>();
  for (const m of mailbox.arrived) copies.set(m.messageId, (copies.get(m.messageId) ?? 0) + 1);
  const duplicates = mailbox.arrived.length - copies.size;
  checks.push({
    name: 'one message per change: a resend is the same Message-ID',
    ok: split.length === 0 && noId === 0,
    detail:
      `${mailbox.arrived.length} mails accepted, ${copies.size} Message-IDs: ${duplicates} resent copies (at-least-once), ${mailbox.cut()} hand-overs cut by a disruption` +
      (split.length ? `; IN SEVERAL MESSAGES: ${split.slice(0, 5).map(([what, ids]) => `${what} (${ids.size})`).join('; ')}` : '') +
      (noId ? `; ${noId} mails without a Message-ID` : ''),
  });
  checks.push({
    name: 'the delivery log: none left pending, none failed',
    ok: pending?.count === 0 && failed?.count === 0,
    detail:
      pending === null || failed === null
        ? 'GET /admin/mail did not answer'
        : `${pending.count} pending${pending.count ? ` (${pending.sample.join('; ')})` : ''}, ${failed.count} failed${failed.count ? ` (${failed.sample.join('; ')})` : ''}`,
  });
  return { checks, figures: { arrived: mailbox.arrived.length, messages: copies.size, duplicates, cut: mailbox.cut(), waitMs: settledMs } };
}
