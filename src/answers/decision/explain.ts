/**
 * Why a turn went to a person, in words that match what happened: a hand-off that cites an article
 * says how close it came, never "nothing matched".
 */
export function whyHuman(reason: string | null, sources: readonly { title: string; score: number }[]): string | null {
  const best = sources[0];
  switch (reason) {
    case null:
      return null;
    case 'no_knowledge':
      return best
        ? `The best match, "${best.title}" (${best.score.toFixed(2)}), was not close enough to answer on its own.`
        : 'The message is outside what the knowledge covers: no article is about it.';
    case 'unclear_match':
      return best
        ? `The message's words point to one article and its meaning to another; "${best.title}", ranked first between them, is too unsure a match to answer from.`
        : "The message's words point to one article and its meaning to another: too unsure a match to answer from.";
    case 'not_covered':
      return best ? `The AI model read the articles found (best: "${best.title}") and said they do not answer the message.` : 'The AI model said the knowledge does not answer the message.';
    case 'human_requested':
      return 'The customer asked for a person.';
    case 'account_action':
      return 'The customer asked for something only staff can do on an account.';
    case 'handoff_topic':
      return "The message names one of the agent's hand-off topics.";
    case 'attachment_unreadable':
      return 'The attachments could not be read, and this agent hands such messages to a person.';
    case 'staff_handoff':
      return 'Staff said a message like this one should go to a person.';
    case 'earlier_turn':
      return 'An earlier message of this conversation already went to a person.';
    default:
      return reason.replace(/_/g, ' ');
  }
}
