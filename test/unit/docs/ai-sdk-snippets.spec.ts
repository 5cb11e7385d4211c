// The snippets of docs/ai-sdk.md, run as written: the AI SDK's openai-compatible provider and the
// built-in one against the project's FakeProvider (their base URLs come from the environment).
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { generateText, streamText, type StepResult, type ToolSet } from 'ai';
import {
  getChatModelToken,
  getRouterToken,
  RoutingChatService,
  userMessage,
  type ChatModel,
  type ChatResponse,
  type ModelRouter,
} from 'nest-model-router';
import { toAiSdkLanguageModel } from 'nest-model-router/ai-sdk';
import { FakeProvider } from 'nest-model-router/testing';
import { snippetPath, writeSnippets } from './support/markdown.js';

const PAGE = 'docs/ai-sdk.md';
let fake: FakeProvider;

async function run<T>(file: string): Promise<T> {
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    return (await import(snippetPath(PAGE, file))) as T;
  } finally {
    log.mockRestore();
  }
}

beforeAll(async () => {
  writeSnippets(PAGE);
  fake = await FakeProvider.start();
  process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
  process.env.OPENAI_API_KEY = 'test-openai-key';
  process.env.TOGETHER_BASE_URL = fake.openaiBaseURL;
  process.env.TOGETHER_API_KEY = 'test-together-key';
  process.env.GROQ_BASE_URL = fake.openaiBaseURL;
  process.env.GROQ_API_KEY = 'test-groq-key';
});

afterAll(async () => {
  await fake?.close();
});

describe('docs/ai-sdk.md', () => {
  it('routes to the AI SDK model, then fails over from it to the built-in one', async () => {
    const { answer, group } = await run<{ answer: ChatResponse; group: ModelRouter }>(
      'ai-sdk-in.ts',
    );
    expect(answer.aiMessage.text).toBe(
      'You said: What is the capital of France? (model llama-3.3-70b)',
    );
    fake.setFault('llama-3.3-70b', 'fault-503');
    const next = await group.chat({ messages: [userMessage('and of Spain?')] });
    expect(next.aiMessage.text).toBe('You said: and of Spain? (model gpt-4o-mini)');
    expect(group.inspectModels().find((m) => m.model === 'llama')?.state).toBe('cooldown');
  });

  it('registers an AiSdkChatModel with the module; its router and service serve the AI SDK', async () => {
    const { AiSdkModule } = await run<{ AiSdkModule: new () => unknown }>('ai-sdk.module.ts');
    const moduleRef = await Test.createTestingModule({ imports: [AiSdkModule] }).compile();
    try {
      const chat = moduleRef.get<ChatModel>(getRouterToken('chat'));
      const answer = await chat.chat({ messages: [userMessage('hi')] });
      expect(answer.aiMessage.text).toBe('You said: hi (model llama-3.1-8b-instant)');
      expect(moduleRef.get<ChatModel>(getChatModelToken('llama'))).toBeDefined();
      // the module's router and its service, as AI SDK models
      const viaRouter = await generateText({ model: toAiSdkLanguageModel(chat), prompt: 'yo' });
      expect(viaRouter.text).toBe('You said: yo (model llama-3.1-8b-instant)');
      const service = moduleRef.get(RoutingChatService);
      const viaService = toAiSdkLanguageModel({
        chat: (request, options) => service.chat(request, { signal: options?.signal }),
      });
      const streamed = streamText({ model: viaService, prompt: 'hey' });
      expect(await streamed.text).toBe('You said: hey (model llama-3.1-8b-instant)');
    } finally {
      await moduleRef.close();
    }
  });

  it('serves a router to generateText (tools, two steps) and streamText', async () => {
    // the fake model asks for the tool once, then answers with its result
    fake.setAnswer('gpt-4o-mini', (request) => {
      if (request.tools.length === 0) return { text: 'Hello!' };
      const last = request.messages.at(-1)!;
      return last.role === 'tool'
        ? { text: `It is ${last.text}.` }
        : { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] };
    });
    const { text, steps, streamed } = await run<{
      text: string;
      steps: StepResult<ToolSet>[];
      streamed: string;
    }>('ai-sdk-out.ts');
    expect(steps).toHaveLength(2);
    expect(text).toBe('It is sunny in Oslo.');
    expect(streamed).toBe('Hello!');
  });
});
