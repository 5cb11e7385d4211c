import { describe, expect, it } from '@jest/globals';
import {
  InvalidConfigurationException,
  InvalidDecisionResponseException,
} from '../../../../src/core/errors/exceptions.js';
import type { ChoiceQuestion } from '../../../../src/core/decision/decision-model.js';
import { EmbeddingDecisionModel } from '../../../../src/providers/embeddings/embedding-decision-model.js';
import type { EmbedFunction } from '../../../../src/providers/embeddings/openai-compatible-embed.js';

/** A toy embedding: counts of three topic words. */
const TOPICS = ['code', 'money', 'travel'];
function toyVector(text: string): number[] {
  const words = text.toLowerCase().split(/\W+/);
  return TOPICS.map((topic) => words.filter((w) => w === topic).length + 0.01);
}

function recordingEmbed(vector: (text: string) => number[] = toyVector) {
  const calls: string[][] = [];
  const embed: EmbedFunction = async (texts) => {
    calls.push([...texts]);
    return texts.map(vector);
  };
  return { embed, calls };
}

const question: ChoiceQuestion = {
  text: 'q',
  options: [
    { name: 'dev', description: 'code code', examples: ['write code', 'review code please'] },
    { name: 'billing', description: 'money' },
    { name: 'trips', description: 'travel', examples: ['travel plans'] },
  ],
};

describe('EmbeddingDecisionModel', () => {
  it('chooses the closest option by cosine and reports softmax probabilities for every option', async () => {
    const { embed } = recordingEmbed();
    const answer = await new EmbeddingDecisionModel({ embed }).decide({
      input: 'money money',
      question,
    });
    expect(answer.value).toBe('billing');
    expect(Object.keys(answer.probabilities!)).toEqual(['dev', 'billing', 'trips']);
    expect(Object.values(answer.probabilities!).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(answer.probabilities!.billing).toBeGreaterThan(0.9);
  });

  it('embeds option texts once (cached by text) and the input on every decision, in one request', async () => {
    const { embed, calls } = recordingEmbed();
    const model = new EmbeddingDecisionModel({ embed });
    await model.decide({ input: 'travel', question });
    expect(calls).toEqual([
      ['travel', 'code code', 'write code', 'review code please', 'money', 'travel plans'],
    ]);
    await model.decide({ input: 'code', question });
    await model.decide({ input: 'travel', question });
    expect(calls.slice(1)).toEqual([['code'], ['travel']]);
    // a new option text is fetched together with the input
    await model.decide({
      input: 'code',
      question: {
        text: 'q',
        options: [...question.options, { name: 'new', description: 'brand new' }],
      },
    });
    expect(calls[3]).toEqual(['code', 'brand new']);
  });

  it('weighs the messages of a conversation, the last user message most', async () => {
    const { embed, calls } = recordingEmbed();
    const model = new EmbeddingDecisionModel({ embed });
    const answer = await model.decide({
      input: {
        messages: [
          { role: 'user', text: 'money' },
          { role: 'assistant', text: 'money money' },
          { role: 'user', text: 'travel' },
        ],
      },
      question,
    });
    expect(answer.value).toBe('trips');
    expect(calls[0]!.slice(0, 3)).toEqual(['money', 'money money', 'travel']);
  });

  it('an empty input gets uniform probabilities and the first option without calling the endpoint', async () => {
    const { embed, calls } = recordingEmbed();
    const answer = await new EmbeddingDecisionModel({ embed }).decide({ input: '  ', question });
    expect(answer.value).toBe('dev');
    for (const p of Object.values(answer.probabilities!)) expect(p).toBeCloseTo(1 / 3, 10);
    expect(calls).toHaveLength(0);
  });

  it('a wrong number of vectors, or vectors of different sizes, is an InvalidDecisionResponseException', async () => {
    const short = new EmbeddingDecisionModel({ embed: async () => [[1, 0]] });
    await expect(short.decide({ input: 'x', question })).rejects.toThrow(
      InvalidDecisionResponseException,
    );
    await expect(short.decide({ input: 'x', question })).rejects.toThrow(
      'returned 1 vectors for 7 texts',
    );
    const ragged = new EmbeddingDecisionModel({
      embed: async (texts) => texts.map((_, i) => (i === 0 ? [1, 0, 0] : [1, 0])),
    });
    await expect(ragged.decide({ input: 'x', question })).rejects.toThrow(
      'different or zero dimensions',
    );
  });

  it('does not cache anything when the embedding call fails, and propagates its error', async () => {
    const failure = new Error('endpoint down');
    let fail = true;
    const calls: string[][] = [];
    const model = new EmbeddingDecisionModel({
      embed: async (texts) => {
        calls.push(texts);
        if (fail) throw failure;
        return texts.map(toyVector);
      },
    });
    await expect(model.decide({ input: 'code', question })).rejects.toBe(failure);
    fail = false;
    await model.decide({ input: 'code', question });
    expect(calls[1]).toHaveLength(7);
  });

  it('passes the signal to embed; an abort before or during the call rejects with its reason', async () => {
    const before = new AbortController();
    const reason = new Error('stop');
    before.abort(reason);
    const { embed, calls } = recordingEmbed();
    await expect(
      new EmbeddingDecisionModel({ embed }).decide({ input: 'x', question, signal: before.signal }),
    ).rejects.toBe(reason);
    expect(calls).toHaveLength(0);

    const during = new AbortController();
    let seen: AbortSignal | undefined;
    const hanging = new EmbeddingDecisionModel({
      embed: (_texts, signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
    });
    const pending = hanging.decide({ input: 'x', question, signal: during.signal });
    const later = new Error('later');
    during.abort(later);
    await expect(pending).rejects.toBe(later);
    expect(seen).toBe(during.signal);
  });

  it('validates its configuration, naming the field', () => {
    const { embed } = recordingEmbed();
    expect(() => new EmbeddingDecisionModel(undefined as never)).toThrow(
      InvalidConfigurationException,
    );
    expect(() => new EmbeddingDecisionModel({ embed: 'nope' as never })).toThrow(
      'embed must be a function',
    );
    expect(() => new EmbeddingDecisionModel({ embed, temperature: 0 })).toThrow('temperature');
    expect(() => new EmbeddingDecisionModel({ embed, descriptionWeight: -0.1 })).toThrow(
      'descriptionWeight',
    );
    expect(() => new EmbeddingDecisionModel({ baseURL: 'localhost:8080', model: 'm' })).toThrow(
      'baseURL',
    );
    expect(
      () => new EmbeddingDecisionModel({ baseURL: 'http://127.0.0.1:1/v1', model: ' ' }),
    ).toThrow('(model)');
    expect(
      () =>
        new EmbeddingDecisionModel({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 0 }),
    ).toThrow('timeoutMs');
  });
});
