import { describe, expect, it } from 'vitest';
import { loginCookie } from '../factories.js';
import { useTestApp } from '../helper.js';
import { handoffTopic } from '../../src/answers/decision/intents.js';
import { answerWorkspace, ask } from './answer-fixtures.js';

/** An agent's own synonym groups and hand-off topics (issue #26 item 6): settings of the console, used by every answer. */
const t = useTestApp();

async function workspace() {
  const w = await answerWorkspace(t);
  const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
  const settings = (body: object) => t.app.inject({ method: 'PATCH', url: `/agent/workspaces/${w.workspaceId}/agents/${w.agentId}`, headers: { cookie }, payload: body });
  const answer = async (message: string) => (await ask(t, w.token, { message })).json();
  return { ...w, cookie, settings, answer };
}

describe("an agent's own synonyms", () => {
  it('make a word of the product find the article written with its synonym, surer than without', async () => {
    const w = await workspace();
    const question = 'Does it work on droid?';
    const before = await w.answer(question);
    expect(before.sources[0]?.externalId).not.toBe('android');
    const saved = await w.settings({ synonyms: [['droid', 'Android']] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().synonyms).toEqual([['droid', 'Android']]);
    const after = await w.answer(question);
    expect(after.sources[0].externalId).toBe('android');
    expect(after.sources[0].score).toBeGreaterThan(before.sources[0]?.score ?? 0);
    const fuller = await w.answer('Can I get push notifications on my droid?');
    expect(fuller).toMatchObject({ needs_human: false, sources: [expect.objectContaining({ externalId: 'android' })] });
    // Another workspace's agent does not have them.
    expect((await (await workspace()).answer(question)).sources[0]?.externalId).not.toBe('android');
  });

  it('are refused with 400 naming the rule when not groups of single words', async () => {
    const w = await workspace();
    for (const [synonyms, rule] of [
      [[['lonely']], /at least two words/],
      [[['two words', 'x']], /one word each/],
      [[['a', '']], /cannot be empty/],
      [[['wi-fi', 'wireless']], /one word each/],
    ] as const) {
      const res = await w.settings({ synonyms });
      expect([res.statusCode, res.json().error]).toEqual([400, expect.stringMatching(rule)]);
    }
  });
});

describe("an agent's hand-off topics", () => {
  it('hand a message naming one to a person (its words in a row, in any form), with the articles it was weighed against', async () => {
    const w = await workspace();
    const question = 'How do I export invoices to PDF?';
    expect((await w.answer(question)).needs_human).toBe(false);
    expect((await w.settings({ handoffTopics: ['Export  invoices'] })).json().handoffTopics).toEqual(['Export  invoices']);
    const handed = await w.answer(question);
    expect(handed).toMatchObject({ needs_human: true, confidence: 'low' });
    expect(handed.sources[0].externalId).toBe('inv-pdf');
    const turn = (await t.app.inject({ method: 'GET', url: `/agent/workspaces/${w.workspaceId}/conversations/${handed.conversationId}`, headers: { cookie: w.cookie } })).json().turns[0];
    expect(turn.reason).toBe('handoff_topic');
    // Other forms of its words name it too; its words apart do not.
    expect((await w.answer('Help with Exporting INVOICE to PDF please')).needs_human).toBe(true);
    expect((await w.answer('Can I export my old invoices to PDF?')).needs_human).toBe(false);
    expect((await w.settings({ handoffTopics: ['!!'] })).json().error).toMatch(/a letter or a digit/);
    // A lone surrogate is not Unicode, and the JSON column refuses it: 400, not the 500 the fuzzer found (seed 66513).
    const lone = await w.settings({ handoffTopics: ['a\ud800b'] });
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error).toMatch(/unpaired surrogates/);
  });

  it('find a topic in a script written without spaces as its characters in a row', () => {
    expect(handoffTopic('我要退款，谢谢', ['退款'])).toBe('退款');
    expect(handoffTopic('我要退货', ['退款'])).toBeNull();
    expect(handoffTopic('I would like a refund', ['退款', 'refund'])).toBe('refund');
  });
});
