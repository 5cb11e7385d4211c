// The snippets of docs/core.md, docs/providers.md, docs/testing.md and docs/decision-models.md, run
// as written against the project's FakeProvider (their models read OPENAI_BASE_URL and
// ANTHROPIC_BASE_URL, as an app's would).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  type ChatResponse,
  type ChoiceAnswer,
  DecisionModelChatModelRouter,
  NoMatchingModelFoundException,
  OpenAiCompatibleChatModel,
  type RoutingChatModel,
  userMessage,
} from 'nest-model-router';
import { ProviderException } from 'nest-model-router/core';
import { FakeProvider } from 'nest-model-router/testing';
import { snippetPath, writeSnippets } from './support/markdown.js';

let fake: FakeProvider;

/** Imports a page's snippet with console.log silenced; returns the module and what it logged. */
async function run<T>(page: string, file: string): Promise<{ module: T; logged: unknown[][] }> {
  writeSnippets(page);
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const module = (await import(snippetPath(page, file))) as T;
    return { module, logged: log.mock.calls.map((call) => [...call]) };
  } finally {
    log.mockRestore();
  }
}

beforeAll(async () => {
  fake = await FakeProvider.start();
  process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  process.env.OPENAI_API_KEY = 'test-openai-key';
  process.env.ANTHROPIC_BASE_URL = fake.anthropicBaseURL;
  process.env.ANTHROPIC_API_KEY = 'test-anthropic-key';
});

afterAll(async () => {
  await fake?.close();
});

describe('docs/core.md', () => {
  it('routes a proof to the complex route, then fails over from a broken model', async () => {
    const { module, logged } = await run<{ router: RoutingChatModel; answer: ChatResponse }>(
      'docs/core.md',
      'core-example.ts',
    );
    expect(module.answer.aiMessage.attributes?.chat_model_route).toBe('complex');
    expect(module.answer.aiMessage.text).toContain('(model claude-sonnet-4-6)');
    expect(logged[0]).toEqual(['complex']);

    fake.setFault('claude-sonnet-4-6', 'fault-503');
    const next = await module.router.chat({
      messages: [userMessage('Prove that √3 is irrational')],
    });
    expect(next.aiMessage.text).toContain('(model gpt-4o)');
    expect(module.router.inspectModels().find((m) => m.model === 'claude')).toMatchObject({
      route: 'complex',
      state: 'cooldown',
    });
  });
});

describe('docs/resilience.md', () => {
  it('fails over, probes once per cooldown, doubles it, recovers, and fails fast when all are open', async () => {
    const { module, logged } = await run<{
      failedOver: string;
      whileOpen: string[];
      probeFailed: string;
      stillOpen: string;
      recovered: string;
      failFast: unknown;
    }>('docs/resilience.md', 'breaker.ts');
    expect(module.failedOver).toBe('from backup');
    expect(module.whileOpen).toEqual(['primary: cooldown', 'backup: available']);
    expect(module.probeFailed).toBe('from backup');
    expect(module.stillOpen).toBe('cooldown');
    expect(module.recovered).toBe('from primary');
    expect(module.failFast).toBeInstanceOf(NoMatchingModelFoundException);
    expect(module.failFast).toMatchObject({ retryAfterMs: 10_000 });
    expect(logged).toEqual([[module.whileOpen], [true]]);
  });
});

describe('docs/providers.md', () => {
  it('builds the models it shows', async () => {
    const { module } = await run<Record<string, unknown>>('docs/providers.md', 'providers.ts');
    expect(Object.keys(module).toSorted()).toEqual(['claude', 'gpt', 'judge', 'ollama']);
    expect(module.ollama).toBeInstanceOf(OpenAiCompatibleChatModel);
  });
});

describe('docs/testing.md', () => {
  it('answers, breaks with a 429 and its Retry-After, and counts the requests', async () => {
    const { module, logged } = await run<{
      answer: ChatResponse;
      failure: unknown;
      requests: number;
    }>('docs/testing.md', 'fake-provider-example.ts');
    expect(module.answer.aiMessage.text).toBe('You said: hello (model gpt-4o-mini)');
    expect(logged[0]).toEqual(['You said: hello (model gpt-4o-mini)']);
    expect(module.failure).toBeInstanceOf(ProviderException);
    expect(module.failure).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 5000 });
    expect(module.requests).toBe(2);
  });
});

describe('docs/decision-models.md', () => {
  it('decides offline with probabilities, and builds a router on an LLM judge', async () => {
    const { module } = await run<{ answer: ChoiceAnswer; router: unknown }>(
      'docs/decision-models.md',
      'decide.ts',
    );
    expect(module.answer.value).toBe('billing');
    const { billing = 0, shipping = 0 } = module.answer.probabilities ?? {};
    expect(billing).toBeGreaterThan(shipping);
    expect(module.router).toBeInstanceOf(DecisionModelChatModelRouter);
  });

  it('learns from feedback on a decision id', async () => {
    const { module } = await run<{ learned: Record<string, number> }>(
      'docs/decision-models.md',
      'learn.ts',
    );
    expect(module.learned).toEqual({ quick: 0, expert: 1 });
  });
});
