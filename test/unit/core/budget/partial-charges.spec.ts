import { describe, expect, it } from '@jest/globals';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatModel, ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import type { ModelProfile } from '../../../../src/core/cost/model-profile.js';
import { partialUsage } from '../../../../src/core/cost/partial-usage.js';
import { meteredGroup } from '../../../support/metered-group.js';
import { deferred, delta, kindError, streamingModel } from '../strategies/fakes.js';

const HOUR = 3_600_000;
// 1 USD per million tokens either way: a token costs a micro-dollar
const profile: ModelProfile = { pricing: { input: 1, output: 1 }, limits: { tpm: 1_000_000 } };
const prompt = { messages: [userMessage('x'.repeat(400))] }; // 100 prompt tokens

function setup(model: ChatModel) {
  return meteredGroup(model, profile, HOUR * 500);
}

// each delta: 8 characters, 2 estimated tokens
const deltas = (count: number): ChatStreamEvent[] =>
  Array.from({ length: count }, () => delta('abcdefgh'));

/** Waits for the charges that are not awaited by the call (the ledger's add is synchronous here). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a call that ends without its answer is paid for (issue 24, point 2)', () => {
  it('estimates from the prompt and the output, never below one token per delta', () => {
    expect(partialUsage(prompt, { characters: 80, deltas: 10 })).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      estimated: true,
    });
    // short deltas: each still carried a token
    expect(partialUsage(prompt, { characters: 10, deltas: 10 }).outputTokens).toBe(10);
    // an empty prompt was still read
    expect(partialUsage({ messages: [] }, { characters: 0, deltas: 0 }).inputTokens).toBe(1);
  });

  it('charges a stream the caller stops reading: budget and tpm', async () => {
    const { router, tpm, spentTokens } = setup(streamingModel('m', deltas(50)));
    let read = 0;
    for await (const event of router.stream(prompt)) {
      if (event.type === 'text-delta') read += 1;
      if (read === 40) break;
    }
    await settled();
    // 100 prompt + 40 deltas of 2 tokens
    expect(spentTokens()).toBe(180);
    expect(tpm()).toBe(180);
  });

  it('charges a stream that fails after output began', async () => {
    const model = streamingModel('m', [...deltas(30), kindError('transient')]);
    const { router, tpm, spentTokens } = setup(model);
    const events: ChatStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of router.stream(prompt)) events.push(event);
      })(),
    ).rejects.toThrow();
    await settled();
    expect(spentTokens()).toBe(160);
    expect(tpm()).toBe(160);
  });

  it('charges nothing for a model that failed before producing anything', async () => {
    const { router, tpm, spentTokens } = setup(
      streamingModel('m', [kindError('transient', 'down')]),
    );
    await expect(
      (async () => {
        for await (const event of router.stream(prompt)) void event;
      })(),
    ).rejects.toThrow();
    await settled();
    expect(spentTokens()).toBe(0);
    expect(tpm()).toBe(0);
  });

  it('charges the prompt of a chat call the caller aborted while the model answered', async () => {
    const answering = deferred<never>();
    const model: ChatModel = { chat: () => answering.promise };
    const { router, tpm, spentTokens } = setup(model);
    const controller = new AbortController();
    const call = router.chat(prompt, { signal: controller.signal });
    await settled();
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(call).rejects.toThrow('gone');
    await settled();
    expect(spentTokens()).toBe(100);
    expect(tpm()).toBe(100);
  });
});
