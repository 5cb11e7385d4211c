import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatModel } from '../../../src/core/chat/chat-model.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import { collectStream } from '../../../src/core/chat/stream.js';
import type { ModelProfile } from '../../../src/core/cost/model-profile.js';
import { NoMatchingModelFoundException } from '../../../src/core/errors/exceptions.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../../../src/testing/index.js';
import { meteredGroup } from '../../support/metered-group.js';

const PROMPT = 'p'.repeat(400); // 100 tokens at four characters a token
const ANSWER = 'word '.repeat(40).trim(); // 199 characters: 50 tokens
const request = { messages: [userMessage(PROMPT)] };
// a micro-dollar a token either way, so spend reads as tokens
const PROFILE: ModelProfile = { pricing: { input: 1, output: 1 }, limits: { tpm: 950 } };

const answer = async (model: ChatModel, stream: boolean): Promise<ChatResponse> =>
  stream ? collectStream(model.stream!(request)) : model.chat(request);

function group(model: ChatModel) {
  return meteredGroup(model, PROFILE, 60_000 * 1_000);
}
/** Lets the charges that the call does not wait for land. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('an upstream that reports no usage is still counted', () => {
  let provider: FakeProvider;
  const openai = (model: string) =>
    new OpenAiCompatibleChatModel({ baseURL: provider.openaiBaseURL, apiKey: 'k', model });
  const anthropic = (model: string) =>
    new AnthropicChatModel({ baseURL: provider.anthropicBaseURL, apiKey: 'k', model });

  beforeAll(async () => {
    provider = await FakeProvider.start();
  });
  afterAll(() => provider.close());
  beforeEach(() => provider.reset());

  const dialects: Array<[string, (model: string) => ChatModel]> = [
    ['OpenAI-compatible', openai],
    ['Anthropic', anthropic],
  ];

  describe.each(dialects)('%s', (_, make) => {
    it.each([false, true])('estimates what the text implies (streamed: %s)', async (stream) => {
      provider.setAnswer('m-no-usage', { text: ANSWER });
      const response = await answer(make('m-no-usage'), stream);
      expect(response.aiMessage.text).toBe(ANSWER);
      expect(response.tokenUsage).toEqual({
        inputTokens: 100,
        outputTokens: 50,
        totalTokens: 150,
        estimated: true,
      });
    });

    it('keeps the usage an upstream reports, unmarked', async () => {
      provider.setAnswer('m-usage', { text: ANSWER });
      const response = await answer(make('m-usage'), true);
      expect(response.tokenUsage?.estimated).toBeUndefined();
      expect(response.tokenUsage?.outputTokens).toBe(40); // the fake's tokens are words
    });
  });

  describe('in a group: budgets and tpm windows count the estimate', () => {
    it.each(dialects)('%s: charged about the text, marked estimated', async (_, make) => {
      provider.setAnswer('m-no-usage', { text: ANSWER });
      const { router, tpm, spentTokens } = group(make('m-no-usage'));
      const events: RoutingEvent[] = [];
      await collectStream(router.stream(request, { observer: (event) => events.push(event) }));
      await router.chat(request, { observer: (event) => events.push(event) });
      await settled();
      expect(spentTokens()).toBe(300);
      expect(tpm()).toBe(300);
      const succeeded = events.filter((event) => event.type === 'model-succeeded');
      expect(succeeded).toHaveLength(2);
      for (const event of succeeded) {
        expect(event).toMatchObject({ usageEstimated: true, costUsd: 0.00015 });
      }
    });

    it('a tpm limit refuses once enough answers without usage have used it up', async () => {
      provider.setAnswer('m-no-usage', { text: ANSWER });
      const { router, clock, tpm } = group(openai('m-no-usage'));
      // 150 estimated tokens each: six answers use 900 of 950, and a seventh prompt (100) won't fit
      for (let i = 0; i < 6; i++) await collectStream(router.stream(request));
      await settled();
      expect(tpm()).toBe(900);
      await expect(router.chat(request)).rejects.toBeInstanceOf(NoMatchingModelFoundException);
      expect(provider.requests.count('m-no-usage')).toBe(6);
      clock.advance(60_000); // the next minute
      await expect(router.chat(request)).resolves.toBeDefined();
    });

    it('a stream cut after output began, or abandoned, is charged what it produced', async () => {
      provider.setAnswer('m-no-usage-fault-cut-after-10', { text: ANSWER });
      const cut = group(openai('m-no-usage-fault-cut-after-10'));
      await expect(collectStream(cut.router.stream(request))).rejects.toThrow();
      await settled();
      // 100 prompt tokens; 'word' and nine ' word': 49 characters, 13 tokens
      expect(cut.spentTokens()).toBe(113);
      expect(cut.tpm()).toBe(113);

      provider.setAnswer('m-no-usage', { text: ANSWER });
      const left = group(openai('m-no-usage'));
      let deltas = 0;
      for await (const event of left.router.stream(request)) {
        if (event.type === 'text-delta' && ++deltas === 5) break;
      }
      await settled();
      // 'word' and four ' word': 24 characters, 6 tokens
      expect(left.spentTokens()).toBe(106);
      expect(left.tpm()).toBe(106);
    });

    it('a model of your own that reports no usage is charged its estimate too', async () => {
      const own: ChatModel = {
        chat: async () => ({ aiMessage: { role: 'assistant', text: ANSWER } }),
      };
      const { router, tpm, spentTokens } = group(own);
      const response = await router.chat(request);
      await settled();
      // the answer is returned as the model gave it; the checks count the estimate
      expect(response.tokenUsage).toBeUndefined();
      expect(tpm()).toBe(150);
      expect(spentTokens()).toBe(150);
    });
  });
});
