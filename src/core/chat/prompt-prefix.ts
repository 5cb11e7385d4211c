import { createHash } from 'node:crypto';
import type { ChatMessage } from './messages.js';
import type { ChatRequest } from './request.js';

/** Characters of the system prompt, and of the first other message, that the key covers. */
export const PROMPT_PREFIX_CHARS = 4_096;

const keys = new WeakMap<ChatRequest, string | null>();

/**
 * The key of the prefix a provider's prompt cache would reuse: the caller's own
 * `promptCacheKey`, else a hash of the system prompt and the first other message (each up to
 * PROMPT_PREFIX_CHARS characters, so the work is bounded). Turns of one conversation share it;
 * conversations that only share a system prompt do not, so they can still be spread. Computed
 * once per request object (the balancer and the provider ask for the same one). Undefined when
 * the request has no messages.
 */
export function promptPrefixKey(request: ChatRequest): string | undefined {
  const own = request.parameters?.promptCacheKey;
  if (typeof own === 'string' && own !== '') return own;
  const known = keys.get(request);
  if (known !== undefined) return known ?? undefined;
  const key = hashPrefix(request.messages ?? []);
  keys.set(request, key ?? null);
  return key;
}

function hashPrefix(messages: readonly ChatMessage[]): string | undefined {
  let system = '';
  let first: ChatMessage | undefined;
  for (const message of messages) {
    if (message.role === 'system' && first === undefined) {
      if (system.length < PROMPT_PREFIX_CHARS) system += `${message.text ?? ''}\n`;
    } else {
      first = message;
      break;
    }
  }
  if (system === '' && first === undefined) return undefined;
  const hash = createHash('sha256');
  hash.update(system.slice(0, PROMPT_PREFIX_CHARS));
  hash.update('\u0000');
  if (first) hash.update(`${first.role}:${textOf(first).slice(0, PROMPT_PREFIX_CHARS)}`);
  return `mr-${hash.digest('base64url').slice(0, 22)}`;
}

function textOf(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      if (typeof message.content === 'string') return message.content;
      return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
    case 'assistant':
      return message.text ?? '';
    default:
      return message.text ?? '';
  }
}
