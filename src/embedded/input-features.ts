import type { DecisionInput } from '../core/decision/decision-model.js';
import type { WeightedText } from '../core/decision/models/decision-input-texts.js';
import type { DecisionFeatures, FeatureSpace, WeightedProfile } from './decision-features.js';

/**
 * Topicality (frequency-damped mass of topic words) at which a last message counts as carrying
 * a topic of its own: one uncommon content word ("and in Python?") is about enough.
 */
const TOPICAL = 1;

/**
 * The input as features. In a conversation every message counts by its weight, and when the last
 * user message names no topic ("yes, go ahead", "shorter please") the earlier turns count
 * `1 + followUpWeight` times more, so the conversation's topic decides; a last message with a
 * topic of its own keeps its lead. The last message's `instruction`, when it is a task plus a
 * payload ("summarize this: <article>", instruction-payload.ts), counts again on its own at its
 * weight, so the payload's topic does not outvote it. `texts`: the input's weighted texts
 * (weightedInputTexts), and `lastHasPayload` whether the last message has that shape, both
 * computed once per decision.
 */
export function inputFeatures(
  input: DecisionInput,
  texts: readonly WeightedText[],
  space: FeatureSpace,
  followUpWeight: number,
  instruction?: WeightedText,
  lastHasPayload?: boolean,
): DecisionFeatures {
  const last = typeof input === 'string' ? input : lastUserText(input);
  const parts: (WeightedProfile & { last: boolean })[] = texts.map(({ text, weight }) => ({
    text,
    weight,
    profile: space.embedder.profile(text),
    last: text === last,
  }));
  const lastPart = parts.findLast((part) => part.last);
  if (lastPart && lastHasPayload !== undefined) lastPart.payload = lastHasPayload;
  if (lastPart && followUpWeight > 0 && typeof input !== 'string') {
    const boost = 1 + followUpWeight * (1 - Math.min(1, lastPart.profile.topicality / TOPICAL));
    for (const part of parts) if (part !== lastPart) part.weight *= boost;
  }
  // Added after the follow-up boost: the instruction is part of the last message, not a turn.
  if (instruction && lastPart) {
    parts.push({
      ...instruction,
      profile: space.embedder.profile(instruction.text),
      last: false,
      payload: false,
    });
  }
  return space.combine(parts);
}

function lastUserText(input: { messages: readonly { role: string; text: string }[] }) {
  for (let i = input.messages.length - 1; i >= 0; i--) {
    if (input.messages[i]?.role === 'user') return input.messages[i]!.text;
  }
  return undefined;
}
