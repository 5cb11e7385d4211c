import { describe, expect, it } from '@jest/globals';
import { toWireError } from '../../../apps/gateway/src/openai/openai-error.js';
import { InvalidChatRequestException } from '../../../src/core/errors/invalid-chat-request.exception.js';

describe('toWireError and a malformed chat request', () => {
  it('is a 400 invalid_request_error on messages, not a 500', () => {
    const error = toWireError(
      new InvalidChatRequestException('Invalid chat request: messages[2].text must be a string.'),
    );

    expect(error.status).toBe(400);
    expect(error.body.error).toEqual({
      message: 'Invalid chat request: messages[2].text must be a string.',
      type: 'invalid_request_error',
      param: 'messages',
      code: null,
    });
  });
});
