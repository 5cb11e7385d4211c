import { InvalidChatRequestException } from '../errors/invalid-chat-request.exception.js';
import type { ChatCallOptions } from './chat-model.js';
import type { ChatRequest } from './request.js';
import { parametersProblem } from './parameter-bounds.js';

const ROLES = ['system', 'user', 'assistant', 'tool'];
const PART_TYPES = ['text', 'image', 'audio', 'video', 'pdf'];

/**
 * Refuses a request whose shape no model can take, before any model is called. A malformed
 * message would otherwise fail inside each model of a group (a TypeError counts as the model's
 * failure) and put every one of them into cooldown for the caller's mistake.
 */
export function assertChatRequest(request: unknown): asserts request is ChatRequest {
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
  const problem = parametersProblem((request as { parameters?: unknown }).parameters);
  if (problem !== undefined)
    throw new InvalidChatRequestException(`Invalid chat request: ${problem}.`);
}

/**
 * A model that checks request shapes itself and reads `ChatCallOptions.checkedRequest`
 * (RoutingChatModel, ModelRouter). Only such a model is given `checkedRequest`: any other model
 * gets exactly the options the contract names (attributes, signal, observer).
 */
export interface ChecksChatRequests {
  readonly checksChatRequests: true;
}

export function checksChatRequests(model: unknown): model is ChecksChatRequests {
  return (model as Partial<ChecksChatRequests> | null | undefined)?.checksChatRequests === true;
}

/**
 * Checks `request` at a layer's entry, unless its caller says it has checked this very object
 * (`options.checkedRequest`, see ChatCallOptions): a call's shape is checked once, where it
 * enters (RoutingChatService, or the first RoutingChatModel / ModelRouter a code caller calls),
 * and every layer still checks a request it was not told about.
 */
export function assertChatRequestOnce(
  request: unknown,
  options: ChatCallOptions | undefined,
): asserts request is ChatRequest {
  if (options?.checkedRequest === undefined || options.checkedRequest !== request) {
    assertChatRequest(request);
  }
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
