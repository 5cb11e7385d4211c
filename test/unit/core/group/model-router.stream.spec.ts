import { describe, expect, it, jest } from '@jest/globals';
import { Capability } from '../../../../src/core/chat/capability.js';
import type { ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { aiMessage, userMessage } from '../../../../src/core/chat/messages.js';
import { NoMatchingModelFoundException } from '../../../../src/core/errors/exceptions.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import type {
  ModelRoutingFunction,
  ModelRoutingStrategy,
} from '../../../../src/core/strategies/model-routing-strategy.js';
import { IncompleteStreamException } from '../../../../src/core/resilience/incomplete-stream-exception.js';
import { StreamInterruptedException } from '../../../../src/core/errors/stream-interrupted.exception.js';
import {
  answer,
  complete,
  delta,
  drain,
  fakeModel,
  kindError,
  recorder,
  request,
  streamingModel,
  textOf,
} from '../strategies/fakes.js';

const firstModel: ModelRoutingFunction = (models) => models[0];
const PREFILL = [Capability.ASSISTANT_PREFILL];
const toolCall: ChatStreamEvent = {
  type: 'tool-call',
  toolCall: { id: 't1', name: 'lookup', arguments: '{"q":1}' },
};

const usage = (inputTokens: number): ChatStreamEvent => ({
  type: 'input-usage',
  tokenUsage: { inputTokens },
});

function routerOf(models: Record<string, unknown>, options: { continuation?: boolean } = {}) {
  return new ModelRouter({
    routes: Object.entries(models).map(([name, model]) => ({ name, model: model as never })),
    routingStrategy: firstModel,
    ...options,
  });
}

describe('ModelRouter.stream before output: fails over freely', () => {
  it('a model failing before its first delta is replaced; the caller sees one clean answer', async () => {
    const a = streamingModel('a', [new Error('a refused')]);
    const b = streamingModel('b', [delta('Hi'), delta(' there'), complete('Hi there')]);
    const { events, error } = await drain(routerOf({ a, b }).stream(request));
    expect(error).toBeUndefined();
    expect(events).toEqual([delta('Hi'), delta(' there'), complete('Hi there')]);
  });

  it('passes input-usage on before any output only, and fails over after it', async () => {
    const a = streamingModel('a', [usage(7), new Error('a overloaded')]);
    const b = streamingModel('b', [usage(9), delta('Hi'), usage(99), complete('Hi')]);
    const { events, error } = await drain(routerOf({ a, b }).stream(request));
    expect(error).toBeUndefined();
    expect(events).toEqual([usage(7), usage(9), delta('Hi'), complete('Hi')]);
  });

  it('a model that ends without complete before any output is replaced too', async () => {
    const a = streamingModel('a', []);
    const b = streamingModel('b', [delta('ok'), complete('ok')]);
    const seen: unknown[] = [];
    const router = routerOf({ a, b });
    router.addErrorListener((event) => seen.push(event.error));
    const { events } = await drain(router.stream(request));
    expect(textOf(events)).toBe('ok');
    expect(seen[0]).toBeInstanceOf(IncompleteStreamException);
  });

  it('models without stream are served by chat', async () => {
    const a = fakeModel('a', new Error('down'));
    const b = fakeModel('b', answer('from chat'));
    const { events } = await drain(routerOf({ a, b }).stream(request));
    expect(events).toEqual([delta('from chat'), complete('from chat')]);
  });

  it('every model failing before output → NoMatchingModelFoundException with every error', async () => {
    const e1 = new Error('one');
    const e2 = new Error('two');
    const { error } = await drain(
      routerOf({ a: streamingModel('a', [e1]), b: streamingModel('b', [e2]) }).stream(request),
    );
    expect(error).toBeInstanceOf(NoMatchingModelFoundException);
    expect((error as NoMatchingModelFoundException).errors).toEqual([e1, e2]);
  });

  it('the caller’s own error before output is rethrown as it is, no failover', async () => {
    const bad = kindError('invalid-request', 'bad schema');
    const b = streamingModel('b', [complete('x')]);
    const { error } = await drain(routerOf({ a: streamingModel('a', [bad]), b }).stream(request));
    expect(error).toBe(bad);
    expect(b.requests).toHaveLength(0);
  });

  it('is lazy: nothing is routed until iteration starts', async () => {
    const route = jest.fn<ModelRoutingFunction>(firstModel);
    const router = new ModelRouter({
      routes: [streamingModel('a', [complete('x')])],
      routingStrategy: route,
    });
    const stream = router.stream(request);
    expect(route).not.toHaveBeenCalled();
    await drain(stream);
    expect(route).toHaveBeenCalledTimes(1);
  });

  it('reports the stream’s attempts to the observer and the strategy', async () => {
    const seen = recorder();
    const onSuccess = jest.fn<NonNullable<ModelRoutingStrategy['onSuccess']>>();
    const router = new ModelRouter({
      routes: [
        { name: 'a', model: streamingModel('a', [new Error('x')]) },
        { name: 'b', model: streamingModel('b', [delta('y'), complete('y', 7)]) },
      ],
      routingStrategy: { route: firstModel, onSuccess },
    });
    await drain(router.stream(request, { observer: seen.observer }));
    expect(seen.events.map((event) => event.type)).toEqual([
      'model-called',
      'model-failed',
      'failover',
      'model-called',
      'model-succeeded',
    ]);
    expect(onSuccess.mock.calls[0]![1]).toEqual(answer('y', 7));
  });
});

describe('ModelRouter.stream after output: only continuation may rescue it', () => {
  it('continuation: the next prefill-capable model continues the partial text; the caller gets one seamless answer', async () => {
    const original = new Error('a dropped the connection');
    const a = streamingModel('a', [delta('The answer '), delta('is '), original]);
    const b = streamingModel('b', [delta('forty-two.'), complete('forty-two.', 12)], PREFILL);
    const { events, error } = await drain(
      routerOf({ a, b }, { continuation: true }).stream(request),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('The answer is forty-two.');
    const last = events[events.length - 1]!;
    expect(last.type).toBe('complete');
    const response = (last as Extract<ChatStreamEvent, { type: 'complete' }>).response;
    expect(response.aiMessage.text).toBe('The answer is forty-two.');
    // both calls count: the cut one's usage estimated ('Hello' ≈ 2, 'The answer is ' ≈ 4), plus 12
    expect(response.tokenUsage).toEqual({ totalTokens: 18, estimated: true });
    expect(b.requests[0]!.messages).toEqual([
      userMessage('Hello'),
      { role: 'assistant', text: 'The answer is ' },
    ]);
  });

  it('continuation joins the caller’s own trailing assistant prefill', async () => {
    const a = streamingModel('a', [delta('{"b":'), new Error('cut')]);
    const b = streamingModel('b', [delta('2}'), complete('2}')], PREFILL);
    const prefilled = { messages: [userMessage('json please'), aiMessage('{"a":1,')] };
    const { events } = await drain(routerOf({ a, b }, { continuation: true }).stream(prefilled));
    expect(textOf(events)).toBe('{"b":2}');
    expect(b.requests[0]!.messages).toEqual([
      userMessage('json please'),
      aiMessage('{"a":1,{"b":'),
    ]);
  });

  it('skips models without ASSISTANT_PREFILL when choosing who continues', async () => {
    const a = streamingModel('a', [delta('Part one, '), new Error('cut')]);
    const plain = streamingModel('plain', [complete('should not be used')]);
    const capable = streamingModel('capable', [delta('part two.'), complete('part two.')], PREFILL);
    const { events } = await drain(
      routerOf({ a, plain, capable }, { continuation: true }).stream(request),
    );
    expect(textOf(events)).toBe('Part one, part two.');
    expect(plain.requests).toHaveLength(0);
  });

  it('continuation off → StreamInterruptedException naming the original failure; no complete', async () => {
    const original = new Error('a dropped the connection');
    const a = streamingModel('a', [delta('The answer '), original]);
    const b = streamingModel('b', [complete('x')], PREFILL);
    const { events, error } = await drain(routerOf({ a, b }).stream(request));
    expect(events).toEqual([delta('The answer ')]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    const interrupted = error as StreamInterruptedException;
    expect(interrupted.cause).toBe(original);
    expect(interrupted.model).toBe('a');
    expect(interrupted.partialLength).toBe('The answer '.length);
    expect(interrupted.message).toContain('a dropped the connection');
    expect(interrupted.message).toContain('continuation is off');
    expect(b.requests).toHaveLength(0);
  });

  it('no capable model left → the error names the original failure', async () => {
    const original = new Error('overloaded mid-answer');
    const a = streamingModel('a', [delta('Half'), original]);
    const b = streamingModel('b', [complete('x')]);
    const { events, error } = await drain(
      routerOf({ a, b }, { continuation: true }).stream(request),
    );
    expect(events.some((event) => event.type === 'complete')).toBe(false);
    expect((error as StreamInterruptedException).cause).toBe(original);
    expect((error as Error).message).toContain('ASSISTANT_PREFILL');
    expect(b.requests).toHaveLength(0);
  });

  it('the prefill attempt is rejected → the final error is the original failure, not the rejection', async () => {
    const original = new Error('a died');
    const rejection = kindError('invalid-request', 'prefill not supported here');
    const a = streamingModel('a', [delta('Partial'), original]);
    const b = streamingModel('b', [rejection], PREFILL);
    const { events, error } = await drain(
      routerOf({ a, b }, { continuation: true }).stream(request),
    );
    expect(textOf(events)).toBe('Partial');
    expect(events.some((event) => event.type === 'complete')).toBe(false);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    expect((error as StreamInterruptedException).cause).toBe(original);
    expect((error as StreamInterruptedException).errors).toEqual([original, rejection]);
    expect((error as Error).message).toContain('a died');
    expect((error as Error).message).toContain("continuing it with model 'b' failed");
  });

  it('a continuation that itself breaks off is continued by the next capable model', async () => {
    const a = streamingModel('a', [delta('one '), new Error('a cut')]);
    const b = streamingModel('b', [delta('two '), new Error('b cut')], PREFILL);
    const c = streamingModel('c', [delta('three'), complete('three')], PREFILL);
    const { events, error } = await drain(
      routerOf({ a, b, c }, { continuation: true }).stream(request),
    );
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('one two three');
    expect(c.requests[0]!.messages.at(-1)).toEqual({ role: 'assistant', text: 'one two ' });
    const done = events.at(-1) as Extract<ChatStreamEvent, { type: 'complete' }>;
    expect(done.response.aiMessage.text).toBe('one two three');
  });

  it('a tool-call stream is never continued', async () => {
    const original = new Error('cut after tool call');
    const a = streamingModel('a', [delta('Let me look. '), toolCall, original]);
    const b = streamingModel('b', [complete('x')], PREFILL);
    const { events, error } = await drain(
      routerOf({ a, b }, { continuation: true }).stream(request),
    );
    expect(events).toEqual([delta('Let me look. '), toolCall]);
    expect((error as StreamInterruptedException).cause).toBe(original);
    expect((error as Error).message).toContain('tool calls');
    expect(b.requests).toHaveLength(0);
  });

  it('a stream that ends without complete after output is an interruption, never a clean finish', async () => {
    const a = streamingModel('a', [delta('cut off mid-')]);
    const { events, error } = await drain(routerOf({ a }).stream(request));
    expect(events).toEqual([delta('cut off mid-')]);
    expect(error).toBeInstanceOf(StreamInterruptedException);
    expect((error as StreamInterruptedException).cause).toBeInstanceOf(IncompleteStreamException);
  });

  it('the caller aborting mid-stream rejects with the abort reason', async () => {
    const controller = new AbortController();
    const reason = new Error('caller left');
    const a = {
      stream: () =>
        (async function* () {
          yield delta('first ');
          controller.abort(reason);
          await new Promise(() => undefined); // hangs: only the abort can end it
        })(),
      chat: async () => answer('unused'),
    };
    const b = streamingModel('b', [complete('x')], PREFILL);
    const { events, error } = await drain(
      routerOf({ a, b }, { continuation: true }).stream(request, { signal: controller.signal }),
    );
    expect(events).toEqual([delta('first ')]);
    expect(error).toBe(reason);
    expect(b.requests).toHaveLength(0);
  });

  it('a caller that stops reading releases the attempt (onCancel) and closes the source', async () => {
    const onCancel = jest.fn<NonNullable<ModelRoutingStrategy['onCancel']>>();
    const onSuccess = jest.fn<() => void>();
    const onFailure = jest.fn<() => void>();
    const a = streamingModel('a', [delta('one'), delta('two'), complete('onetwo')]);
    const router = new ModelRouter({
      routes: [{ name: 'a', model: a }],
      routingStrategy: { route: firstModel, onCancel, onSuccess, onFailure },
    });
    for await (const event of router.stream(request)) {
      expect(event).toEqual(delta('one'));
      break;
    }
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onCancel.mock.calls[0]![3]!.errorKind).toBe('aborted');
    expect(onSuccess).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
    expect(a.closed).toBe(1);
  });
});
