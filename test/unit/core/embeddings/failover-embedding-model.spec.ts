import { describe, expect, it } from '@jest/globals';
import {
  FailoverEmbeddingModel,
  NoMatchingModelFoundException,
  ProviderException,
  type EmbeddingModel,
} from '../../../../src/core/index.js';

const failing = (status: number, kind: 'transient' | 'invalid-request'): EmbeddingModel => ({
  embed: async () => {
    throw new ProviderException(`answered ${status}`, { kind, provider: 'p', status });
  },
});
const working = (value: number): EmbeddingModel => ({
  embed: async (texts) => ({ vectors: texts.map(() => [value]), usage: { inputTokens: 1 } }),
});

describe('FailoverEmbeddingModel', () => {
  it('moves past an outage to the next model and names the one that answered', async () => {
    const group = new FailoverEmbeddingModel([
      { name: 'down', model: failing(503, 'transient') },
      { name: 'up', model: working(7) },
    ]);
    await expect(group.embed(['a', 'b'])).resolves.toEqual({
      vectors: [[7], [7]],
      usage: { inputTokens: 1 },
      modelName: 'up',
      servedBy: 'up',
    });
  });

  it('names the member as configured even when it reports its provider id', async () => {
    const provider: EmbeddingModel = {
      embed: async (texts) => ({ vectors: texts.map(() => [1]), modelName: 'text-embedding-3' }),
    };
    const group = new FailoverEmbeddingModel([
      { name: 'down', model: failing(503, 'transient') },
      { name: 'openai-small', model: provider },
    ]);
    await expect(group.embed(['a'])).resolves.toMatchObject({
      modelName: 'text-embedding-3',
      servedBy: 'openai-small',
    });
  });

  it('does not fail over from the caller’s own mistake', async () => {
    const group = new FailoverEmbeddingModel([
      { name: 'strict', model: failing(400, 'invalid-request') },
      { name: 'up', model: working(1) },
    ]);
    await expect(group.embed(['a'])).rejects.toThrow('answered 400');
  });

  it('reports every failure when all fail, and refuses an empty group', async () => {
    const group = new FailoverEmbeddingModel([
      { name: 'a', model: failing(503, 'transient') },
      { name: 'b', model: failing(502, 'transient') },
    ]);
    const error = (await group
      .embed(['x'])
      .catch((e: unknown) => e)) as NoMatchingModelFoundException;
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect(error.errors).toHaveLength(2);
    expect(() => new FailoverEmbeddingModel([])).toThrow('needs models');
  });

  it('stops at an abort before calling the next model', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller left'));
    const group = new FailoverEmbeddingModel([{ name: 'up', model: working(1) }]);
    await expect(group.embed(['a'], { signal: controller.signal })).rejects.toThrow('caller left');
  });
});
