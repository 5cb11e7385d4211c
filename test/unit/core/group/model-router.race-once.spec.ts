import { describe, expect, it } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { BaseChatModel } from '../../../../src/core/chat/base-chat-model.js';
import type { ChatModel } from '../../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { withResilience } from '../../../../src/core/resilience/resilient-chat-model.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';

const request: ChatRequest = { messages: [userMessage('Hello')] };

/** A provider whose own call ignores its signal: only BaseChatModel's race can stop it. */
class DeafProvider extends BaseChatModel {
  constructor() {
    super({ defaultRequestParameters: { modelName: 'deaf' } });
  }
  protected doChat(): Promise<ChatResponse> {
    return new Promise(() => undefined);
  }
}

const groupOf = (model: ChatModel) =>
  new ModelRouter({ routes: [{ name: 'm', model }], routingStrategy: new FailoverStrategy() });

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The caller's listeners while the member answers, and the call's end after an abort. */
async function abortMidCall(member: ChatModel) {
  const controller = new AbortController();
  const reason = new Error('caller left');
  const call = groupOf(member).chat(request, { signal: controller.signal });
  await settle();
  const listeners = getEventListeners(controller.signal, 'abort').length;
  controller.abort(reason);
  await expect(call).rejects.toBe(reason);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  return listeners;
}

describe("a group races the caller's signal only for a member that may ignore it", () => {
  it("over a provider (BaseChatModel), the provider's race alone ends the call at once", async () => {
    expect(await abortMidCall(new DeafProvider())).toBe(1);
  });

  it('over a resilient provider, its attempt alone listens; an abort ends the call at once', async () => {
    const member = withResilience(new DeafProvider(), { retry: { maxAttempts: 1 } });
    expect(await abortMidCall(member)).toBe(1);
  });

  it('over a plain model that ignores its signal, the group races it itself', async () => {
    const deaf: ChatModel = { chat: () => new Promise<ChatResponse>(() => undefined) };
    expect(await abortMidCall(deaf)).toBe(1);
  });
});
