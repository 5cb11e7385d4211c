import 'reflect-metadata';
import { afterEach } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Observable } from 'rxjs';
import type { ChatModel, ChatStreamEvent } from '../../../src/core/chat/chat-model.js';
import { userMessage } from '../../../src/core/chat/messages.js';
import type { ChatRequest } from '../../../src/core/chat/request.js';
import type { RoutingEvent } from '../../../src/core/observability/routing-event.js';
import type {
  ErrorDisposition,
  ErrorKind,
} from '../../../src/core/resilience/error-classification.js';
import {
  withResilience,
  type ResilientChatModel,
} from '../../../src/core/resilience/resilient-chat-model.js';
import type { RetryPolicyOptions } from '../../../src/core/resilience/retry-policy.js';
import type { TimeoutOptions } from '../../../src/core/resilience/timeout-options.js';
import {
  FailoverStrategy,
  type FailoverStrategyOptions,
} from '../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../src/core/group/model-router.js';
import type {
  ModelErrorEvent,
  ModelRoutingStrategy,
} from '../../../src/core/strategies/model-routing-strategy.js';
import type { ChatInterceptor } from '../../../src/nest/interceptors/chat-interceptor.js';
import { ModelRouterModule } from '../../../src/nest/module/model-router.module.js';
import type { ModelRouterModuleOptions } from '../../../src/nest/module/model-router-module-options.js';
import {
  RoutingChatService,
  type RoutingChatOptions,
} from '../../../src/nest/service/routing-chat.service.js';
import { AnthropicChatModel } from '../../../src/providers/anthropic/anthropic-chat-model.js';
import { OpenAiCompatibleChatModel } from '../../../src/providers/openai/openai-compatible-chat-model.js';
import type { MalformedChunkPolicy } from '../../../src/providers/shared/stream-guards.js';
import type { FakeProvider } from '../../../src/testing/index.js';
import { useFakeProvider } from '../../support/fake-provider.js';

/**
 * The fault-injection stack, all real parts: FakeProvider on 127.0.0.1 ← OpenAiCompatibleChatModel
 * (the official openai SDK) ← withResilience ← ModelRouter(FailoverStrategy) ← RoutingChatService
 * of a real ModelRouterModule. Cooldowns run on an injected clock; retries and timeouts are real
 * but short (tens to a few hundred ms).
 */

export const API_KEY = 'sk-fault-suite-secret-0123456789';

/**
 * The faulty model's bounds: short, so a silent provider costs the caller little. Most of a second
 * rather than tens of ms: on the 2-core CI machine running two Jest workers a healthy local answer
 * has taken over 250 ms (the recovered primary's probe then timed out and the fallback answered),
 * and a test must not fail on a healthy primary.
 */
export const PRIMARY_TIMEOUTS = { attemptMs: 800, firstTokenMs: 800, idleMs: 600 } as const;
/** The healthy model's bounds: generous, so a busy CI machine never fails it. */
const HEALTHY_TIMEOUTS = { attemptMs: 5_000, firstTokenMs: 5_000, idleMs: 2_000 } as const;
/** Backoff of the first retry is [0, 20) ms, the second [0, 40) ms; `random` pins it to half. */
export const RETRY = {
  maxAttempts: 3,
  baseDelayMs: 20,
  maxDelayMs: 100,
  random: () => 0.5,
} satisfies RetryPolicyOptions;
export const COOLDOWN_MS = 60_000;
/** A settled call must settle well before this (the test would otherwise hang until Jest's). */
export const CALL_BOUND_MS = 5_000;

export interface ModelSpec {
  /** The route name inside the ModelRouter. */
  name: string;
  /** The model id sent to the provider (its faults may be set on it with `setFault`). */
  providerModel: string;
  /** OpenAI-compatible (default, prefill only when `prefill`) or Anthropic (always prefill). */
  dialect?: 'openai' | 'anthropic';
  prefill?: boolean;
  malformedChunks?: MalformedChunkPolicy;
  timeouts?: TimeoutOptions;
  retry?: RetryPolicyOptions;
}

export interface FaultStackOptions {
  provider: FakeProvider;
  models: ModelSpec[];
  strategy?: ModelRoutingStrategy;
  failover?: FailoverStrategyOptions;
  continuation?: boolean;
  errorDispositions?: Partial<Record<ErrorKind, Partial<ErrorDisposition>>>;
}

export const primary = (overrides: Partial<ModelSpec> = {}): ModelSpec => ({
  name: 'primary',
  providerModel: 'gpt-primary',
  timeouts: PRIMARY_TIMEOUTS,
  ...overrides,
});

export const fallback = (overrides: Partial<ModelSpec> = {}): ModelSpec => ({
  name: 'fallback',
  providerModel: 'gpt-fallback',
  prefill: true,
  ...overrides,
});

export class FaultStack {
  /** Virtual epoch ms: the breaker's clock. Advance it instead of sleeping for a cooldown. */
  now = 1_700_000_000_000;
  readonly events: RoutingEvent[] = [];
  readonly modelErrors: ModelErrorEvent[] = [];
  readonly clock = () => this.now;
  app!: INestApplication;
  service!: RoutingChatService;
  failover?: FailoverStrategy;
  router!: ModelRouter;
  readonly models = new Map<string, ResilientChatModel>();

  protected constructor(protected readonly options: FaultStackOptions) {}

  static async start(options: FaultStackOptions): Promise<FaultStack> {
    const stack = new FaultStack(options);
    await stack.startApp(stack.moduleOptions());
    return stack;
  }

  /** The module of the stack: router `main` (the group), and each provider model by route name. */
  protected moduleOptions(): ModelRouterModuleOptions {
    const { provider } = this.options;
    const providerModels: Record<string, ChatModel> = {};
    const routes = this.options.models.map((spec) => {
      const providerModel =
        spec.dialect === 'anthropic'
          ? new AnthropicChatModel({
              baseURL: provider.anthropicBaseURL,
              apiKey: API_KEY,
              model: spec.providerModel,
              malformedChunks: spec.malformedChunks ?? 'fail',
            })
          : new OpenAiCompatibleChatModel({
              baseURL: provider.openaiBaseURL,
              apiKey: API_KEY,
              model: spec.providerModel,
              assistantPrefill: spec.prefill ?? false,
              malformedChunks: spec.malformedChunks ?? 'fail',
            });
      providerModels[spec.name] = providerModel;
      const model = withResilience(providerModel, {
        name: spec.name,
        retry: spec.retry ?? RETRY,
        timeouts: spec.timeouts ?? HEALTHY_TIMEOUTS,
      });
      this.models.set(spec.name, model);
      return { name: spec.name, model };
    });
    if (!this.options.strategy) {
      this.failover = new FailoverStrategy({
        cooldownMs: COOLDOWN_MS,
        halfOpenProbes: 1,
        clock: this.clock,
        ...this.options.failover,
      });
    }
    this.router = new ModelRouter({
      routes,
      routingStrategy: this.options.strategy ?? this.failover!,
      continuation: this.options.continuation ?? true,
      errorListeners: [(event) => this.modelErrors.push(event)],
      ...(this.options.errorDispositions
        ? { errorDispositions: this.options.errorDispositions }
        : {}),
    });
    const recorder: ChatInterceptor = {
      intercept: (context, next) => {
        context.observe((event) => this.events.push(event));
        return next.handle();
      },
    };
    return {
      routers: { main: this.router },
      models: providerModels,
      defaultRouter: 'main',
      interceptors: [recorder],
      clock: this.clock,
    };
  }

  protected async startApp(options: ModelRouterModuleOptions): Promise<void> {
    const moduleRef = await Test.createTestingModule({
      imports: [ModelRouterModule.forRoot(options)],
    }).compile();
    this.app = moduleRef.createNestApplication({ logger: false });
    await this.app.init();
    this.service = this.app.get(RoutingChatService);
  }

  advance(ms: number): void {
    this.now += ms;
  }

  /** The provider-side requests for a route's model. */
  seen(route: string) {
    return this.options.provider.requests.forModel(this.spec(route).providerModel);
  }

  providerModel(route: string): string {
    return this.spec(route).providerModel;
  }

  circuit(route: string) {
    return this.failover!.circuitOf(route);
  }

  chat(request: ChatRequest = ask(), options: RoutingChatOptions = {}) {
    return within(this.service.chat(request, options));
  }

  stream(request: ChatRequest = ask(), options: RoutingChatOptions = {}) {
    return within(collect(this.service.stream(request, options)));
  }

  eventsOf<T extends RoutingEvent['type']>(type: T): Extract<RoutingEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<RoutingEvent, { type: T }> => {
      return event.type === type;
    });
  }

  /** Forgets what was recorded (events, errors, the provider's log), not the circuits. */
  clearRecords(): void {
    this.events.length = 0;
    this.modelErrors.length = 0;
    this.options.provider.requests.clear();
  }

  async close(): Promise<void> {
    await this.app.close();
  }

  private spec(route: string): ModelSpec {
    const spec = this.options.models.find((model) => model.name === route);
    if (!spec) throw new Error(`no model '${route}' in this stack`);
    return spec;
  }
}

export interface FaultStacks<S extends FaultStack> {
  /** The describe block's fake provider: started once, reset before each test. */
  readonly provider: FakeProvider;
  /**
   * Starts a stack on that provider, with a primary and a fallback unless `options` says
   * otherwise; it is closed after the test.
   */
  start(options?: Partial<FaultStackOptions>): Promise<S>;
}

/**
 * Registers the hooks every fault suite needs on its describe block: one FakeProvider for the
 * block, reset before each test, and the stack a test started closed after it.
 */
export function useFaultStacks<S extends FaultStack>(kind: {
  start(options: FaultStackOptions): Promise<S>;
}): FaultStacks<S> {
  const fake = useFakeProvider();
  let running: S | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  return {
    get provider() {
      return fake.provider;
    },
    async start(options = {}) {
      await running?.close();
      running = await kind.start({
        provider: fake.provider,
        models: [primary(), fallback()],
        ...options,
      });
      return running;
    },
  };
}

/** The error a call ends with, through `chat` (its rejection) or `stream` (the error it ended with). */
export async function failureOf(stack: FaultStack, mode: 'chat' | 'stream'): Promise<unknown> {
  return mode === 'chat' ? rejectionOf(stack.chat()) : (await stack.stream()).error;
}

export function ask(text = 'tell me a short story about resilience'): ChatRequest {
  return { messages: [userMessage(text)] };
}

/** What the fake provider answers to `ask(text)` from `providerModel`. */
export function expectedAnswer(
  providerModel: string,
  text = 'tell me a short story about resilience',
) {
  return `You said: ${text} (model ${providerModel})`;
}

export interface Collected {
  events: ChatStreamEvent[];
  error?: unknown;
}

/** Subscribes to a stream of the service and keeps every event, and the error it ended with. */
export function collect(
  stream: Observable<ChatStreamEvent>,
  onEvent?: (event: ChatStreamEvent, stop: () => void) => void,
): Promise<Collected> {
  return new Promise((resolve) => {
    const events: ChatStreamEvent[] = [];
    let stopped = false;
    const subscription = stream.subscribe({
      next: (event) => {
        events.push(event);
        onEvent?.(event, () => {
          stopped = true;
          queueMicrotask(() => {
            subscription.unsubscribe();
            resolve({ events });
          });
        });
      },
      error: (error: unknown) => {
        if (!stopped) resolve({ events, error });
      },
      complete: () => {
        if (!stopped) resolve({ events });
      },
    });
  });
}

export function textOf(events: ChatStreamEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

export function completions(events: ChatStreamEvent[]) {
  return events.flatMap((event) => (event.type === 'complete' ? [event.response] : []));
}

/**
 * The promise, or a rejection naming the bound when it has not settled within it: a hang is a
 * test failure with a message, not a Jest timeout. The bound is generous on purpose; it catches
 * hangs, it does not measure speed.
 */
export function within<T>(promise: Promise<T>, boundMs = CALL_BOUND_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the call did not settle within ${boundMs} ms: it hangs`)),
      boundMs,
    );
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Gaps between consecutive timestamps. */
export function gaps(timestamps: number[]): number[] {
  return timestamps.slice(1).map((at, index) => at - timestamps[index]!);
}
