import type { ChatCallOptions } from '../../core/chat/chat-model.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { emitTo } from '../../core/observability/routing-event.js';
import type { ProviderErrorContext } from './provider-error-mapper.js';
import { redactSecrets } from './redact.js';
import { routeAttribute } from '../../core/chat/call-attributes.js';

/**
 * What to do with an SSE chunk that is not valid JSON: `fail` ends the stream with a
 * `ProviderException` (code `malformed_stream_chunk`); `skip` drops it and emits a
 * `stream-chunk-skipped` event. Either way its bytes never reach the caller as text.
 */
export type MalformedChunkPolicy = 'skip' | 'fail';

export const MALFORMED_CHUNK_POLICIES: readonly MalformedChunkPolicy[] = ['skip', 'fail'];

export interface StreamGuardContext {
  errors: ProviderErrorContext;
  policy: MalformedChunkPolicy;
  call: ChatCallOptions;
}

/** Parses one SSE data payload; `undefined` when it was malformed and the policy skips it. */
export function parseChunk(data: string, ctx: StreamGuardContext): unknown {
  try {
    return JSON.parse(data);
  } catch {
    // the chunk's content stays out of events and errors: it may be a fragment of the answer
    const reason = `SSE data is not valid JSON (${data.length} characters)`;
    if (ctx.policy === 'fail') {
      throw new ProviderException(
        redactSecrets(
          `${ctx.errors.provider} model '${ctx.errors.model}' failed: ${reason}`,
          ctx.errors.secrets,
        ),
        {
          kind: 'transient',
          provider: ctx.errors.provider,
          model: ctx.errors.model,
          code: 'malformed_stream_chunk',
        },
      );
    }
    const route = routeAttribute.of(ctx.call.attributes);
    emitTo(ctx.call.observer, {
      type: 'stream-chunk-skipped',
      ...(route !== undefined ? { route } : {}),
      model: ctx.errors.model,
      reason,
    });
    return undefined;
  }
}

/**
 * The stream ended before the provider said it had finished: the answer is truncated and must
 * not be reported as complete (code `stream_truncated`, kind `transient`).
 */
export function truncatedStream(ctx: ProviderErrorContext, detail: string): ProviderException {
  return new ProviderException(
    `${ctx.provider} model '${ctx.model}' failed: the stream ended before the model finished (${detail}); the answer is truncated`,
    { kind: 'transient', provider: ctx.provider, model: ctx.model, code: 'stream_truncated' },
  );
}
