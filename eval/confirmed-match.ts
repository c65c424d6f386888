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
import { jaccard, matchScore, matchTerms } from '../src/answers/decision/confirmed-match.js';
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
  vector?: Float32Array | undefined;
}
type Known = (t: string) => boolean;
type Weight = (t: string) => number;

const withVectors = process.argv.includes('--vectors');
const bases = await loadBases({ lexical: true });
const rows: { base: string; known: Known; idf: Weight; messages: Msg[]; outOfScope: Msg[] }[] = [];
for (const b of bases) {
  // Set A's test half is where the done-when test asks (test/answers/confirmed-answers.test.ts): never fitted on.
  const questions = b.questions.filter((q) => single(q) && !(q.id.startsWith('set-a/') && q.half === 'test'));
  const msg = (q: Question): Msg => ({ text: q.turns[0]!, expected: q.expected, terms: matchTerms(q.turns[0]!, true), plain: matchTerms(q.turns[0]!) });
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

const sweep = [0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
// matchScore's own threshold is 0 here: measure() applies the sweep's.
measure((a, b) => jaccard(a.plain, b.plain), sweep, 'A. Jaccard of the stems');
measure((a, b, known) => matchScore(a.plain, b.plain, known, 0), sweep, "B. A, the words the message adds all the knowledge's");
measure((a, b, known) => matchScore(a.terms, b.terms, known, 0), sweep, 'C. B, synonyms as one term');
measure((a, b, known, idf) => matchScore(a.plain, b.plain, known, 0, idf), sweep, "D. B, terms weighted by the knowledge's idf");
measure((a, b, known, idf) => matchScore(a.terms, b.terms, known, 0, idf), sweep, 'E. D, synonyms as one term');
if (withVectors) measure((a, b) => (a.vector && b.vector ? dot(a.vector, b.vector) : -1), [0.7, 0.75, 0.8, 0.85, 0.9, 0.95], 'F. cosine of sentence vectors');

/**
 * G. B at a lower threshold, the confirmed article also ranked first for the message by the knowledge with the
 * confirmed messages as its phrasings (as the product ranks). Two folds (even and odd messages confirmed in turn),
 * each with an index holding the confirmed fold's phrasings, and B on the same folds beside it.
 */
{
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
