import { describe, expect, it } from 'vitest';
import { loginCookie } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace, ask } from './answer-fixtures.js';

/** Verdicts that teach the right thing (issue #32 item 7): "answer" only where the right article ranks first; a verdict that cannot count says so. */
const t = useTestApp();

async function workspace() {
  const w = await answerWorkspace(t);
  const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
  const call = (method: 'GET' | 'PUT', path: string, payload?: object) =>
    t.app.inject({ method, url: `/agent/workspaces/${w.workspaceId}${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const answer = async (message: string) => {
    const res = await ask(t, w.token, { message });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const turns = (await call('GET', `/conversations/${body.conversationId}`)).json().turns;
    return { ...body, conversation: `/conversations/${body.conversationId}`, feedback: `/conversations/${body.conversationId}/turns/${turns.at(-1).id}/feedback` };
  };
  return { ...w, call, answer };
}

describe('which verdicts teach the decision', () => {
  it('"wrong, it is X" counts as "answer" only where X now ranks first; before that it only adds the phrasing, and says so', async () => {
    const w = await workspace();
    const message = 'I need the invoices in Excel';
    const first = await w.answer(message);
    expect(first.sources[0].externalId).toBe('inv-pdf');

    const notFirst = await w.call('PUT', first.feedback, { verdict: 'wrong', articleId: 'inv-csv' });
    expect(notFirst.statusCode).toBe(200);
    expect(notFirst.json()).toMatchObject({ verdict: 'wrong', articleId: 'inv-csv', counts: false, labels: 0 });
    expect(notFirst.json().why).toMatch(/"inv-csv" ranks 2nd for this message, behind "inv-pdf": .* only adds the message as a phrasing of "inv-csv"/);
    expect((await w.call('GET', first.conversation)).json().turns[0].feedback).toMatchObject({ verdict: 'wrong', counts: false, why: notFirst.json().why });

    // The first verdict's phrasing now ranks inv-csv first for this wording: the same message asked again ranks it
    // first, and the same verdict on that turn counts.
    const second = await w.answer(message);
    const nowFirst = await w.call('PUT', second.feedback, { verdict: 'wrong', articleId: 'inv-csv' });
    expect(nowFirst.json()).toMatchObject({ counts: true, why: null, labels: 1 });
    expect((await w.call('GET', '/learning')).json().labels).toBe(1);
  });

  it("explains a verdict from the turn's own ranking, which the turn keeps, not from a ranking computed again (#47 item 4)", async () => {
    const w = await workspace();
    const turn = await w.answer('I need the invoices in Excel');
    const stored = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: turn.conversationId }, select: { ranking: true } });
    expect((stored.ranking as string[]).slice(0, 2)).toEqual(['inv-pdf', 'inv-csv']);
    // The article changes after the turn: ranked again now, it would not be among the matches at all.
    const edited = await w.call('PUT', '/articles/inv-csv', { title: 'Office hours', body: 'We are open on weekdays from nine to five.' });
    expect(edited.statusCode).toBe(200);
    const verdict = await w.call('PUT', turn.feedback, { verdict: 'wrong', articleId: 'inv-csv' });
    expect(verdict.json().why).toMatch(/^"inv-csv" ranks 2nd for this message, behind "inv-pdf": /);
  });

  it('should_answer: a hand-off whose cited article was right teaches "answer" and confirms that article; only on such a turn', async () => {
    const w = await workspace();
    const handed = await w.answer('notifications on my phone');
    expect([handed.needs_human, handed.sources[0].externalId]).toEqual([true, 'android']);
    const saved = await w.call('PUT', handed.feedback, { verdict: 'should_answer' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ verdict: 'should_answer', articleId: null, counts: true, why: null, labels: 1 });
    expect((await w.call('GET', handed.conversation)).json().turns[0].feedback).toMatchObject({ verdict: 'should_answer', counts: true });
    const feedback = await t.db.prisma.turnFeedback.findFirstOrThrow({ where: { workspaceId: w.workspaceId }, select: { article: { select: { externalId: true } } } });
    expect(feedback.article?.externalId).toBe('android');

    const answered = await w.answer('export invoices');
    expect(answered.needs_human).toBe(false);
    const refused = await w.call('PUT', answered.feedback, { verdict: 'should_answer' });
    expect([refused.statusCode, refused.json().error]).toEqual([400, expect.stringMatching(/^verdict: should_answer is for a turn that was handed over/)]);
    const nothingCited = await w.answer('How do I restore a backup from Dropbox?');
    expect((await w.call('PUT', nothingCited.feedback, { verdict: 'should_answer' })).json().error).toMatch(/cited none/);
  });

  it('a verdict that cannot count says why: a request for a person, a turn without stored features', async () => {
    const w = await workspace();
    const person = await w.answer('I want to talk to a person');
    const onPerson = (await w.call('PUT', person.feedback, { verdict: 'right' })).json();
    expect(onPerson).toMatchObject({ counts: false, labels: 0 });
    expect(onPerson.why).toMatch(/handed over before the decision was asked .* learns nothing from it/);

    const unknown = await w.answer('my accountant wants the statements as a spreadsheet');
    expect(unknown.sources).toEqual([]);
    const noFeatures = (await w.call('PUT', unknown.feedback, { verdict: 'wrong', articleId: 'inv-csv' })).json();
    expect(noFeatures).toMatchObject({ counts: false, labels: 0 });
    expect(noFeatures.why).toMatch(/no stored decision features/);
    // Still a phrasing: the message now finds the article staff named.
    expect((await w.answer('my accountant wants the statements as a spreadsheet')).sources[0]?.externalId).toBe('inv-csv');
  });
});
