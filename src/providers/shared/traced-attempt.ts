import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import type {
  AttemptAnswer,
  AttemptStart,
  AttemptTrace,
  RoutingTracer,
} from '../../core/observability/tracing.js';

/** A chat attempt as the tracer sees it before it is sent. */
export function chatAttemptStart(
  provider: string,
  requestModel: string,
  request: ChatRequest,
  stream: boolean,
): AttemptStart {
  return {
    operation: 'chat',
    provider,
    requestModel,
    ...(stream ? { stream } : {}),
    input: () => request.messages,
  };
}

/** The facts of an answer for the attempt's span and metrics. */
export function chatAnswer(response: ChatResponse): AttemptAnswer {
  const usage = response.tokenUsage;
  return {
    ...(response.modelName !== undefined ? { responseModel: response.modelName } : {}),
    ...(response.finishReason !== undefined ? { finishReasons: [response.finishReason] } : {}),
    ...(usage?.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
    ...(usage?.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
    ...(usage?.estimated === true ? { usageEstimated: true as const } : {}),
    output: () => [response.aiMessage],
  };
}

/** One attempt's outcome: the caller's abort ends it as cancelled, anything else as failed. */
export function settleFailure(
  attempt: AttemptTrace,
  error: unknown,
  signal: AbortSignal | undefined,
): void {
  if (signal?.aborted) attempt.cancelled();
  else attempt.failed(error);
}

/** A non-streamed provider call as one attempt span, current while the call is sent. */
export async function tracedCall<T>(
  tracer: RoutingTracer,
  start: AttemptStart,
  signal: AbortSignal | undefined,
  call: () => Promise<T>,
  answer: (result: T) => AttemptAnswer,
): Promise<T> {
  const attempt = tracer.attempt(start);
  try {
    const result = await attempt.run(call);
    attempt.succeeded(answer(result));
    return result;
  } catch (error) {
    settleFailure(attempt, error, signal);
    throw error;
  }
}

/**
 * A streamed provider call as one attempt span: current while the stream is read, its first
 * event the time to first chunk, ended by `complete`, an error, or the reader stopping.
 */
export async function* tracedStream(
  tracer: RoutingTracer,
  start: AttemptStart,
  signal: AbortSignal | undefined,
  open: () => AsyncIterable<ChatStreamEvent>,
): AsyncGenerator<ChatStreamEvent> {
  const attempt = tracer.attempt(start);
  let first = true;
  let settled = false;
  try {
    for await (const event of tracer.bindStream(attempt, open())) {
      if (first) {
        first = false;
        attempt.firstChunk();
      }
      if (event.type === 'complete') {
        settled = true;
        attempt.succeeded(chatAnswer(event.response));
      }
      yield event;
    }
  } catch (error) {
    if (!settled) {
      settled = true;
      settleFailure(attempt, error, signal);
    }
    throw error;
  } finally {
    if (!settled) attempt.cancelled();
  }
}
