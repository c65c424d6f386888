import type { Question } from './bases.js';

/** What a system returned for a message's last turn. */
export interface Outcome {
  q: Question;
  /** Every article ranked, best first (the internal ranking). */
  ranking: string[];
  /** `sources` exactly as the API returns them, whether or not a human is needed. */
  sources: string[];
  needsHuman: boolean;
  /** What the decision weighed on the last turn, as the server keeps it with the turn (ours only). */
  features?: import('../src/answers/retrieval/features.js').Features | null;
  /** Why the last turn went to a person (composeAnswer's `reason`; ours only). */
  reason?: string | null;
}

export interface Metrics {
  n: number;
  /** Over answerable single-turn messages: the first returned source is a right article. */
  recall1: number;
  recall3: number;
  /** The same on the internal ranking (what retrieval alone gets right). */
  rankRecall1: number;
  needsHumanBalanced: number;
  /** Out-of-scope messages answered (needs_human false) with a source. */
  falseSource: number;
  /** Second turns answered with a right article first, or correctly handed to a person. */
  followUp: number;
  followUps: number;
  /** Messages whose answer is only in the attachment's text: the first returned source is right. */
  attachment: number;
  /**
   * Counts balanced accuracy does not see: of the answerable messages (needs_human false, a right article
   * named), those answered (needs_human false) whose first source is a right article, and those answered
   * whose first source is another article; of the out-of-scope messages, those answered with a source
   * (falseSource's numerator).
   */
  answerable: number;
  answeredRight: number;
  answeredWrong: number;
  outOfScope: number;
  outOfScopeAnswered: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const RANKED_KINDS = new Set(['direct', 'paraphrase', 'typo', 'smalltalk', 'multi']);

export function metrics(outcomes: Outcome[]): Metrics {
  const ranked = outcomes.filter((o) => RANKED_KINDS.has(o.q.kind) && o.q.expected.length);
  const at = (list: string[], o: Outcome) => list.findIndex((id) => o.q.expected.includes(id));
  const yes = outcomes.filter((o) => o.q.needsHuman);
  const no = outcomes.filter((o) => !o.q.needsHuman);
  const outOfScope = outcomes.filter((o) => o.q.kind === 'out_of_scope');
  const followUps = outcomes.filter((o) => o.q.kind === 'followup');
  const attachments = outcomes.filter((o) => o.q.kind === 'attachment' && o.q.expected.length);
  const answerable = outcomes.filter((o) => !o.q.needsHuman && o.q.expected.length);
  const answered = answerable.filter((o) => !o.needsHuman && o.sources.length);
  return {
    n: outcomes.length,
    recall1: mean(ranked.map((o) => (at(o.sources, o) === 0 ? 1 : 0))),
    recall3: mean(ranked.map((o) => (at(o.sources, o) >= 0 && at(o.sources, o) < 3 ? 1 : 0))),
    rankRecall1: mean(ranked.map((o) => (at(o.ranking, o) === 0 ? 1 : 0))),
    needsHumanBalanced: (mean(yes.map((o) => (o.needsHuman ? 1 : 0))) + mean(no.map((o) => (o.needsHuman ? 0 : 1)))) / 2,
    falseSource: mean(outOfScope.map((o) => (!o.needsHuman && o.sources.length ? 1 : 0))),
    followUp: mean(
      followUps.map((o) => (o.q.needsHuman ? (o.needsHuman ? 1 : 0) : !o.needsHuman && o.q.expected.includes(o.sources[0] ?? '') ? 1 : 0)),
    ),
    followUps: followUps.length,
    attachment: mean(attachments.map((o) => (at(o.sources, o) === 0 ? 1 : 0))),
    answerable: answerable.length,
    answeredRight: answered.filter((o) => at(o.sources, o) === 0).length,
    answeredWrong: answered.filter((o) => at(o.sources, o) !== 0).length,
    outOfScope: outOfScope.length,
    outOfScopeAnswered: outOfScope.filter((o) => !o.needsHuman && o.sources.length).length,
  };
}

export const fmt = (n: number) => (Number.isNaN(n) ? '  -  ' : n.toFixed(3));

/** A count; one decimal when it is a mean over draws (eval/labels.ts). */
const count = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export const HEADER = [
  '| base (left out) | system | recall@1 (sources) | recall@3 (sources) | recall@1 (ranking) | needs_human balanced | false-source | follow-ups | attachments | answered: right / wrong article (of answerable) | out-of-scope answered |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
].join('\n');

export function row(base: string, system: string, m: Metrics): string {
  return `| ${base} | ${system} | ${fmt(m.recall1)} | ${fmt(m.recall3)} | ${fmt(m.rankRecall1)} | ${fmt(m.needsHumanBalanced)} | ${fmt(m.falseSource)} | ${fmt(m.followUp)} | ${fmt(m.attachment)} | ${count(m.answeredRight)} / ${count(m.answeredWrong)} (of ${count(m.answerable)}) | ${count(m.outOfScopeAnswered)} of ${count(m.outOfScope)} |`;
}
