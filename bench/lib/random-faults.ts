import type { Capability } from '../../src/core/chat/capability.js';
import type {
  ChatCallOptions,
  ChatModel,
  ChatStreamEvent,
} from '../../src/core/chat/chat-model.js';
import type { ChatRequest } from '../../src/core/chat/request.js';
import type { ChatResponse } from '../../src/core/chat/response.js';
import { streamModel } from '../../src/core/chat/stream.js';

/** A fault spec of the fake provider and its share of all calls (0.05 = 5 %). */
export type FaultMix = ReadonlyArray<readonly [fault: string, share: number]>;

/**
 * Injects the fake provider's faults at random, call by call: with probability `share` a call
 * asks the provider for `<model>-<fault>` instead of `<model>`, and the provider applies the
 * fault named in the model id. Sits under the resilience layer, so each retry draws again.
 */
export function randomFaults(
  model: ChatModel,
  providerModel: string,
  mix: FaultMix,
  random: () => number,
): ChatModel {
  const pick = (request: ChatRequest): ChatRequest => {
    let draw = random();
    for (const [fault, share] of mix) {
      draw -= share;
      if (draw < 0) {
        return {
          ...request,
          parameters: { ...request.parameters, modelName: `${providerModel}-${fault}` },
        };
      }
    }
    return request;
  };
  return {
    chat: (request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse> =>
      model.chat(pick(request), options),
    stream: (request: ChatRequest, options?: ChatCallOptions): AsyncIterable<ChatStreamEvent> =>
      streamModel(model, pick(request), options),
    supportedCapabilities: (): ReadonlySet<Capability> =>
      model.supportedCapabilities?.() ?? new Set(),
  };
}

/** The share of calls a mix turns into faults. */
export function faultShare(mix: FaultMix): number {
  return mix.reduce((sum, [, share]) => sum + share, 0);
}
