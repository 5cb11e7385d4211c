import { describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChoiceQuestion } from '../../../src/core/decision/decision-model.js';
import { EmbeddingDecisionModel } from '../../../src/providers/embeddings/embedding-decision-model.js';
import { ModelTimeoutException } from '../../../src/core/errors/timeout-exception.js';
import { ProviderException } from '../../../src/core/errors/provider-exception.js';
import { untilRequested, useFakeProvider } from '../../support/fake-provider.js';

const API_KEY = 'sk-integration-secret-4242';

// The fake provider's embedding is a hashed bag of words: texts sharing words are close.
const question: ChoiceQuestion = {
  text: 'Which model should handle this request?',
  options: [
    {
      name: 'billing',
      description: 'invoices refunds payments subscription',
      examples: ['refund my last invoice', 'my payment failed'],
    },
    {
      name: 'code',
      description: 'programming debugging python javascript',
      examples: ['debug my python script', 'javascript function error'],
    },
    { name: 'travel', description: 'flights hotels trips visa' },
  ],
};

describe('EmbeddingDecisionModel over HTTP (fake provider on 127.0.0.1)', () => {
  const fake = useFakeProvider({ apiKey: API_KEY });

  function model(
    name = 'text-embedding-fake',
    extra: { apiKey?: string; timeoutMs?: number } = {},
  ) {
    return new EmbeddingDecisionModel({
      baseURL: fake.provider.openaiBaseURL,
      apiKey: extra.apiKey ?? API_KEY,
      model: name,
      ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
    });
  }

  it('routes by embeddings from the endpoint and embeds the option texts only once', async () => {
    const decider = model();
    const first = await decider.decide({ input: 'I need a refund for the invoice', question });
    expect(first.value).toBe('billing');
    expect(Object.values(first.probabilities!).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);

    const second = await decider.decide({ input: 'my python script has a bug to debug', question });
    expect(second.value).toBe('code');

    const requests = fake.provider.requests.forModel('text-embedding-fake');
    expect(requests.count).toBe(2);
    const inputs = requests.bodies.map((body) => (body as { input: string[] }).input);
    expect(inputs[0]).toHaveLength(1 + 3 + 4); // the input, 3 descriptions, 4 examples
    expect(inputs[0]![0]).toBe('I need a refund for the invoice');
    expect(inputs[1]).toEqual(['my python script has a bug to debug']);
    expect(requests.headers[0]!.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('a wrong key is a misconfigured ProviderException whose message does not carry the key', async () => {
    const wrongKey = 'sk-wrong-key-that-must-not-leak';
    const error = (await model('text-embedding-fake', { apiKey: wrongKey })
      .decide({ input: 'refund', question })
      .catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.status).toBe(401);
    expect(error.kind).toBe('misconfigured');
    expect(error.message).not.toContain(wrongKey);
    expect(JSON.stringify(error)).not.toContain(wrongKey);
  });

  it('a 429 with Retry-After is a rate-limited ProviderException carrying retryAfterMs', async () => {
    const error = (await model('embed-fault-429-retry-after-7')
      .decide({ input: 'refund', question })
      .catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.status).toBe(429);
    expect(error.kind).toBe('rate-limited');
    expect(error.retryAfterMs).toBe(7000);
  });

  it('a server that never answers: the caller’s abort rejects with its reason, the timeout with ModelTimeoutException', async () => {
    const controller = new AbortController();
    const pending = model('embed-fault-hang').decide({
      input: 'refund',
      question,
      signal: controller.signal,
    });
    const reason = new Error('caller gave up');
    // abort once the request has reached the server
    await untilRequested(fake.provider, 'embed-fault-hang');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);

    await expect(
      model('embed-fault-hang', { timeoutMs: 100 }).decide({ input: 'refund', question }),
    ).rejects.toThrow(ModelTimeoutException);
  });

  it('an unreachable endpoint is a transient ProviderException', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new EmbeddingDecisionModel({
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: 'm',
    });
    const error = (await unreachable
      .decide({ input: 'refund', question })
      .catch((e: unknown) => e)) as ProviderException;
    expect(error).toBeInstanceOf(ProviderException);
    expect(error.kind).toBe('transient');
  });
});
