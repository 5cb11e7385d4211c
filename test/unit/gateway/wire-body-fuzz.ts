import { expect } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { assertChatRequest } from '../../../src/core/chat/assert-chat-request.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import { toWireError } from '../../../apps/gateway/src/openai/openai-error.js';
import { hostileBodiesFor } from '../../../bench/lib/hostile-bodies.js';
import { FUZZED_SURFACES } from '../../../bench/lib/hostile-surfaces.js';

/** What the pipe says of a body: the parsed body, or the 400's message and param. */
export function verdict<T>(
  pipe: { transform(value: unknown): T },
  body: unknown,
): { passed: T } | { refused: { message: string; param: string | null } } {
  try {
    return { passed: pipe.transform(body) };
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    const wire = toWireError(error);
    expect(wire.status).toBe(400);
    const { message, param } = wire.body.error;
    return { refused: { message, param } };
  }
}

/** The 400 a body gets (failing the test when it passes). */
export function refusal(
  pipe: { transform(value: unknown): unknown },
  body: unknown,
): { message: string; param: string | null } {
  const answer = verdict(pipe, body);
  if (!('refused' in answer)) throw new Error(`passed: ${JSON.stringify(body).slice(0, 200)}`);
  return answer.refused;
}

/** The fuzz corpus of a surface other than chat completions: one to three fields broken. */
export function surfaceBodies(path: string, count = 3_000): string[] {
  const [, base, fields] = FUZZED_SURFACES.find(([surface]) => surface === path)!;
  return hostileBodiesFor(path, base, fields, count).map((body) => body.raw);
}

/**
 * Over a fuzz corpus (and the valid bodies), every body that is JSON is passed by the surface's
 * pipe or refused with a 400, never any other error; and what it passes maps to a ChatRequest
 * the core accepts, which is what lets the gateway tell the service the request is checked.
 */
export function expectOnlyClientErrors<T>(
  pipe: { transform(value: unknown): T },
  raws: readonly string[],
  toRequest?: (body: T) => ChatRequest,
): { passed: number; refused: number } {
  let passed = 0;
  let refused = 0;
  for (const raw of raws) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      continue; // Fastify's JSON parser answers these before the pipe
    }
    const answer = verdict(pipe, body);
    if ('refused' in answer) {
      refused++;
      expect(answer.refused.message.length).toBeGreaterThan(0);
      continue;
    }
    passed++;
    if (toRequest) expect(() => assertChatRequest(toRequest(answer.passed))).not.toThrow();
  }
  return { passed, refused };
}
