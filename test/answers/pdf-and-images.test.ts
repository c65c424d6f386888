import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask, pdfSaying } from './answer-fixtures.js';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const t = useTestApp();

describe('attachments', () => {
  it('reads a PDF\'s text to find the answer, and keeps only its name and type', async () => {
    const w = await answerWorkspace(t);
    const pdf = await pdfSaying('Screenshot log: sync stopped with error E-4417 while syncing calendars at 10:02');
    const res = await ask(t, w.token, { message: 'what does the error in the attached log mean?', attachments: [{ mime: 'application/pdf', contentBase64: pdf, filename: 'log.pdf' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().sources[0].externalId).toBe('e4417');
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: res.json().conversationId } });
    expect(turn.attachments).toEqual([{ filename: 'log.pdf', mime: 'application/pdf' }]);
    expect(JSON.stringify(turn)).not.toContain(pdf.slice(0, 40));
  });

  it('applies the agent\'s fallback policy when no image or PDF can be read', async () => {
    const w = await answerWorkspace(t);
    const garbage = Buffer.from('definitely not a pdf').toString('base64');
    const answered = (await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'application/pdf', contentBase64: garbage }] })).json();
    expect(answered.needs_human).toBe(false);
    await w.admin('agent', 'update', '--workspace', String(w.workspaceId), '--id', w.agentId, '--attachment-fallback', 'needs_human');
    const flagged = (await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'image/png', contentBase64: garbage }] })).json();
    expect(flagged).toMatchObject({ needs_human: true, sources: [], confidence: 'low' });
    // One readable image is enough; other types (video) are ignored and never count as unreadable.
    const withImage = (await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'image/png', contentBase64: garbage }, { mime: 'image/png', contentBase64: PNG_1x1 }] })).json();
    expect(withImage.needs_human).toBe(false);
    const video = (await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'video/mp4', contentBase64: garbage }] })).json();
    expect(video.needs_human).toBe(false);
  });

  it('accepts base64 without padding', async () => {
    const w = await answerWorkspace(t);
    const res = await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'image/png', contentBase64: PNG_1x1.replace(/=+$/, '') }] });
    expect(res.statusCode).toBe(200);
  });
});
