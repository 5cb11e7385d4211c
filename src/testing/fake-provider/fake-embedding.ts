import { countTokens, fnv1a } from './tokens.js';

/**
 * A deterministic embedding: a hashed bag of words (plus 5-letter stems at half weight, so
 * "routing" and "routes" meet), L2-normalised. Texts sharing words are close by cosine; the
 * same text always gets the same vector. Empty text gets the first unit vector.
 */
export function fakeEmbedding(text: string, dimensions = 64): number[] {
  const vector: number[] = Array.from({ length: dimensions }, () => 0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
    add(vector, word, 1);
    if (word.length > 5) add(vector, `stem:${word.slice(0, 5)}`, 0.5);
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
}

function add(vector: number[], feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const sign = (hash & 0x80000000) === 0 ? 1 : -1;
  vector[hash % vector.length]! += sign * weight;
}

type Json = Record<string, unknown>;

/**
 * The `/v1/embeddings` answer; `encoding_format: 'base64'` (the openai SDK's default) packs float32.
 * A model name containing `no-usage` answers without `usage`, as some self-hosted servers do.
 */
export function embeddingsResponse(body: Json, defaultDimensions: number): Json {
  const inputs = inputsOf(body.input);
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : defaultDimensions;
  const base64 = body.encoding_format === 'base64';
  const tokens = inputs.reduce((sum, input) => sum + countTokens(input), 0);
  return {
    object: 'list',
    model: body.model,
    data: inputs.map((input, index) => {
      const vector = fakeEmbedding(input, dimensions);
      return {
        object: 'embedding',
        index,
        embedding: base64
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector,
      };
    }),
    ...(String(body.model).includes('no-usage')
      ? {}
      : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
  };
}

function inputsOf(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) {
    throw new Error('input: a string or a non-empty array of strings is required');
  }
  if (input.every((item) => typeof item === 'number')) return [input.join(' ')];
  return input.map((item, index) => {
    if (typeof item === 'string') return item;
    if (Array.isArray(item)) return item.join(' ');
    throw new Error(`input[${index}]: expected a string`);
  });
}
