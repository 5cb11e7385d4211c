import { InvalidChatRequestException } from '../errors/invalid-chat-request.exception.js';
import type { ChatRequest } from './request.js';

const ROLES = ['system', 'user', 'assistant', 'tool'];
const PART_TYPES = ['text', 'image', 'audio', 'video', 'pdf'];

/**
 * Refuses a request whose shape no model can take, before any model is called. A malformed
 * message would otherwise fail inside each model of a group (a TypeError counts as the model's
 * failure) and put every one of them into cooldown for the caller's mistake.
 */
export function assertChatRequest(request: unknown): asserts request is ChatRequest {
  if (request === vouched && request !== undefined) {
    vouched = undefined; // one hand-off, to the first check it meets
    return;
  }
  const messages = (request as { messages?: unknown } | null | undefined)?.messages;
  if (typeof request !== 'object' || request === null || !Array.isArray(messages)) {
    throw new InvalidChatRequestException(
      'The chat request must be an object whose messages field is an array of chat messages, ' +
        "e.g. { messages: [userMessage('Hello')] }.",
    );
  }
  messages.forEach((message: unknown, index) => {
    const problem = messageProblem(message);
    if (problem !== undefined) {
      throw new InvalidChatRequestException(`Invalid chat request: messages[${index}]${problem}.`);
    }
  });
}

/**
 * The request a layer has just checked and hands to the layer below (service → RoutingChatModel
 * → ModelRouter), so that a call's shape is checked once, at its entry. The hand-off lives only
 * for the synchronous start of the inner call, where every layer checks: nothing can change the
 * request in between, and any other caller or request is checked as usual.
 */
let vouched: ChatRequest | undefined;

/** Calls `next`, whose first shape check of `request` is skipped: the caller has just checked it. */
export function passChecked<T>(request: ChatRequest, next: () => T): T {
  vouched = request;
  try {
    return next();
  } finally {
    vouched = undefined;
  }
}

/**
 * A stream whose first step runs as `passChecked`: a streaming layer checks when iteration starts
 * (an async generator's body runs on the first `next()`), so that is where the hand-off goes.
 */
export function streamChecked<T>(request: ChatRequest, stream: AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = stream[Symbol.asyncIterator]();
      let started = false;
      return {
        next: (...args: [] | [undefined]) => {
          if (started) return iterator.next(...args);
          started = true;
          return passChecked(request, () => iterator.next(...args));
        },
        return: (value?: unknown) =>
          iterator.return?.(value) ?? Promise.resolve({ done: true as const, value: undefined }),
        ...(iterator.throw ? { throw: (error?: unknown) => iterator.throw!(error) } : {}),
      } as AsyncIterator<T>;
    },
  };
}

/** What is wrong with one message (starting with its field), or undefined. */
function messageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return ` must be a message object with a role (${ROLES.join(', ')}); got ${describe(value)}`;
  }
  const message = value as Record<string, unknown>;
  switch (message.role) {
    case 'system':
      return isString(message.text) ? undefined : '.text must be a string';
    case 'user':
      return contentProblem(message.content);
    case 'assistant':
      if (message.text != null && !isString(message.text)) {
        return '.text must be a string when present';
      }
      if (message.toolCalls != null && !Array.isArray(message.toolCalls)) {
        return '.toolCalls must be an array of tool calls when present';
      }
      return undefined;
    case 'tool':
      if (!isString(message.toolCallId)) return '.toolCallId must be a string';
      return isString(message.text) ? undefined : '.text must be a string';
    default:
      return (
        `.role must be one of ${ROLES.join(', ')}; got ` +
        (isString(message.role) ? `'${message.role.slice(0, 40)}'` : describe(message.role))
      );
  }
}

function contentProblem(content: unknown): string | undefined {
  if (isString(content)) return undefined;
  if (!Array.isArray(content)) return '.content must be a string or an array of content parts';
  for (const [index, part] of content.entries()) {
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !PART_TYPES.includes(type)) {
      return `.content[${index}].type must be one of ${PART_TYPES.join(', ')}`;
    }
    if (type === 'text' && !isString((part as { text?: unknown }).text)) {
      return `.content[${index}].text must be a string`;
    }
  }
  return undefined;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** A value's type, never its content (it may be a user's text). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value;
}
