/**
 * Words people use to leave the conversation's topic: "different question: how do I centre a
 * div", "thanks. unrelated - what's a good movie?", "btw, what's 20 % VAT on 40 €?". Such a last
 * message is a request of its own, whatever came before; "another one" and "one more" are not
 * among them: they ask for more of the same.
 */
const TOPIC_SWITCH = new RegExp(
  [
    String.raw`\b(?:unrelated|off[- ]topic|by the way|btw|switching gears|change of (?:subject|topic))\b`,
    String.raw`\bon (?:another|a different|an unrelated|a separate) note\b`,
    String.raw`\b(?:different|separate|another|new|other|random|unrelated) (?:question|thing|topic|subject|matter|request)\b`,
    String.raw`\b(?:totally|completely|something) different\b`,
    String.raw`\bquick (?:one|question)\s*[:\-–—]`,
  ].join('|'),
  'i',
);

/** Only the opening is looked at: a pasted text may say "by the way" anywhere. */
const OPENING_CHARS = 80;

/** Whether a message opens by announcing a new topic. */
export const switchesTopic = (text: string): boolean =>
  TOPIC_SWITCH.test(text.slice(0, OPENING_CHARS));
