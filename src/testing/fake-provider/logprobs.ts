export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

/** Default first-token alternatives: the token sent at p=0.8, then 'Sorry' 0.15, 'Hmm' 0.03. */
const DEFAULT_FIRST_ALTERNATIVES: Array<[string, number]> = [
  ['Sorry', 0.15],
  ['Hmm', 0.03],
];

/**
 * OpenAI-shaped logprobs for the tokens of an answer. The first token has probability 0.8 (or
 * what the scripted `firstTokenTopLogprobs` say); later tokens 0.95. `top_logprobs` lists
 * `topN` entries, the token sent first, then alternatives (`alt<k>` fill the tail).
 */
export function logprobsFor(
  tokens: string[],
  topN: number,
  firstTop?: Array<{ token: string; logprob: number }>,
): TokenLogprob[] {
  return tokens.map((token, index) => {
    let top: Array<{ token: string; logprob: number }>;
    if (index === 0 && firstTop) {
      top = firstTop;
    } else {
      const p = index === 0 ? 0.8 : 0.95;
      const alternatives = index === 0 ? DEFAULT_FIRST_ALTERNATIVES : [['alt1', 0.03] as const];
      top = [
        { token, logprob: Math.log(p) },
        ...alternatives.map(([t, q]) => ({ token: t, logprob: Math.log(q) })),
      ];
      for (let k = top.length; k < topN; k++)
        top.push({ token: `alt${k}`, logprob: Math.log(0.0005) });
    }
    const own = top.find((entry) => entry.token === token)?.logprob ?? Math.log(0.5);
    return {
      token,
      logprob: own,
      bytes: bytesOf(token),
      top_logprobs: top.slice(0, topN).map((entry) => ({ ...entry, bytes: bytesOf(entry.token) })),
    };
  });
}

function bytesOf(token: string): number[] {
  return [...Buffer.from(token, 'utf8')];
}
