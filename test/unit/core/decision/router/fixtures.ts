import { expect, jest } from '@jest/globals';
import type { ChatMessage } from '../../../../../src/core/chat/messages.js';
import type {
  ChoiceAnswer,
  DecisionLogger,
  DecisionModel,
  DecisionRequest,
} from '../../../../../src/core/decision/decision-model.js';
import type { RoutingEvent } from '../../../../../src/core/observability/routing-event.js';
import type { ChatModelRoute } from '../../../../../src/core/routing/chat-model-route.js';
import type { ChatModelRoutingRequest } from '../../../../../src/core/routing/chat-model-router.js';

export const SIMPLE: ChatModelRoute = {
  name: 'simple',
  descriptions: ['Small talk and short facts'],
};
export const COMPLEX: ChatModelRoute = {
  name: 'complex',
  descriptions: ['Multi-step reasoning', 'Writing or reviewing code'],
  examples: ['Prove that the square root of 2 is irrational', 'Refactor this function'],
};
export const CREATIVE: ChatModelRoute = { name: 'creative', descriptions: [] };
export const ROUTES: readonly ChatModelRoute[] = [SIMPLE, COMPLEX, CREATIVE];

export type FakeDecisionModel = DecisionModel & {
  decide: jest.Mock<(request: DecisionRequest) => Promise<ChoiceAnswer>>;
};

/** A decision model that answers `answer`, recording every request it gets. */
export function fakeDecisionModel(answer: ChoiceAnswer = { value: 'simple' }): FakeDecisionModel {
  return {
    decide: jest.fn<(request: DecisionRequest) => Promise<ChoiceAnswer>>(async () => answer),
  };
}

export function failingDecisionModel(error: unknown): FakeDecisionModel {
  return {
    decide: jest.fn<(request: DecisionRequest) => Promise<ChoiceAnswer>>(async () => {
      throw error;
    }),
  };
}

export function fakeLogger(): DecisionLogger & { warn: jest.Mock<DecisionLogger['warn']> } {
  return { warn: jest.fn<DecisionLogger['warn']>() };
}

export function routingRequest(
  messages: ChatMessage[],
  extra: Partial<Omit<ChatModelRoutingRequest, 'chatRequest'>> = {},
): ChatModelRoutingRequest {
  return { chatRequest: { messages }, routes: ROUTES, attributes: {}, ...extra };
}

/** The single request a fake decision model received. */
export function onlyRequest(model: FakeDecisionModel): DecisionRequest {
  expect(model.decide).toHaveBeenCalledTimes(1);
  return model.decide.mock.calls[0][0];
}

export function recordingObserver(): {
  events: RoutingEvent[];
  observer: (e: RoutingEvent) => void;
} {
  const events: RoutingEvent[] = [];
  return { events, observer: (event) => events.push(event) };
}
