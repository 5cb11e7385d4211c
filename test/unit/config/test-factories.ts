import type { ChatCallOptions, ChatModel } from '../../../src/core/chat/chat-model.js';
import { userMessageText } from '../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { ChatResponse } from '../../../src/core/chat/response.js';
import type { DecisionModel, DecisionRequest } from '../../../src/core/decision/decision-model.js';
import { defaultModelRouterFactories } from '../../../src/config/default-model-router-factories.js';
import {
  type ModelRouterFactories,
  pickSettings,
} from '../../../src/config/model-router-factories.js';

export const FIXTURES = 'test/fixtures/model-router';

/** Answers `<reply>: <last user text>`; fails while `failing` is set. */
export class EchoModel implements ChatModel {
  failing = false;
  calls = 0;

  constructor(readonly reply: string) {}

  async chat(request: ChatRequest, _options?: ChatCallOptions): Promise<ChatResponse> {
    this.calls++;
    if (this.failing) throw new Error(`${this.reply} is down`);
    const last = request.messages.findLast((message) => message.role === 'user');
    const text = last?.role === 'user' ? userMessageText(last) : '';
    return {
      aiMessage: { role: 'assistant', text: `${this.reply}: ${text}` },
      modelName: this.reply,
      tokenUsage: { totalTokens: 5 },
    };
  }
}

/** Picks the route whose first option mentions the keyword's route, with probabilities. */
export class KeywordDecisionModel implements DecisionModel {
  constructor(readonly keyword: string) {}

  async decide(request: DecisionRequest) {
    const input =
      typeof request.input === 'string'
        ? request.input
        : request.input.messages.map((message) => message.text).join(' ');
    const options = request.question.options.map((option) => option.name);
    const hit = input.toLowerCase().includes(this.keyword);
    const chosen =
      options.find((name) => name.startsWith(hit ? 'complex' : 'simple')) ?? options[0]!;
    const rest = (1 - 0.9) / (options.length - 1);
    return {
      value: chosen,
      probabilities: Object.fromEntries(
        options.map((name) => [name, name === chosen ? 0.9 : rest]),
      ),
    };
  }
}

/** The default types plus `echo` models and `keyword` decisions; keeps every built model. */
export function testFactories(): {
  factories: ModelRouterFactories;
  built: Map<string, EchoModel>;
} {
  const built = new Map<string, EchoModel>();
  const factories = defaultModelRouterFactories()
    .registerModelType('echo', (settings, context) => {
      const { reply } = pickSettings(settings, ['reply', 'apiKey', 'headers'], 'an echo model');
      const model = new EchoModel(typeof reply === 'string' ? reply : context.name);
      built.set(context.name, model);
      return model;
    })
    .registerDecisionModelType('keyword', (settings) => {
      const { keyword } = pickSettings(settings, ['keyword'], 'a keyword decision model');
      return new KeywordDecisionModel(String(keyword));
    });
  return { factories, built };
}
