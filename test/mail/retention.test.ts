import { describe, expect, it } from 'vitest';
import { pruneSentMail } from '../../src/mail/prune-mail.js';
import { useTestApp } from '../helper.js';

describe('mail retention (MAIL_RETENTION)', () => {
  const t = useTestApp();
  it('deletes sent mail older than the retention, and keeps newer sent, pending and failed mail', async () => {
    const day = 86_400_000;
    const row = (key: string, status: 'pending' | 'sent' | 'failed', sentDaysAgo: number | null) => ({
      key,
      kind: 'test',
      recipient: 'ada@example.test',
      subject: key,
      messageId: `<${key}@taskboard>`,
      status,
      sentAt: sentDaysAgo === null ? null : new Date(Date.now() - sentDaysAgo * day),
      createdAt: new Date(Date.now() - 40 * day),
    });
    await t.db.prisma.mailMessage.createMany({
      data: [row('old-sent', 'sent', 31), row('new-sent', 'sent', 29), row('old-pending', 'pending', null), row('old-failed', 'failed', null)],
    });
    expect(await pruneSentMail({ db: t.db.prisma, retentionMs: 30 * day })).toBe(1);
    const left = (await t.db.prisma.mailMessage.findMany({ select: { key: true }, orderBy: { key: 'asc' } })).map((m) => m.key);
    expect(left).toEqual(['new-sent', 'old-failed', 'old-pending']);
  });

  it('is a setting of at least an hour', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({ MAIL_RETENTION: '10m' })).toThrow(/MAIL_RETENTION: must be at least 1h/);
  });
});
