import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { ChatRequest } from '../../core/chat/request.js';
import { InvalidChatRequestException } from '../../core/errors/invalid-chat-request.exception.js';
import { ChatRequestDto } from '../dto/chat-request.dto.js';
import { bodyBoundsProblem } from '../dto/json-body-bounds.js';
import { MAX_SESSION_LENGTH } from '../http/model-routing.interceptor.js';
import { boundedMessage } from './remote-error-codec.js';
import type { RemoteChatPayload } from './model-router-patterns.js';

/** As the gateway's bodies: more messages than this is not a conversation but a payload attack. */
export const MAX_REMOTE_MESSAGES = 4096;
export const MAX_CALL_ID_LENGTH = 128;
export const MAX_ROUTER_NAME_LENGTH = 256;
export const MAX_REMOTE_ATTRIBUTES = 64;
/** Call attributes are metadata (tenant, user, trace ids), not content. */
export const MAX_ATTRIBUTES_JSON_LENGTH = 16_384;
const MAX_PROBLEMS = 10;
/** How the bounds' messages start for an HTTP body; a payload's say `Invalid <pattern> payload`. */
const BODY_PREFIX = /^Invalid request body: /;
const CALL_ID = /^[A-Za-z0-9._:-]+$/;

/** A CHAT / STREAM payload that passed validation: the request holds only the fields it defines. */
export interface ValidRemoteChatPayload extends RemoteChatPayload {
  request: ChatRequest;
}

/**
 * Checks a CHAT or STREAM payload as the HTTP bodies are checked (ChatRequestDto's rules, the
 * same bounds of depth, array length and values), plus bounds of its own on everything else a
 * payload can make the service hold (ids, names, attributes). A bad payload throws
 * InvalidChatRequestException naming the field.
 */
export function validateChatPayload(pattern: string, payload: unknown): ValidRemoteChatPayload {
  const fail = (problem: string): never => {
    throw new InvalidChatRequestException(boundedMessage(`Invalid ${pattern} payload: ${problem}`));
  };
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return fail('it must be an object { request, router?, attributes?, session?, callId? }');
  }
  const { messages } = ((payload as { request?: unknown }).request ?? {}) as { messages?: unknown };
  if (Array.isArray(messages) && messages.length > MAX_REMOTE_MESSAGES) {
    return fail(`request.messages must contain at most ${MAX_REMOTE_MESSAGES} messages`);
  }
  // the HTTP bodies' bounds, in one walk that stops at the first breach: class-validator took
  // 27 s of the event loop over a payload of a million content parts
  const unbounded = bodyBoundsProblem(payload, {}, { stripProtoKeys: true });
  if (unbounded !== undefined) return fail(unbounded.message.replace(BODY_PREFIX, ''));
  const { callId, request, router, attributes, session } = payload as Record<string, unknown>;
  const valid: ValidRemoteChatPayload = { request: { messages: [] } };
  if (callId !== undefined) valid.callId = checkCallId(callId, fail);
  if (router !== undefined)
    valid.router = checkName('router', router, MAX_ROUTER_NAME_LENGTH, fail);
  if (session !== undefined) {
    valid.session = checkName('session', session, MAX_SESSION_LENGTH, fail);
  }
  if (attributes !== undefined) valid.attributes = checkAttributes(attributes, fail);
  valid.request = checkRequest(request, fail);
  return valid;
}

/** The call id of a CANCEL payload: `{ callId }` or the bare id. */
export function validateCancelPayload(pattern: string, payload: unknown): string {
  const fail = (problem: string): never => {
    throw new InvalidChatRequestException(boundedMessage(`Invalid ${pattern} payload: ${problem}`));
  };
  const callId =
    typeof payload === 'object' && payload !== null
      ? (payload as { callId?: unknown }).callId
      : payload;
  return checkCallId(callId, fail);
}

type Fail = (problem: string) => never;

function checkCallId(value: unknown, fail: Fail): string {
  if (typeof value !== 'string' || value === '') return fail('callId must be a non-empty string');
  if (value.length > MAX_CALL_ID_LENGTH) {
    return fail(`callId must be at most ${MAX_CALL_ID_LENGTH} characters (a UUID)`);
  }
  if (!CALL_ID.test(value)) return fail('callId may hold letters, digits and . _ : - only');
  return value;
}

function checkName(field: string, value: unknown, max: number, fail: Fail): string {
  if (typeof value !== 'string' || value.trim() === '') {
    return fail(`${field} must be a non-blank string`);
  }
  if (value.length > max) return fail(`${field} must be at most ${max} characters`);
  return value;
}

function checkAttributes(value: unknown, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('attributes must be an object');
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_REMOTE_ATTRIBUTES) {
    return fail(`attributes must have at most ${MAX_REMOTE_ATTRIBUTES} keys`);
  }
  const json = JSON.stringify(value);
  if (json.length > MAX_ATTRIBUTES_JSON_LENGTH) {
    return fail(`attributes must be at most ${MAX_ATTRIBUTES_JSON_LENGTH} characters of JSON`);
  }
  // a copy: nothing the router adds reaches the transport's object, and no prototype tricks
  return JSON.parse(json) as Record<string, unknown>;
}

function checkRequest(value: unknown, fail: Fail): ChatRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('request must be an object { messages, parameters? }');
  }
  const dto = plainToInstance(ChatRequestDto, value);
  const problems = flatten(validateSync(dto, { forbidUnknownValues: false }), 'request');
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_PROBLEMS).join('; ');
    const more =
      problems.length > MAX_PROBLEMS ? ` (and ${problems.length - MAX_PROBLEMS} more)` : '';
    return fail(listed + more);
  }
  return ChatRequestDto.toChatRequest(value as ChatRequestDto);
}

/** `request.messages.0.role must be one of …`: each problem with the full path of its field. */
function flatten(errors: ValidationError[], parent: string): string[] {
  return errors.flatMap((error) => {
    const path = `${parent}.${error.property}`;
    return [
      ...Object.values(error.constraints ?? {}).map((message) =>
        message.startsWith(`${error.property} `) || message.startsWith(`${error.property}[`)
          ? `${path}${message.slice(error.property.length)}`
          : `${path}: ${message}`,
      ),
      ...flatten(error.children ?? [], path),
    ];
  });
}
