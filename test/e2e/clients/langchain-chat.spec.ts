import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChatOpenAI } from '@langchain/openai';
import {
  AIMessage,
  HumanMessage,
  ToolMessage,
  type AIMessageChunk,
} from '@langchain/core/messages';
import { startClientGateway, type ClientGateway } from './client-gateway.js';

const QUESTION = 'What is the capital of France?';
const LOOKUP = {
  type: 'function' as const,
  function: {
    name: 'lookup',
    description: 'Looks a term up',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};
const OTHER = {
  type: 'function' as const,
  function: { name: 'other', description: 'Not this one', parameters: { type: 'object' } },
};
const CITY = {
  title: 'city',
  description: 'A city and its population',
  type: 'object',
  properties: { name: { type: 'string' }, population: { type: 'number' } },
  required: ['name', 'population'],
  additionalProperties: false,
};

/** LangChain JS (`@langchain/openai` 1.5 on `@langchain/core` 1.4) against the gateway. */
describe('LangChain ChatOpenAI on /v1/chat/completions', () => {
  let env: ClientGateway;
  let chat: (model?: string) => ChatOpenAI;

  beforeAll(async () => {
    env = await startClientGateway();
    chat = (model = 'auto') =>
      new ChatOpenAI({
        model,
        apiKey: 'not-needed',
        configuration: { baseURL: `${env.gateway.url}/v1` },
        maxRetries: 0,
      });
  });

  afterAll(async () => {
    await env.close();
  });

  it('invoke answers with the text, the model and usage', async () => {
    const answer = await chat().invoke(QUESTION);
    expect(answer.content).toMatch(/^Model 'demo-mini' on router 'auto', route 'simple'/);
    expect(answer.response_metadata.model_name).toBe('demo-mini');
    expect(answer.usage_metadata?.output_tokens).toBe(String(answer.content).split(/\s+/).length);
  });

  it('stream adds up to invoke’s text and usage', async () => {
    const plain = await chat().invoke(QUESTION);
    let joined: AIMessageChunk | undefined;
    let chunks = 0;
    for await (const chunk of await chat().stream(QUESTION)) {
      joined = joined ? joined.concat(chunk) : chunk;
      chunks++;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(joined!.content).toBe(plain.content);
    expect(joined!.usage_metadata).toEqual(plain.usage_metadata);
    // usage comes once, in OpenAI's last chunk with choices: [] (it was doubled when the
    // finish chunk carried it too)
    expect(joined!.response_metadata.usage).toEqual(plain.response_metadata.usage);
  });

  it('bindTools: a tool call, then the answer from its result, on the same route', async () => {
    const model = chat().bindTools([LOOKUP]);
    const question = new HumanMessage('What does ubiquitous mean?');
    const call = await model.invoke([question]);
    expect(call.tool_calls).toHaveLength(1);
    const toolCall = call.tool_calls![0]!;
    expect(toolCall).toMatchObject({
      name: 'lookup',
      args: { query: 'What does ubiquitous mean?' },
    });
    const result = new ToolMessage({ tool_call_id: toolCall.id!, content: 'everywhere at once' });
    const answer = await model.invoke([question, new AIMessage(call), result]);
    expect(answer.content).toContain('everywhere at once');
    expect(answer.content).toContain("route 'simple'");
  });

  it('bindTools streams tool-call chunks whose arguments add up', async () => {
    for (const id of ['auto', 'fake/tools-model']) {
      let joined: AIMessageChunk | undefined;
      let pieces = 0;
      for await (const chunk of await chat(id).bindTools([LOOKUP]).stream('define ubiquitous')) {
        if (chunk.tool_call_chunks?.length) pieces++;
        joined = joined ? joined.concat(chunk) : chunk;
      }
      expect(pieces).toBeGreaterThan(1);
      expect(joined!.tool_calls).toHaveLength(1);
      expect(joined!.tool_calls![0]!.name).toBe('lookup');
      expect(typeof joined!.tool_calls![0]!.args.query).toBe('string');
    }
  });

  it('bindTools with a named tool_choice calls that tool', async () => {
    const call = await chat()
      .bindTools([OTHER, LOOKUP], { tool_choice: 'lookup' })
      .invoke('What does ubiquitous mean?');
    expect(call.tool_calls!.map((toolCall) => toolCall.name)).toEqual(['lookup']);
  });

  it.each(['functionCalling', 'jsonSchema', 'jsonMode'] as const)(
    'withStructuredOutput (method %s) parses an object',
    async (method) => {
      const schema = method === 'jsonMode' ? { ...CITY, title: undefined } : CITY;
      const structured = chat().withStructuredOutput(schema, { method, name: 'city' });
      const city = (await structured.invoke(
        method === 'jsonMode' ? `${QUESTION} Answer in JSON.` : QUESTION,
      )) as Record<string, unknown>;
      if (method === 'jsonMode') {
        // JSON mode carries no schema: the model answers some JSON object
        expect(typeof city).toBe('object');
      } else {
        expect(typeof city.name).toBe('string');
        expect(typeof city.population).toBe('number');
      }
    },
  );
});
