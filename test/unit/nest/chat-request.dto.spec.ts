import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { ChatRequestDto } from '../../../src/nest/dto/chat-request.dto.js';

const pipe = new ValidationPipe({ transform: true, whitelist: true });

async function transform(body: unknown): Promise<ChatRequestDto> {
  return (await pipe.transform(body, { type: 'body', metatype: ChatRequestDto })) as ChatRequestDto;
}

async function messagesOf(body: unknown): Promise<string[]> {
  const error = await transform(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestException);
  return ((error as BadRequestException).getResponse() as { message: string[] }).message;
}

/** Messages of every role but system carrying only fields their role defines: kept as they are. */
const DEFINED_FIELDS_ONLY = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', url: 'https://example.com/cat.png', mimeType: 'image/png' },
    ],
    name: 'jane',
  },
  {
    role: 'assistant',
    toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"cat"}' }],
    attributes: { chat_model_route: 'vision' },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'lookup', text: 'a cat' },
];

const PARAMETERS = {
  temperature: 0.2,
  maxOutputTokens: 100,
  seed: 7,
  logitBias: { '50256': -100 },
  topLogprobs: 3,
  reasoningEffort: 'low',
  tools: [{ name: 'lookup', parameters: { type: 'object' } }],
  responseFormat: {
    type: 'json',
    jsonSchema: { name: 'answer', schema: { type: 'object' } },
  },
};

describe('ChatRequestDto', () => {
  it('turns a valid body into a ChatRequest with only the fields each role defines', async () => {
    const dto = await transform(
      structuredClone({
        router: 'support',
        messages: [
          { role: 'system', text: 'Be brief', content: 'ignored for system' },
          ...DEFINED_FIELDS_ONLY,
        ],
        parameters: PARAMETERS,
      }),
    );
    expect(dto).toBeInstanceOf(ChatRequestDto);
    expect(dto.router).toBe('support');
    expect(dto.toChatRequest()).toEqual({
      messages: [{ role: 'system', text: 'Be brief' }, ...DEFINED_FIELDS_ONLY],
      parameters: PARAMETERS,
    });
  });

  it('converts a plain (untransformed) body too', () => {
    expect(
      ChatRequestDto.toChatRequest({
        messages: [{ role: 'user', content: 'hi' }],
      } as ChatRequestDto),
    ).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  });

  it('names every invalid field', async () => {
    expect(
      await messagesOf({
        messages: [
          { role: 'user', content: [{ type: 'video' }] },
          { role: 'assistant', text: 42 },
        ],
        parameters: {
          topP: 3,
          maxOutputTokens: 0.5,
          toolChoice: 'sometimes',
          stopSequences: [1],
          seed: 0.5,
          logitBias: { '1': 200 },
        },
        router: '',
      }),
    ).toEqual(
      expect.arrayContaining([
        'messages.0.content[0] needs a url or data',
        'messages.1.text must be a string',
        'parameters.topP must not be greater than 1',
        'parameters.maxOutputTokens must be an integer number',
        'parameters.toolChoice must be one of the following values: auto, required, none',
        'parameters.each value in stopSequences must be a string',
        'parameters.seed must be an integer',
        'parameters.logitBias values must be numbers from -100 to 100',
        'router should not be empty',
      ]),
    );
  });
});

describe('ChatRequestDto reports a missing messages list as missing', () => {
  it("one problem through Nest's ValidationPipe, not every bound an absent list fails", async () => {
    expect(await messagesOf({})).toEqual(['messages is required']);
    const many = Array.from({ length: 4097 }, () => ({ role: 'user', content: 'x' }));
    expect(await messagesOf({ messages: many })).toEqual([
      'messages must contain at most 4096 messages',
    ]);
  });
});
