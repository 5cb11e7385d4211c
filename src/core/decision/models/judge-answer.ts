import { InvalidDecisionResponseException } from '../../errors/exceptions.js';

/**
 * The label in a judge's reply. Strict: the reply must be one offered label, optionally wrapped
 * in quotes, brackets or bold markers and followed by `.`, `:` or `)`. Anything else, an option's
 * name included, is an InvalidDecisionResponseException.
 */
export function parseLabel(reply: string | undefined, labels: readonly string[]): string {
  const match = LABEL_REPLY.exec(reply ?? '');
  const label = match?.[1];
  if (label !== undefined && labels.includes(label)) return label;
  throw new InvalidDecisionResponseException(
    `the decision model answered ${describe(reply)}, which is not one of the offered labels ` +
      `${labels.join(', ')}`,
  );
}

const LABEL_REPLY = /^[\s"'`*([]*([A-Z]|\d{1,3})[\s"'`*)\].:]*$/;

function describe(reply: string | undefined): string {
  if (reply === undefined || reply.trim() === '') return 'nothing';
  const oneLine = reply.replace(/\s+/g, ' ').trim();
  return `'${oneLine.length > 60 ? `${oneLine.slice(0, 57)}...` : oneLine}'`;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * The first token's alternatives from a response's `aiMessage.attributes.logprobs`. Accepted
 * shapes: OpenAI's per-token list `[{ token, logprob, top_logprobs: [{ token, logprob }] }]`
 * (the first token's `top_logprobs`, or `topLogprobs`), or directly the first token's
 * alternatives `[{ token, logprob }]`. Anything else gives undefined.
 */
export function firstTokenAlternatives(logprobs: unknown): TokenLogprob[] | undefined {
  const list = Array.isArray(logprobs)
    ? logprobs
    : Array.isArray((logprobs as { content?: unknown } | null)?.content)
      ? (logprobs as { content: unknown[] }).content
      : undefined;
  if (!list || list.length === 0) return undefined;
  const first = list[0] as { top_logprobs?: unknown; topLogprobs?: unknown };
  const nested = first?.top_logprobs ?? first?.topLogprobs;
  const alternatives = Array.isArray(nested) ? nested : list;
  const valid = alternatives.filter(
    (entry): entry is TokenLogprob =>
      typeof (entry as TokenLogprob)?.token === 'string' &&
      typeof (entry as TokenLogprob)?.logprob === 'number' &&
      !Number.isNaN((entry as TokenLogprob).logprob),
  );
  return valid.length > 0 ? valid : undefined;
}

/**
 * Probabilities of the labels from the first token's alternatives, normalised over the offered
 * labels (tokens like " A" or "A." count for A). Undefined when no alternative is a label.
 */
export function labelProbabilities(
  alternatives: readonly TokenLogprob[],
  labels: readonly string[],
): Record<string, number> | undefined {
  const mass = new Map<string, number>();
  for (const { token, logprob } of alternatives) {
    const label = LABEL_REPLY.exec(token)?.[1];
    if (label === undefined || !labels.includes(label)) continue;
    mass.set(label, (mass.get(label) ?? 0) + Math.exp(logprob));
  }
  const total = [...mass.values()].reduce((a, b) => a + b, 0);
  if (!(total > 0)) return undefined;
  const probabilities: Record<string, number> = {};
  for (const label of labels) probabilities[label] = (mass.get(label) ?? 0) / total;
  return probabilities;
}
