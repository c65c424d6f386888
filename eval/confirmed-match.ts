/**
 * Fits the rule by which a message counts as "the same" as a message staff confirmed (issue #47 item 2,
 * src/answers/decision/confirmed-match.ts): Jaccard of the two messages' normalized terms, variants of it, and the
 * cosine of their sentence vectors.
 *
 * `npx tsx eval/confirmed-match.ts [--vectors]`: on each base (set A's tune half with set C, GNOME, Python; never set
 * A's test half nor set B), each answerable single message is asked with every other one confirmed with its expected
 * article (leave one out): its best match at or above the threshold answers it, right when it names the message's
 * article; out-of-scope messages are matched against all of them. Printed per threshold and base: right (of the
 * messages whose article another message confirms) / wrong, out-of-scope matched. With --vectors, the same for the
 * cosine (the built-in encoder's vectors, cached as eval/vectors.ts does: the messages only, a few minutes the first time).
 */
import { loadBases, type Question } from './bases.js';
import { embedAll, save } from './vectors.js';
import { answerScore, jaccard, matchScore, matchTerms, storyTerms } from '../src/answers/decision/confirmed-match.js';
import { dot } from '../src/answers/retrieval/vectors/vector-source.js';

const ANSWERABLE = new Set(['direct', 'paraphrase', 'typo']);
const single = (q: Question) => q.turns.length === 1 && !q.attachmentText;

interface Msg {
  text: string;
  expected: string[];
  /** Stems, synonyms as one term (the rule's). */
  terms: Set<string>;
  /** Stems alone. */
  plain: Set<string>;
  /** Stems of the words that are English but not most often nouns: they tell the customer's story ("stuck", "accidentally"), not another subject ("gym", "Gmail"). */
  story: Set<string>;
  /** Stems as retrieval reads them: a word that is not common English and not the knowledge's, corrected to the knowledge's nearest ("encripted"). */
  fixed: Set<string>;
  vector?: Float32Array | undefined;
}
type Known = (t: string) => boolean;
type Weight = (t: string) => number;

const withVectors = process.argv.includes('--vectors');
const { partOfSpeech } = await import('../src/answers/retrieval/english.js');
const { contentWords, stemWord } = await import('../src/answers/retrieval/text.js');
const { foldPhrases } = await import('../src/answers/retrieval/synonyms.js');
function storyStems(text: string): Set<string> {
  return new Set(contentWords(foldPhrases(text)).filter((w) => { const pos = partOfSpeech(w); return pos !== null && pos !== 'noun'; }).map(stemWord));
}
const bases = await loadBases({ lexical: true });
const rows: { base: string; known: Known; idf: Weight; messages: Msg[]; outOfScope: Msg[] }[] = [];
for (const b of bases) {
  // Set A's test half is where the done-when test asks (test/answers/confirmed-answers.test.ts): never fitted on.
  const questions = b.questions.filter((q) => single(q) && !(q.id.startsWith('set-a/') && q.half === 'test'));
  const msg = (q: Question): Msg => ({ text: q.turns[0]!, expected: q.expected, terms: matchTerms(q.turns[0]!, { synonyms: true }), plain: matchTerms(q.turns[0]!), story: storyStems(q.turns[0]!), fixed: matchTerms(q.turns[0]!, { index: b.index }) });
  const messages = questions.filter((q) => ANSWERABLE.has(q.kind) && q.expected.length).map(msg);
  const outOfScope = questions.filter((q) => q.kind === 'out_of_scope').map(msg);
  if (withVectors) {
    for (const list of [messages, outOfScope]) {
      const vectors = await embedAll(list.map((m) => m.text));
      list.forEach((m, i) => (m.vector = vectors[i]));
    }
    save();
  }
  rows.push({ base: b.name, known: (t) => b.index.has(t), idf: (t) => b.index.idf(t), messages, outOfScope });
}

function measure(score: (a: Msg, b: Msg, known: Known, idf: Weight) => number, thresholds: number[], label: string) {
  console.log(`\n${label}`);
  console.log(['threshold', ...rows.map((r) => `${r.base}: right of those with a confirmed article / wrong of ${r.messages.length}, out-of-scope matched of ${r.outOfScope.length}`)].join(' | '));
  for (const t of thresholds) {
    const cells = rows.map(({ messages, outOfScope, known, idf }) => {
      const best = (m: Msg) => {
        let top: Msg | null = null;
        let s = -1;
        for (const c of messages) {
          if (c === m) continue;
          const v = score(m, c, known, idf);
          if (v > s) [top, s] = [c, v];
        }
        return s >= t && s > 0 ? top : null;
      };
      let right = 0;
      let wrong = 0;
      const eligible = messages.filter((m) => messages.some((c) => c !== m && m.expected.includes(c.expected[0]!))).length;
      for (const m of messages) {
        const hit = best(m);
        if (hit) (m.expected.includes(hit.expected[0]!) ? right++ : wrong++);
      }
      return `${right} of ${eligible} / ${wrong}, ${outOfScope.filter((m) => best(m)).length}`;
    });
    console.log([t.toFixed(2), ...cells].join(' | '));
  }
}

/** `--k=K4,K11`: only those variants of K (section K alone). */
const kOnly = process.argv.some((x) => x.startsWith('--k='));
const sweep = [0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
// matchScore's own threshold is 0 here: measure() applies the sweep's.
if (!kOnly) measure((a, b) => jaccard(a.plain, b.plain), sweep, 'A. Jaccard of the stems');
if (!kOnly) measure((a, b, known) => matchScore(a.plain, b.plain, known, 0), sweep, "B. A, the words the message adds all the knowledge's");
if (!kOnly) measure((a, b, known) => matchScore(a.terms, b.terms, known, 0), sweep, 'C. B, synonyms as one term');
if (!kOnly) measure((a, b, known, idf) => matchScore(a.plain, b.plain, known, 0, idf), sweep, "D. B, terms weighted by the knowledge's idf");
if (!kOnly) measure((a, b, known, idf) => matchScore(a.terms, b.terms, known, 0, idf), sweep, 'E. D, synonyms as one term');
if (withVectors && !kOnly) measure((a, b) => (a.vector && b.vector ? dot(a.vector, b.vector) : -1), [0.7, 0.75, 0.8, 0.85, 0.9, 0.95], 'F. cosine of sentence vectors');

/**
 * G. B at a lower threshold, the confirmed article also ranked first for the message by the knowledge with the
 * confirmed messages as its phrasings (as the product ranks). Two folds (even and odd messages confirmed in turn),
 * each with an index holding the confirmed fold's phrasings, and B on the same folds beside it.
 */
if (!kOnly) {
  const { KnowledgeIndex, prepareArticle } = await import('../src/answers/retrieval/knowledge-index.js');
  const { retrieve } = await import('../src/answers/retrieval/retrieve.js');
  console.log('\nG. two folds: B; G: B with the confirmed article first by the ranking with phrasings; H: G with a word of the message in the article\'s own text; I: G with half the confirmed message\'s terms in the message; J: G with the confirmed message at most twice the message\'s terms (right / wrong, out-of-scope matched)');
  for (const t of [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]) {
    const cells = rows.map(({ base, messages, outOfScope, known }) => {
      const b = bases.find((x) => x.name === base)!;
      const score = { plain: [0, 0, 0], first: [0, 0, 0], own: [0, 0, 0], half: [0, 0, 0], short: [0, 0, 0] };
      for (const fold of [0, 1]) {
        const confirmed = messages.filter((_, i) => i % 2 === fold);
        const asked = messages.filter((_, i) => i % 2 !== fold);
        const phrasings = new Map<string, string[]>();
        for (const c of confirmed) phrasings.set(c.expected[0]!, [...(phrasings.get(c.expected[0]!) ?? []), c.text]);
        const index = new KnowledgeIndex(b.index.articles.map((a) => prepareArticle(a.doc, phrasings.get(a.doc.externalId) ?? [])));
        const best = (m: Msg) => {
          let top: Msg | null = null;
          let s = 0;
          for (const c of confirmed) {
            const v = matchScore(m.plain, c.plain, known, t);
            if (v > s) [top, s] = [c, v];
          }
          return top;
        };
        const top = (m: Msg) => retrieve(index, { message: m.text }, undefined, 1).candidates[0];
        const first = (m: Msg) => top(m)?.article.doc.externalId;
        // H: G, and the article's own text (its phrasings left out) shares a word with the message.
        const own = (m: Msg) => (top(m)?.textScore ?? 0) > 0;
        // I: G, and the message holds at least half of the confirmed message's terms.
        // J: G, and the confirmed message at most twice as many terms as the message.
        const short = (m: Msg, c: Msg) => c.plain.size <= 2 * m.plain.size;
        const half = (m: Msg, c: Msg) => [...c.plain].filter((x) => m.plain.has(x)).length >= c.plain.size / 2;
        for (const m of asked) {
          const hit = best(m);
          if (!hit) continue;
          const ok = m.expected.includes(hit.expected[0]!);
          score.plain[ok ? 0 : 1]!++;
          if (first(m) === hit.expected[0]) score.first[ok ? 0 : 1]!++;
          if (first(m) === hit.expected[0] && own(m)) score.own[ok ? 0 : 1]!++;
          if (first(m) === hit.expected[0] && half(m, hit)) score.half[ok ? 0 : 1]!++;
          if (first(m) === hit.expected[0] && short(m, hit)) score.short[ok ? 0 : 1]!++;
        }
        for (const m of outOfScope) {
          const hit = best(m);
          if (!hit) continue;
          score.plain[2]!++;
          if (first(m) === hit.expected[0]) score.first[2]!++;
          if (first(m) === hit.expected[0] && own(m)) score.own[2]!++;
          if (first(m) === hit.expected[0] && half(m, hit)) score.half[2]!++;
          if (first(m) === hit.expected[0] && short(m, hit)) score.short[2]!++;
        }
      }
      return `B ${score.plain[0]} / ${score.plain[1]}, ${score.plain[2]}; G ${score.first[0]} / ${score.first[1]}, ${score.first[2]}; H ${score.own[0]} / ${score.own[1]}, ${score.own[2]}; I ${score.half[0]} / ${score.half[1]}, ${score.half[2]}; J ${score.short[0]} / ${score.short[1]}, ${score.short[2]}`;
    });
    console.log([t.toFixed(2), ...cells].join(' | '));
  }
}

/**
 * K. As the product applies the rule (compose-answer.ts): two folds as in G, each asked message answered from the
 * article its ranking (with the confirmed fold's phrasings) puts first, with a word of the message in that article's
 * own text, when some confirmed message OF THAT ARTICLE is near enough by the variant's score (the product takes any
 * confirmation at or above the threshold whose article is first, not only the nearest). Variants of "near", each
 * swept: right / wrong, out-of-scope answered; and how many asked messages have a confirmed message of their article.
 */
{
  const { KnowledgeIndex, prepareArticle } = await import('../src/answers/retrieval/knowledge-index.js');
  const { retrieve } = await import('../src/answers/retrieval/retrieve.js');
  const { synonymsOf } = await import('../src/answers/retrieval/synonyms.js');
  const common = (a: Set<string>, b: Set<string>) => [...a].filter((t) => b.has(t)).length;
  // A word the knowledge lacks, itself or through a general synonym ("client" for "customer").
  const knownOrSynonym = (known: Known) => (t: string) => known(t) || synonymsOf(t).some(known);
  const adds = (m: Set<string>, c: Set<string>, known: Known) => [...m].some((t) => !c.has(t) && !known(t));
  /** `taught`: the terms of the confirmed messages of c's article (the phrasings staff added to it). */
  type Score = (m: Msg, c: Msg, known: Known, idf: Weight, taught: Set<string>) => number;
  /** The 4th: the score needed when the first article's own text shares no word with the message (default: never answered). */
  const variants: [string, Score, number[], number?][] = [
    ['H. Jaccard, added words known (the rule)', (m, c, known) => matchScore(m.plain, c.plain, known, 0), [0.1, 0.15, 0.2, 0.25]],
    ['K1. H, an added word known through a synonym too', (m, c, known) => matchScore(m.plain, c.plain, knownOrSynonym(known), 0), [0.1, 0.15, 0.2, 0.25]],
    ['K2. Jaccard alone (added words not checked)', (m, c) => jaccard(m.plain, c.plain), [0.1, 0.15, 0.2, 0.25, 0.3, 0.35]],
    ['K3. K1 on synonym groups as one term', (m, c, known) => matchScore(m.terms, c.terms, knownOrSynonym(known), 0), [0.1, 0.15, 0.2, 0.25]],
    ['K4. Jaccard weighted by idf, added words known', (m, c, known, idf) => matchScore(m.plain, c.plain, known, 0, idf), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K5. overlap (common / the smaller), added words known', (m, c, known) => (adds(m.plain, c.plain, known) ? 0 : common(m.plain, c.plain) / Math.min(m.plain.size, c.plain.size) || 0), [0.2, 0.3, 0.4, 0.5, 0.6]],
    ['K6. overlap on synonym groups, added words known through a synonym too', (m, c, known) => (adds(m.terms, c.terms, knownOrSynonym(known)) ? 0 : common(m.terms, c.terms) / Math.min(m.terms.size, c.terms.size) || 0), [0.2, 0.3, 0.4, 0.5, 0.6]],
    ['K7. overlap, added words not checked', (m, c) => common(m.plain, c.plain) / Math.min(m.plain.size, c.plain.size) || 0, [0.3, 0.4, 0.5, 0.6, 0.7]],
    ['K8. common terms, added words known', (m, c, known) => (adds(m.plain, c.plain, known) ? 0 : common(m.plain, c.plain)), [1, 2, 3]],
    ['K9. common terms (synonym groups), added words known through a synonym too', (m, c, known) => (adds(m.terms, c.terms, knownOrSynonym(known)) ? 0 : common(m.terms, c.terms)), [1, 2, 3]],
    ['K10. Jaccard on synonym groups, added words not checked', (m, c) => jaccard(m.terms, c.terms), [0.15, 0.2, 0.25, 0.3, 0.35]],
    ['K11. H, an added word known from a confirmed message of the article too', (m, c, known, _, taught) => matchScore(m.plain, c.plain, (t) => known(t) || taught.has(t), 0), [0.1, 0.15, 0.2, 0.25]],
    ['K12. K11 and K1', (m, c, known, _, taught) => matchScore(m.plain, c.plain, knownOrSynonym((t) => known(t) || taught.has(t)), 0), [0.1, 0.15, 0.2, 0.25]],
    ['K13. overlap, added words known from the knowledge, a confirmed message of the article or a synonym', (m, c, known, _, taught) => (adds(m.plain, c.plain, knownOrSynonym((t) => known(t) || taught.has(t))) ? 0 : common(m.plain, c.plain) / Math.min(m.plain.size, c.plain.size) || 0), [0.2, 0.3, 0.4, 0.5, 0.6]],
    ['K19. H, an added word the knowledge lacks allowed when it is English and not a noun', (m, c, known) => matchScore(m.plain, c.plain, (t) => known(t) || m.story.has(t), 0), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K20. K19, idf-weighted', (m, c, known, idf) => matchScore(m.plain, c.plain, (t) => known(t) || m.story.has(t), 0, idf), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K21. K19 and K11', (m, c, known, _, taught) => matchScore(m.plain, c.plain, (t) => known(t) || m.story.has(t) || taught.has(t), 0), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K22. K20 and K11', (m, c, known, idf, taught) => matchScore(m.plain, c.plain, (t) => known(t) || m.story.has(t) || taught.has(t), 0, idf), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K23. the larger of H and K4, added words known from the knowledge or a confirmed message of the article', (m, c, known, idf, taught) => { const k = (t: string) => known(t) || taught.has(t); return Math.max(matchScore(m.plain, c.plain, k, 0), matchScore(m.plain, c.plain, k, 0, idf)); }, [0.15, 0.2, 0.25, 0.3]],
    ['K24. H on the terms as retrieval reads them (typos corrected)', (m, c, known) => matchScore(m.fixed, c.fixed, known, 0), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K25. K11 on them', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t), 0), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K26. K4 on them', (m, c, known, idf) => matchScore(m.fixed, c.fixed, known, 0, idf), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K27. K23 on them', (m, c, known, idf, taught) => { const k = (t: string) => known(t) || taught.has(t); return Math.max(matchScore(m.fixed, c.fixed, k, 0), matchScore(m.fixed, c.fixed, k, 0, idf)); }, [0.15, 0.2, 0.25, 0.3]],
    ['K28. K25, an added word also allowed when English and not a noun', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t) || m.story.has(t), 0), [0.2, 0.25, 0.3, 0.35, 0.4, 0.5]],
    ['K29. K25, and without a word of its own at 0.5', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t), 0), [0.15, 0.2, 0.25], 0.5],
    ['K30. K25, and without a word of its own at 0.4', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t), 0), [0.15, 0.2, 0.25], 0.4],
    ['K31. K25, and without a word of its own at 0.6', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t), 0), [0.15, 0.2, 0.25], 0.6],
    ['K32. K28 and K29 (story words; no own word at 0.5)', (m, c, known, _, taught) => matchScore(m.fixed, c.fixed, (t) => known(t) || taught.has(t) || m.story.has(t), 0), [0.25, 0.3, 0.35, 0.4], 0.5],
    ...[0.3, 0.35, 0.4, 0.45, 0.5].flatMap((story): [string, Score, number[], number][] =>
      [0.4, 0.5, 0.6, Infinity].map((noOwn) => [
        `K33. K25 at the threshold; an added word English and not a noun at ${story}; no word of its own at ${noOwn}`,
        (m, c, known, _, taught) => {
          const k = (t: string) => known(t) || taught.has(t);
          const j = matchScore(m.fixed, c.fixed, k, 0);
          if (j > 0) return j;
          const lenient = matchScore(m.fixed, c.fixed, (t) => k(t) || m.story.has(t), 0);
          return lenient >= story ? lenient : 0;
        },
        [0.15, 0.2, 0.25],
        noOwn,
      ]),
    ),
    ['R. the rule (confirmed-match.ts answerScore: K33, story words at 0.3, a word of its own)', (m, c, known, _, taught) => answerScore(m.fixed, storyTerms(m.text), c.fixed, (t) => known(t) || taught.has(t)), [0.2]],
    ['K14. Jaccard weighted by idf (a word the knowledge lacks weighs the most), added words not checked', (m, c, _, idf) => jaccard(m.plain, c.plain, idf), [0.15, 0.2, 0.25, 0.3, 0.35, 0.4]],
    ['K15. K4, an added word known from a confirmed message of the article too', (m, c, known, idf, taught) => matchScore(m.plain, c.plain, (t) => known(t) || taught.has(t), 0, idf), [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['K16. Jaccard, at most one added word unknown', (m, c, known) => ([...m.plain].filter((t) => !c.plain.has(t) && !known(t)).length > 1 ? 0 : jaccard(m.plain, c.plain)), [0.15, 0.2, 0.25, 0.3, 0.35]],
    ['K17. K16, known from a confirmed message of the article too', (m, c, known, _, taught) => ([...m.plain].filter((t) => !c.plain.has(t) && !known(t) && !taught.has(t)).length > 1 ? 0 : jaccard(m.plain, c.plain)), [0.15, 0.2, 0.25, 0.3, 0.35]],
    ['K18. idf-weighted Jaccard, at most one added word unknown', (m, c, known, idf) => ([...m.plain].filter((t) => !c.plain.has(t) && !known(t)).length > 1 ? 0 : jaccard(m.plain, c.plain, idf)), [0.15, 0.2, 0.25, 0.3, 0.35]],
  ];
  // The folds' indexes and each asked message's first article, computed once for every variant.
  const folds = rows.map(({ base, messages, outOfScope }) => {
    const b = bases.find((x) => x.name === base)!;
    return [0, 1].map((fold) => {
      const confirmed = messages.filter((_, i) => i % 2 === fold);
      const asked = messages.filter((_, i) => i % 2 !== fold);
      const phrasings = new Map<string, string[]>();
      for (const c of confirmed) phrasings.set(c.expected[0]!, [...(phrasings.get(c.expected[0]!) ?? []), c.text]);
      const index = new KnowledgeIndex(b.index.articles.map((a) => prepareArticle(a.doc, phrasings.get(a.doc.externalId) ?? [])));
      // The first article, and whether its own text (phrasings left out) shares a word with the message.
      const first = (m: Msg) => {
        const top = retrieve(index, { message: m.text }, undefined, 1).candidates[0];
        return top ? { id: top.article.doc.externalId, own: top.textScore > 0 } : undefined;
      };
      const taught = new Map<string, Set<string>>();
      for (const c of confirmed) taught.set(c.expected[0]!, new Set([...(taught.get(c.expected[0]!) ?? []), ...c.plain, ...c.fixed]));
      return { confirmed, taught, asked: asked.map((m) => ({ m, first: first(m) })), outside: outOfScope.map((m) => ({ m, first: first(m) })) };
    });
  });
  /** `--show`: each message a variant answers, with the confirmed message that made it. */
  const show = process.argv.includes('--show');
  const pick = process.argv.find((x) => x.startsWith('--k='))?.slice(4).split(',');
  for (const [label, score, thresholds, noOwn = Infinity] of variants.filter(([l]) => !pick || pick.some((p) => l.startsWith(`${p}.`)))) {
    console.log(`\n${label}`);
    for (const t of thresholds) {
      const cells = rows.map(({ known, idf }, r) => {
        let right = 0;
        let wrong = 0;
        let outside = 0;
        let eligible = 0;
        for (const { confirmed, taught, asked, outside: oos } of folds[r]!) {
          const by = (m: Msg, top: { id: string; own: boolean } | undefined) =>
            top ? confirmed.filter((c) => c.expected[0] === top.id && score(m, c, known, idf, taught.get(top.id)!) >= (top.own ? t : Math.max(t, noOwn))) : [];
          for (const { m, first } of asked) {
            if (confirmed.some((c) => m.expected.includes(c.expected[0]!))) eligible++;
            const hit = by(m, first);
            if (hit.length) (m.expected.includes(first!.id) ? right++ : wrong++);
            if (show && hit.length) console.log(`  ${m.expected.includes(first!.id) ? 'right' : 'WRONG'}: ${m.text} → ${first!.id}${first!.own ? '' : ' (no own word)'} (${hit.map((c) => c.text).join(' | ')})`);
          }
          for (const { m, first } of oos) {
            const hit = by(m, first);
            if (hit.length) outside++;
            if (show && hit.length) console.log(`  OUT OF SCOPE: ${m.text} → ${first!.id} (${hit.map((c) => c.text).join(' | ')})`);
          }
        }
        return `${right} of ${eligible} / ${wrong}, ${outside}`;
      });
      console.log([String(t), ...cells].join(' | '));
    }
  }
}
