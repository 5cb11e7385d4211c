// The snippets of docs/ai-sdk.md, run as written: the AI SDK's openai-compatible provider and the
// built-in one against the project's FakeProvider (their base URLs come from the environment).
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { StepResult, ToolSet } from 'ai';
import {
  getChatModelToken,
  getRouterToken,
  userMessage,
  type ChatModel,
  type ChatResponse,
  type ModelRouter,
} from 'nest-model-router';
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

  it('registers an AiSdkChatModel with the module', async () => {
    const { AiSdkModule } = await run<{ AiSdkModule: new () => unknown }>('ai-sdk.module.ts');
    const moduleRef = await Test.createTestingModule({ imports: [AiSdkModule] }).compile();
    try {
      const chat = moduleRef.get<ChatModel>(getRouterToken('chat'));
      const answer = await chat.chat({ messages: [userMessage('hi')] });
      expect(answer.aiMessage.text).toBe('You said: hi (model llama-3.1-8b-instant)');
      expect(moduleRef.get<ChatModel>(getChatModelToken('llama'))).toBeDefined();
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
