import type { EmbeddingResult } from 'nest-model-router/core';

export interface WireEmbeddings {
  object: 'list';
  data: { object: 'embedding'; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/**
 * OpenAI's embeddings answer. `base64` (the openai SDK's default) is little-endian float32, which
 * the SDK decodes back to numbers.
 */
export function toEmbeddingsResponse(
  result: EmbeddingResult,
  model: string,
  encoding: 'float' | 'base64',
): WireEmbeddings {
  const tokens = result.usage?.inputTokens ?? 0;
  return {
    object: 'list',
    data: result.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: encoding === 'base64' ? base64Float32(vector) : vector,
    })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

function base64Float32(vector: readonly number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}
