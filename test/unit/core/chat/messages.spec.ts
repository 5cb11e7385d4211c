import { describe, expect, it } from '@jest/globals';
import {
  aiMessage,
  systemMessage,
  toolResultMessage,
  userMessage,
  userMessageText,
} from '../../../../src/core/chat/messages.js';
import { mergeParameters } from '../../../../src/core/chat/request.js';
import { totalTokensOf } from '../../../../src/core/chat/response.js';

describe('2.1 chat message helpers', () => {
  it('build plain role-tagged objects that survive JSON round trips', () => {
    const messages = [
      systemMessage('be brief'),
      userMessage('hi'),
      aiMessage({ text: 'hello', toolCalls: [{ id: 't1', name: 'f', arguments: '{}' }] }),
      toolResultMessage('t1', '42', 'f'),
    ];
    expect(messages).toEqual([
      { role: 'system', text: 'be brief' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', text: 'hello', toolCalls: [{ id: 't1', name: 'f', arguments: '{}' }] },
      { role: 'tool', toolCallId: 't1', toolName: 'f', text: '42' },
    ]);
    expect(JSON.parse(JSON.stringify(messages))).toEqual(messages);
  });

  it('aiMessage accepts a string', () => {
    expect(aiMessage('ok')).toEqual({ role: 'assistant', text: 'ok' });
  });

  it('toolResultMessage leaves out an absent tool name', () => {
    expect(Object.keys(toolResultMessage('id', 'x'))).toEqual(['role', 'toolCallId', 'text']);
  });

  it('userMessageText joins parts and marks attachments', () => {
    const text = userMessageText(
      userMessage([
        { type: 'text', text: 'look' },
        { type: 'image', url: 'http://x/y.png' },
        { type: 'audio', data: 'AAAA' },
        { type: 'video' },
        { type: 'pdf' },
        { type: 'text', text: 'thanks' },
      ]),
    );
    expect(text).toBe(
      'look\n[attached image]\n[attached audio]\n[attached video]\n[attached pdf]\nthanks',
    );
  });
});

describe('request parameters and usage', () => {
  it('request parameters win over defaults, undefined does not erase a default', () => {
    expect(
      mergeParameters(
        { temperature: 0.2, maxOutputTokens: 100 },
        { temperature: 0.9, maxOutputTokens: undefined },
      ),
    ).toEqual({ temperature: 0.9, maxOutputTokens: 100 });
  });

  it('totalTokensOf prefers totalTokens, else sums input and output, else 0', () => {
    expect(totalTokensOf({ totalTokens: 7, inputTokens: 1 })).toBe(7);
    expect(totalTokensOf({ inputTokens: 3, outputTokens: 4 })).toBe(7);
    expect(totalTokensOf(undefined)).toBe(0);
  });
});
