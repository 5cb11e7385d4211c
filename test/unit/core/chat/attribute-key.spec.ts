import { describe, expect, it } from '@jest/globals';
import { attributeKey, isString } from '../../../../src/core/chat/attribute-key.js';
import {
  isProbeCall,
  probeAttribute,
  ROUTE_ATTRIBUTE,
  routeAttribute,
} from '../../../../src/core/chat/call-attributes.js';
import { logprobsAttribute, logprobsOf } from '../../../../src/core/chat/logprobs.js';
import type { ChatResponse } from '../../../../src/core/chat/response.js';

describe('AttributeKey: the one reader and writer of an attribute key', () => {
  it('reads the value under its key when it has the key type, else nothing', () => {
    const key = attributeKey('k', isString);
    expect(key.of({ k: 'v' })).toBe('v');
    expect(key.of({ k: 42 })).toBeUndefined();
    expect(key.of({})).toBeUndefined();
    expect(key.of(undefined)).toBeUndefined();
  });

  it('writes an entry to spread into attributes, under the public key name', () => {
    expect({ a: 1, ...routeAttribute.entry('simple') }).toEqual({
      a: 1,
      [ROUTE_ATTRIBUTE]: 'simple',
    });
    expect(routeAttribute.of(JSON.parse(JSON.stringify(routeAttribute.entry('simple'))))).toBe(
      'simple',
    );
  });

  it('marks a probe only with true, as the resilience layer reads it', () => {
    expect(isProbeCall(probeAttribute.entry(true))).toBe(true);
    expect(isProbeCall({ [probeAttribute.name]: 'true' })).toBe(false);
    expect(isProbeCall(undefined)).toBe(false);
  });

  it('logprobs: a list, or OpenAI content as it came; logprobsOf gives only the list', () => {
    const list = [{ token: 'A', logprob: -0.1, topLogprobs: [] }];
    const answer = (attributes: Record<string, unknown>): ChatResponse => ({
      aiMessage: { role: 'assistant', text: 'A', attributes },
    });
    expect(logprobsAttribute.of({ logprobs: list })).toBe(list);
    expect(logprobsAttribute.of({ logprobs: { content: list } })).toEqual({ content: list });
    expect(logprobsAttribute.of({ logprobs: 'A' })).toBeUndefined();
    expect(logprobsOf(answer({ logprobs: list }))).toBe(list);
    expect(logprobsOf(answer({ logprobs: { content: list } }))).toBeUndefined();
  });
});
