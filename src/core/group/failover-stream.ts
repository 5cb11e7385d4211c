import { raceAbort, throwIfAborted } from '../chat/abort.js';
import type { ChatRequest } from '../chat/request.js';
import type { HedgePolicy } from './hedge-policy.js';
import { hedgedOpen } from './hedged-open.js';
import type { ChatStreamEvent } from '../chat/chat-model.js';
import type { ChatResponse } from '../chat/response.js';
import { streamModel } from '../chat/stream.js';
import { summarizeError } from '../observability/routing-event.js';
import { abortable } from '../chat/abortable-stream.js';
import { acceptsPrefill, joinContinuation, withPrefill } from './continuation.js';
import type { Attempt, ModelRouterCall } from './model-router-call.js';
import { assertChatResponse, withModelAttribute } from './model-response.js';
import { IncompleteStreamException } from '../resilience/incomplete-stream-exception.js';
import { StreamInterruptedException } from '../errors/stream-interrupted.exception.js';
import { withCost } from '../cost/cost.js';
import { costOfResponse } from '../cost/response-cost.js';
import { SpentBeforeContinuation } from '../cost/continuation-usage.js';
import { OutputCounter, partialUsage } from '../cost/partial-usage.js';

/**
 * ModelRouter's stream. Before anything reached the caller, a failure fails over like `chat`.
 * After that the caller holds part of an answer, and another model starting over would garble
 * it; the only rescue is continuation: a model that accepts an assistant prefill continues the
 * partial text, and only what it adds is forwarded. Otherwise the stream ends with a
 * StreamInterruptedException naming the original failure, never with a clean `complete`.
 */
export async function* streamWithFailover(
  call: ModelRouterCall,
  continuation: boolean,
  /** Hedge the opening (up to the first event) of the first answer; never a continuation. */
  hedge?: HedgePolicy,
): AsyncGenerator<ChatStreamEvent> {
  const signal = call.options.signal;
  let text = ''; // what the caller has received, across attempts
  let started = false;
  let toolCalls = false;
  let original: { error: unknown; model: string } | undefined;
  let lastContinuationFailure: { error: unknown; model: string } | undefined;
  // what the cut attempts used (estimated: a cut stream never reports usage), added to the answer's
  const spent = new SpentBeforeContinuation();

  const interrupted = (reason: string) =>
    new StreamInterruptedException({
      model: original!.model,
      cause: original!.error,
      partialLength: text.length,
      reason,
      errors: [...call.errors],
    });

  for (;;) {
    throwIfAborted(signal);
    let attempt = await call.next(original ? acceptsPrefill : undefined);
    if (!attempt) {
      if (!original) throw call.exhausted();
      throw interrupted(
        lastContinuationFailure
          ? `continuing it with model '${lastContinuationFailure.model}' failed ` +
              `(${describe(lastContinuationFailure.error)}) and no other model that declares ASSISTANT_PREFILL is available`
          : 'no remaining model that declares the ASSISTANT_PREFILL capability needed to continue it ' +
              'is available (none declares it, or those that do are cooling down)',
      );
    }
    await call.abortIfAborted(attempt);
    const before = text;
    const request = original ? withPrefill(call.request, text) : call.request;
    let events: AsyncIterable<ChatStreamEvent> | undefined;
    let link: { unlink(): void } | undefined;
    if (hedge && !original && !attempt.isDefault) {
      const opened = await hedgedOpen(
        call,
        attempt,
        hedge,
        (tried, attemptSignal) => openStream(tried, request, call, attemptSignal),
        (late) => closeQuietly(late.iterator),
      );
      if (opened.kind === 'failed') continue;
      if (opened.kind === 'stop') throw opened.error;
      attempt = opened.attempt;
      events = replay(opened.value);
      link = opened.link;
    }
    const name = attempt.model.name;
    let streamed = '';
    // text and tool-call arguments this attempt produced: what a cut attempt is charged for
    const produced = new OutputCounter();
    let settled = false;
    let yielding = false;
    try {
      let response: ChatResponse | undefined;
      try {
        events ??= streamModel(attempt.model.model, request, call.optionsFor(attempt));
        for await (const event of abortable(events, signal)) {
          if (event.type === 'complete') {
            response = assertChatResponse(event.response, name);
            break;
          }
          if (event.type === 'text-delta') {
            if (!event.text) continue;
            text += event.text;
            streamed += event.text;
            produced.add(event.text);
          } else if (event.type === 'tool-call' || event.type === 'tool-call-delta') {
            toolCalls = true;
            if (event.type === 'tool-call-delta') produced.add(event.argumentsDelta);
          } else if (event.type === 'input-usage') {
            // before any output only: an attempt after a failover would tell a second count
            if (started) continue;
            yielding = true;
            yield event;
            yielding = false;
            continue;
          } else {
            continue; // not part of the contract: never forwarded
          }
          if (!streamed && !started) void call.firstToken(attempt);
          started = true;
          yielding = true;
          yield event;
          yielding = false;
        }
        if (!response) throw new IncompleteStreamException(name);
      } catch (error) {
        if (yielding) throw error; // thrown into the generator by the caller, not by the model
        settled = true;
        // output that reached the caller, or a caller who left mid-call, is paid for
        if (produced.deltas > 0 || signal?.aborted)
          attempt.context.usage = partialUsage(request, produced);
        const { kind, disposition } = await call.failed(attempt, error);
        if (streamed) spent.add(attempt.model, request, streamed);
        if (!started) {
          if (!disposition.failover) throw error;
          continue;
        }
        if (kind === 'aborted') throw error;
        if (original) {
          lastContinuationFailure = { error, model: name };
          continue; // another capable model may still continue it
        }
        original = { error, model: name };
        if (!disposition.failover) {
          throw interrupted(`a ${kind} error is not one to fail over from`);
        }
        if (!continuation) throw interrupted('continuation is off for this ModelRouter');
        if (toolCalls) {
          throw interrupted('the partial output contains tool calls, which are never continued');
        }
        continue;
      }
      settled = true;
      const cost = spent.total(costOfResponse(response, attempt.model));
      await call.succeeded(attempt, response, costOfResponse(response, attempt.model));
      const joined = original ? joinContinuation(spent.into(response), before, streamed) : response;
      const final = withCost(joined, cost);
      yield { type: 'complete', response: withModelAttribute(final, name) };
      return;
    } finally {
      link?.unlink();
      if (!settled) {
        attempt.context.usage = partialUsage(request, produced);
        await call.cancelled(attempt, stoppedReading());
      }
    }
  }
}

interface OpenedStream {
  iterator: AsyncIterator<ChatStreamEvent>;
  /** What came before the first output (input-usage), replayed ahead of it. */
  before: ChatStreamEvent[];
  first: ChatStreamEvent;
}

/** A stream up to its first event: what a hedge races on. */
async function openStream(
  attempt: Attempt,
  request: ChatRequest,
  call: ModelRouterCall,
  /** The attempt's own signal; undefined: the caller's, as in `optionsFor`. */
  signal: AbortSignal | undefined,
): Promise<OpenedStream> {
  const callOptions = call.optionsFor(attempt);
  const options = signal ? { ...callOptions, signal } : callOptions;
  const iterator = streamModel(attempt.model.model, request, options)[Symbol.asyncIterator]();
  try {
    // raced on the caller's signal only: a hedge that loses is abandoned, not awaited
    // the race is on the first output: a provider that tells its input tokens first (Anthropic's
    // message_start) has not answered yet
    const before: ChatStreamEvent[] = [];
    let first = await raceAbort(iterator.next(), call.options.signal);
    while (!first.done && first.value.type === 'input-usage') {
      before.push(first.value);
      first = await raceAbort(iterator.next(), call.options.signal);
    }
    if (first.done) throw new IncompleteStreamException(attempt.model.name);
    return { iterator, before, first: first.value };
  } catch (error) {
    closeQuietly(iterator);
    throw error;
  }
}

/** The opened stream again from its first event. */
async function* replay(opened: OpenedStream): AsyncGenerator<ChatStreamEvent> {
  try {
    yield* opened.before;
    yield opened.first;
    for (;;) {
      const next = await opened.iterator.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    closeQuietly(opened.iterator);
  }
}

function closeQuietly(iterator: AsyncIterator<ChatStreamEvent>): void {
  try {
    iterator.return?.()?.catch(() => undefined);
  } catch {
    // best effort: the attempt's signal already told the model to stop
  }
}

function stoppedReading(): DOMException {
  return new DOMException('The caller stopped reading the stream', 'AbortError');
}

function describe(error: unknown): string {
  const { name, message } = summarizeError(error);
  return `${name}: ${message}`;
}
