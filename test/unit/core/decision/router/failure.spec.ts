import { afterEach, describe, it, expect, jest } from '@jest/globals';
import { userMessage } from '../../../../../src/core/chat/messages.js';
import { DecisionModelChatModelRouter } from '../../../../../src/core/decision/decision-model-chat-model-router.js';
import {
  FallbackStrategy,
  type ChoiceAnswer,
  type DecisionModel,
  type DecisionRequest,
} from '../../../../../src/core/decision/decision-model.js';
import {
  failingDecisionModel,
  fakeDecisionModel,
  fakeLogger,
  onlyRequest,
  recordingObserver,
  routingRequest,
} from './fixtures.js';

const messages = [userMessage('Refactor this function')];

/** An error such as an HTTP client raises: its details hold a credential. */
class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly config = { headers: { authorization: 'Bearer sk-secret-123' } };
}

function brokenObserver(): void {
  throw new Error('observer broke');
}

/** A decision model that ignores its signal and never settles. */
function hangingDecisionModel(): DecisionModel & { decide: jest.Mock<DecisionModel['decide']> } {
  return { decide: jest.fn<DecisionModel['decide']>(() => new Promise<ChoiceAnswer>(() => {})) };
}

describe('2.3.9 decision model failure', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('DEFAULT_ROUTE: logs a warning with the error class and message only, and uses the default route', async () => {
    const logger = fakeLogger();
    const { events, observer } = recordingObserver();
    const router = new DecisionModelChatModelRouter(
      failingDecisionModel(new UpstreamError('upstream said 503')),
      { logger },
    );

    const result = await router.route(
      routingRequest(messages, { observer, defaultRoute: 'simple' }),
    );

    expect(result.routeName).toBe('simple');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(logger.warn.mock.calls[0]);
    expect(logged).toContain('UpstreamError');
    expect(logged).toContain('upstream said 503');
    expect(logged).not.toContain('sk-secret-123');
    expect(events).toEqual([
      {
        type: 'decision-failed',
        error: { name: 'UpstreamError', message: 'upstream said 503' },
        fallback: 'default-route',
      },
    ]);
  });

  it('DEFAULT_ROUTE without a default in the request answers ChatModelRoutingResult.defaultRoute()', async () => {
    const router = new DecisionModelChatModelRouter(failingDecisionModel(new Error('boom')), {
      logger: fakeLogger(),
    });
    const result = await router.route(routingRequest(messages));
    expect(result.isDefaultRoute).toBe(true);
    expect(result.routeName).toBeUndefined();
  });

  it('DEFAULT_ROUTE also covers a decision model that throws synchronously', async () => {
    const logger = fakeLogger();
    const model: DecisionModel = {
      decide: () => {
        throw new TypeError('not ready');
      },
    };
    const result = await new DecisionModelChatModelRouter(model, { logger }).route(
      routingRequest(messages, { defaultRoute: 'creative' }),
    );
    expect(result.routeName).toBe('creative');
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('escapes control characters in the warning, so an error message cannot forge a log line', async () => {
    const logger = fakeLogger();
    const router = new DecisionModelChatModelRouter(
      failingDecisionModel(new Error("answered 'x'\n[Nest] LOG forged\u001b[2J")),
      { logger },
    );

    await router.route(routingRequest(messages, { defaultRoute: 'simple' }));

    const [line] = logger.warn.mock.calls[0]!;
    expect(line).not.toContain('\n');
    expect(line).not.toContain('\u001b');
    expect(line).toContain("answered 'x'\\n[Nest] LOG forged\\u001b[2J");
  });

  it('logs to the console by default', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    await new DecisionModelChatModelRouter(failingDecisionModel(new Error('boom'))).route(
      routingRequest(messages),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain('boom');
  });

  it('FAIL: rethrows the very same error, reports it, and logs nothing', async () => {
    const error = new UpstreamError('upstream said 503');
    const logger = fakeLogger();
    const { events, observer } = recordingObserver();
    const router = new DecisionModelChatModelRouter(failingDecisionModel(error), {
      fallbackStrategy: FallbackStrategy.FAIL,
      logger,
    });

    await expect(router.route(routingRequest(messages, { observer }))).rejects.toBe(error);
    expect(logger.warn).not.toHaveBeenCalled();
    expect(events).toEqual([
      {
        type: 'decision-failed',
        error: { name: 'UpstreamError', message: 'upstream said 503' },
        fallback: 'fail',
      },
    ]);
  });

  it("an observer's failure does not change the fallback", async () => {
    const router = new DecisionModelChatModelRouter(failingDecisionModel(new Error('boom')), {
      logger: fakeLogger(),
    });
    const result = await router.route(
      routingRequest(messages, { observer: brokenObserver, defaultRoute: 'simple' }),
    );
    expect(result.routeName).toBe('simple');
  });

  it('passes the signal to the decision model', async () => {
    const model = fakeDecisionModel({ value: 'complex#1' });
    const controller = new AbortController();
    await new DecisionModelChatModelRouter(model).route(
      routingRequest(messages, { signal: controller.signal }),
    );
    expect(onlyRequest(model).signal).toBe(controller.signal);
  });

  it('an abort during the decision rejects with the abort reason, never a fallback', async () => {
    const model = hangingDecisionModel();
    const logger = fakeLogger();
    const { events, observer } = recordingObserver();
    const controller = new AbortController();
    const routing = new DecisionModelChatModelRouter(model, { logger }).route(
      routingRequest(messages, { signal: controller.signal, observer, defaultRoute: 'simple' }),
    );
    const reason = new Error('caller went away');
    controller.abort(reason);

    await expect(routing).rejects.toBe(reason);
    expect((model.decide.mock.calls[0][0] as DecisionRequest).signal?.aborted).toBe(true);
    expect(logger.warn).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });

  it('a signal aborted before routing rejects without calling the decision model', async () => {
    const model = fakeDecisionModel({ value: 'simple' });
    const controller = new AbortController();
    controller.abort();
    const routing = new DecisionModelChatModelRouter(model, { logger: fakeLogger() }).route(
      routingRequest(messages, { signal: controller.signal }),
    );
    await expect(routing).rejects.toMatchObject({ name: 'AbortError' });
    expect(model.decide).not.toHaveBeenCalled();
  });

  it("an AbortError from the decision model is rethrown even when the caller's signal is live", async () => {
    const abort = new DOMException('client aborted', 'AbortError');
    const logger = fakeLogger();
    const router = new DecisionModelChatModelRouter(failingDecisionModel(abort), { logger });
    await expect(
      router.route(routingRequest(messages, { signal: new AbortController().signal })),
    ).rejects.toBe(abort);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
