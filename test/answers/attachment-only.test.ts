import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask, pdfSaying } from './answer-fixtures.js';

/**
 * #47 item 6: a message that only points at its attachment, whose PDF states the question, is answered when
 * the PDF's question is answerable (and still handed over when it is not). The wordings are how people hand
 * a question over in a file; none of them is about the question itself. Written before the change: on the old
 * rule (a fixed list of pointing words) the last six were read as questions of their own and handed over.
 */
const t = useTestApp();

const ANSWERABLE = [
  { message: 'Please see the attached PDF.', pdf: 'How do I export my invoices to CSV? I need one line per invoice.', article: 'inv-csv' },
  { message: 'My question is in the attachment.', pdf: 'I forgot my password and cannot sign in. How can I reset it?', article: 'pw-reset' },
  { message: 'Kindly refer to the attached document for my question.', pdf: 'Question: how do I cancel our subscription? We are the account owner.', article: 'cancel' },
  { message: 'Details in the enclosed PDF, thank you', pdf: 'How can I connect Slack so new tasks are posted to a channel?', article: 'slack' },
  { message: 'Please read the attached PDF and advise.', pdf: 'Where do I get the Android app and which Android version do I need?', article: 'android' },
  { message: 'Hello, please see my question in the attached PDF. Regards, John', pdf: 'Dear support,\n\nWe would like to download several invoices as PDF files at once. Is that possible?\n\nKind regards,\nMaria', article: 'inv-pdf' },
  { message: 'Everything is explained in the attached file.', pdf: 'Calendar sync fails with error E-4417 every morning. What does it mean?', article: 'e4417' },
  { message: 'Could you please review the attached and get back to me?', pdf: 'I know my current password but want a new one. Where do I change it?', article: 'pw-change' },
];

const OUT_OF_SCOPE = [
  { message: 'Kindly refer to the attached document for my question.', pdf: 'What is the best recipe for sourdough bread with rye flour?' },
  { message: 'Please see the attached PDF.', pdf: 'Can you recommend a good hotel near the train station in Lisbon?' },
];

describe('a message that only points at its attached PDF', () => {
  it('is answered from the article the PDF asks about, and handed over when the PDF asks what the knowledge does not cover', async () => {
    const w = await answerWorkspace(t);
    const answer = async (message: string, text: string) =>
      (await ask(t, w.token, { message, attachments: [{ mime: 'application/pdf', contentBase64: await pdfSaying(text), filename: 'question.pdf' }] })).json() as {
        needs_human: boolean;
        sources: { externalId: string }[];
      };
    const answered = [];
    for (const c of ANSWERABLE) {
      const res = await answer(c.message, c.pdf);
      answered.push({ message: c.message, needs_human: res.needs_human, first: res.sources[0]?.externalId });
    }
    expect(answered).toEqual(ANSWERABLE.map((c) => ({ message: c.message, needs_human: false, first: c.article })));
    for (const c of OUT_OF_SCOPE) expect((await answer(c.message, c.pdf)).needs_human, c.pdf).toBe(true);
  }, 300_000);
});
