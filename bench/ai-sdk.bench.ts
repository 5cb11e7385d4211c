/**
 * What `AiSdkChatModel` costs over the built-in provider: the same routed call (RoutingChatModel →
 * ModelRouter(FailoverStrategy) → model) to the fake provider over real HTTP on 127.0.0.1, once
 * through `AiSdkChatModel(@ai-sdk/openai-compatible)` and once through `OpenAiCompatibleChatModel`.
 * The two run in interleaved batches, so the machine's changing speed moves both alike; the
 * figure is the ratio of their medians in the same run (goal ≤ 1.2×).
 *
 *   npm run bench -- ai-sdk
 */
import { performance } from 'node:perf_hooks';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AiSdkChatModel } from '../src/ai-sdk/index.js';
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatRequest } from '../src/core/chat/request.js';
import { collectStream, streamModel } from '../src/core/chat/stream.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import { ChatModelRoutingResult } from '../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { OpenAiCompatibleChatModel } from '../src/providers/openai/openai-compatible-chat-model.js';
import { FakeProvider } from '../src/testing/index.js';
import { printTable, ratio, us } from './lib/measure.js';

const BATCH = 50;
const ROUNDS = 15;
const request: ChatRequest = { messages: [userMessage('How long is a piece of string?')] };

function routed(model: ChatModel): RoutingChatModel {
  return new RoutingChatModel({
    routes: [
      {
        name: 'a',
        model: new ModelRouter({
          routes: [{ name: 'm', model }],
          routingStrategy: new FailoverStrategy(),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.route('a'),
    defaultRoute: 'a',
  });
}

type Call = () => Promise<unknown>;

/** Median µs per call of each path, over rounds that run every path's batch in turn. */
async function interleaved(calls: Call[]): Promise<number[]> {
  const perRound: number[][] = calls.map(() => []);
  for (let round = -2; round < ROUNDS; round++) {
    for (const [index, call] of calls.entries()) {
      const start = performance.now();
      for (let i = 0; i < BATCH; i++) await call();
      const nsPerCall = ((performance.now() - start) * 1e6) / BATCH;
      if (round >= 0) perRound[index]!.push(nsPerCall); // two warm-up rounds
    }
  }
  return perRound.map((times) => times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)]!);
}

export async function run(): Promise<void> {
  const fake = await FakeProvider.start();
  try {
    const ours = routed(
      new OpenAiCompatibleChatModel({
        baseURL: fake.openaiBaseURL,
        apiKey: 'bench-key',
        model: 'gpt-bench',
      }),
    );
    const provider = createOpenAICompatible({
      name: 'fake',
      baseURL: fake.openaiBaseURL,
      apiKey: 'bench-key',
      includeUsage: true,
    });
    const languageModel = provider.chatModel('gpt-bench');
    const adapter = new AiSdkChatModel(languageModel);
    const viaAiSdk = routed(adapter);
    const callOptions = {
      prompt: [
        {
          role: 'user' as const,
          content: [{ type: 'text' as const, text: 'How long is a piece of string?' }],
        },
      ],
    };

    // sanity: both paths give the same answer
    const [a, b] = await Promise.all([ours.chat(request), viaAiSdk.chat(request)]);
    if (a.aiMessage.text !== b.aiMessage.text || !a.aiMessage.text) {
      throw new Error(`the paths disagree: ${a.aiMessage.text} / ${b.aiMessage.text}`);
    }

    const [oursChat, aiSdkChat, oursStream, aiSdkStream, direct, adapted] = await interleaved([
      () => ours.chat(request),
      () => viaAiSdk.chat(request),
      () => collectStream(streamModel(ours, request)),
      () => collectStream(streamModel(viaAiSdk, request)),
      async () => languageModel.doGenerate(callOptions),
      () => adapter.chat(request),
    ]);
    printTable(
      `AiSdkChatModel vs OpenAiCompatibleChatModel, a routed call to the fake provider (median of ${ROUNDS} interleaved batches of ${BATCH})`,
      [
        {
          benchmark:
            'chat: RoutingChatModel → ModelRouter → AiSdkChatModel(@ai-sdk/openai-compatible)',
          figure: us(aiSdkChat!),
          baseline: `${us(oursChat!)} OpenAiCompatibleChatModel`,
          ratio: ratio(aiSdkChat!, oursChat!),
        },
        {
          benchmark: 'stream: the same, streamed to the end',
          figure: us(aiSdkStream!),
          baseline: `${us(oursStream!)} OpenAiCompatibleChatModel`,
          ratio: ratio(aiSdkStream!, oursStream!),
        },
        {
          benchmark: 'the adapter alone: AiSdkChatModel.chat() (no routing)',
          figure: us(adapted!),
          baseline: `${us(direct!)} the same model's doGenerate() called directly`,
          ratio: ratio(adapted!, direct!),
        },
      ],
    );
  } finally {
    await fake.close();
  }
}
