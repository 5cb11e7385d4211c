import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { ChatRequestDto } from '../../../src/nest/dto/chat-request.dto.js';
import { JsonBodyValidationPipe } from '../../../src/nest/dto/json-body-validation.pipe.js';

const pipe = new JsonBodyValidationPipe(ChatRequestDto);

async function refusal(body: unknown): Promise<{ message: string; param: string | null }> {
  const error = await pipe.transform(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestException);
  return (error as BadRequestException).getResponse() as { message: string; param: string | null };
}

describe('JsonBodyValidationPipe', () => {
  it('passes a valid body on as it came, the same object, unknown fields included', async () => {
    const body = { messages: [{ role: 'user', content: 'hi' }], vendor_extra: 1 };
    expect(await pipe.transform(body)).toBe(body);
    expect(body).toEqual({ messages: [{ role: 'user', content: 'hi' }], vendor_extra: 1 });
  });

  it('names every invalid field by its path; the first is the param', async () => {
    const { message, param } = await refusal({ messages: [{ role: 'robot', content: 'hi' }] });
    expect(param).toBe('messages.0.role');
    expect(message).toMatch(/^Invalid request body: messages\.0\.role/);
  });

  it('refuses what is not a JSON object, and a body nested too deep, naming the path', async () => {
    expect((await refusal([1, 2])).message).toContain('must be a JSON object');
    let deep: unknown = 'x';
    for (let i = 0; i < 80; i++) deep = [deep];
    const { param } = await refusal({ messages: [{ role: 'user', content: 'hi' }], deep });
    expect(param).toMatch(/^deep(\.0)+/);
  });

  it('strips the keys that would pollute a prototype, at any depth, before validating', async () => {
    const body = JSON.parse(
      '{"messages":[{"role":"user","content":"hi","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}],"prototype":{"polluted":true}}',
    ) as Record<string, unknown>;
    const passed = (await pipe.transform(body)) as { messages: Record<string, unknown>[] };
    expect(Object.hasOwn(passed, 'prototype')).toBe(false);
    expect(Object.hasOwn(passed.messages[0]!, '__proto__')).toBe(false);
    expect(Object.hasOwn(passed.messages[0]!, 'constructor')).toBe(false);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
