import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import type { ProviderErrorContext } from './provider-error-mapper.js';

/**
 * An answer that says it is done (`stop`, or no reason at all) and holds nothing: no text, no
 * refusal, no tool call. Servers send it when a generation broke (`content: null` under a 200),
 * and passing it on would report a failure as success; it is the model's failure (transient:
 * retried, then failed over). Not when the caller asked for stop sequences (the answer may have
 * begun with one) or continued its own prefill, nor for a `length` or `content_filter` finish,
 * which say why it is empty.
 */
export function emptyAnswerError(
  response: ChatResponse,
  request: ChatRequest,
  errors: ProviderErrorContext,
): ProviderException | undefined {
  if (response.finishReason !== undefined && response.finishReason !== 'stop') return undefined;
  if ((request.parameters?.stopSequences?.length ?? 0) > 0) return undefined;
  // a continuation of a trailing assistant message (prefill) may rightly add nothing
  if (request.messages.at(-1)?.role === 'assistant') return undefined;
  const message = response.aiMessage;
  if (message.text || (message.toolCalls?.length ?? 0) > 0) return undefined;
  return new ProviderException(
    `${errors.provider} model '${errors.model}' failed: the answer was empty (no text, no tool call)`,
    { kind: 'transient', provider: errors.provider, model: errors.model, code: 'empty_response' },
  );
}
