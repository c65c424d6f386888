import { type DecisionModel } from './decide.js';
import { handoffTopic, humanIntent } from './intents.js';

/** Why a message goes to a person (the answer's `reason`; explain.ts says it in words). */
export type NeedsHumanReason = 'no_knowledge' | 'unclear_match' | 'human_requested' | 'account_action' | 'handoff_topic' | 'attachment_unreadable' | 'earlier_turn' | 'not_covered' | 'staff_handoff';

/**
 * The rules that hand a message to a person before any reply is written, in the order they are
 * weighed: the customer asked for one (or for something only staff can do), the topic is one the
 * agent always hands over, an attachment could not be read and the agent says so, the decision's
 * probability that the best article answers, and last whether that article is first by the message's
 * words or by its meaning at all. Null: the agent writes a reply, and the generator may still find
 * that the passages do not answer (`not_covered`).
 */
export function handOverReason(options: {
  message: string;
  handoffTopics: readonly string[];
  attachmentsUnreadable: boolean;
  attachmentFallback: 'answer' | 'needs_human';
  /** The decision's probability that the best article answers the message. */
  p: number;
  model: DecisionModel;
  /** The best article is first neither by the message's words nor by its meaning (retrieval's `compromise`). */
  compromise?: boolean;
}): NeedsHumanReason | null {
  const intent = humanIntent(options.message);
  if (intent) return intent;
  if (handoffTopic(options.message, options.handoffTopics)) return 'handoff_topic';
  if (options.attachmentsUnreadable && options.attachmentFallback === 'needs_human') return 'attachment_unreadable';
  if (options.p < options.model.threshold) return 'no_knowledge';
  // Sure enough of an article that neither the words nor the meaning put first: rarely the right one.
  if (options.compromise) return 'unclear_match';
  return null;
}
