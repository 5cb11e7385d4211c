import { BaseChatModel, type BaseChatModelOptions } from '../../core/chat/base-chat-model.js';
import type { Capability } from '../../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatRequest } from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { routingTracer } from '../../core/observability/tracing.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { pickRateLimitHeaders, withRateLimit } from '../../core/limits/provider-quota.js';
import { withEstimatedUsage } from '../../core/cost/usage-estimate.js';
import { callSignal, type CallSignal } from './call-signal.js';
import { ProviderHttp, type ProviderEndpoint } from './http/provider-http.js';
import type { ProviderHttpOptions } from './http/provider-pools.js';
import { emptyAnswerError } from './empty-answer.js';
import { toProviderError, type ProviderErrorContext } from './provider-error-mapper.js';
import { NO_KEY_PLACEHOLDER } from './sdk-client-options.js';
import type { MalformedChunkPolicy } from './stream-guards.js';
import { chatAnswer, chatAttemptStart, tracedCall, tracedStream } from './traced-attempt.js';

/** What an official SDK client must expose: its key, so that it can be redacted from errors. */
export interface SdkClient {
  readonly apiKey: unknown;
}

/** The options every SDK-backed model reads; each provider documents its own defaults. */
export interface SdkChatModelOptions<Client> extends BaseChatModelOptions {
  model: string;
  timeout?: number;
  providerName?: string;
  malformedChunks?: MalformedChunkPolicy;
  client?: Client;
  /** Connections of the project's own HTTP path; ignored when a `client` is given. */
  http?: ProviderHttpOptions;
  clock?: Clock;
  /**
   * Whether a request's `parameters.modelName` may replace `model`. Default false: the model id
   * is configuration, and a request that chose one could make its provider's 404 count against
   * this model (one caller putting a whole group into cooldown). When true, a 404 for a model
   * the request chose is the caller's error (`invalid-request`), never the model's failure.
   */
  allowModelOverride?: boolean;
}

/** Where the project's own HTTP path sends calls, and the key it sends (to redact it). */
export type SdkEndpoint = ProviderEndpoint & {
  apiKey: string;
  /** Where chat calls go under the base URL (`/chat/completions`): a 404's message names it. */
  chatPath?: string;
};

/** A stream's raw SSE body, from either path. */
export type SseBody = AsyncIterable<Uint8Array> | null;

/** A started stream: its body, and its response headers (the provider's rate-limit state). */
export interface OpenedStream {
  body: SseBody;
  headers: Parameters<typeof pickRateLimitHeaders>[0];
}

/**
 * A chat model on a provider's wire format: our own call timeout, and every failure turned into a
 * `ProviderException` free of the API key. Calls go over the project's own HTTP path (an undici
 * pool per origin, `ProviderHttp`) unless an SDK client is given or `createClient` is overridden:
 * then through that client, as before. Providers send the request and read their own SSE events;
 * the error handling around both is here so that it cannot drift between them.
 */
export abstract class SdkChatModel<
  Client extends SdkClient,
  Options extends SdkChatModelOptions<Client>,
> extends BaseChatModel {
  readonly model: string;
  readonly providerName: string;
  /** The project's own HTTP path; undefined when calls go through an SDK client. */
  protected readonly http: ProviderHttp | undefined;
  protected readonly malformedChunks: MalformedChunkPolicy;
  protected readonly options: Options;
  private readonly secrets: string[];
  private readonly clock: Clock;
  /** The URL path of chat calls on the own HTTP path (no query: it may hold a key). */
  private readonly chatPath: string | undefined;
  private sdkClient: Client | undefined;

  protected constructor(
    options: Options,
    defaults: {
      providerName: string;
      capabilities: Capability[];
      /** The class's own `createClient`: a subclass that overrides it is served by its client. */
      createClient: (options: Options) => Client;
    },
  ) {
    super({
      ...(options.listeners ? { listeners: options.listeners } : {}),
      ...(options.defaultRequestParameters
        ? { defaultRequestParameters: options.defaultRequestParameters }
        : {}),
      capabilities: options.capabilities ?? defaults.capabilities,
    });
    this.options = options;
    this.model = options.model;
    this.providerName = options.providerName ?? defaults.providerName;
    this.malformedChunks = options.malformedChunks ?? 'fail';
    this.clock = options.clock ?? systemClock;
    let key: unknown;
    if (options.client !== undefined || this.createClient !== defaults.createClient) {
      this.sdkClient = options.client ?? this.createClient(options);
      // a client of the caller's own carries its key too: it is redacted all the same
      key = this.sdkClient.apiKey;
    } else {
      const endpoint = this.createEndpoint(options);
      this.http = new ProviderHttp(endpoint);
      this.chatPath =
        endpoint.chatPath === undefined ? undefined : this.http.pathOf(endpoint.chatPath);
      key = endpoint.apiKey;
    }
    // the placeholder sent where no key was configured is no secret: redacting it would only
    // take the words "no-key" out of messages
    this.secrets = typeof key === 'string' && key && key !== NO_KEY_PLACEHOLDER ? [key] : [];
  }

  /** The SDK client: the given one, else built on first use (the own HTTP path needs none). */
  protected get client(): Client {
    return (this.sdkClient ??= this.createClient(this.options));
  }

  /** Builds the SDK client when the options give none; override to customise it. */
  protected abstract createClient(options: Options): Client;

  /** The own HTTP path's endpoint: URL, headers (with the key), retries, the SDK's error shapes. */
  protected abstract createEndpoint(options: Options): SdkEndpoint;

  /** Starts a streamed call and returns its raw SSE body with the response headers. */
  protected abstract openStream(
    request: ChatRequest,
    model: string,
    signal: AbortSignal | undefined,
  ): Promise<OpenedStream>;

  /** Reads the provider's SSE events into stream events; throws when the answer is truncated. */
  protected abstract readStream(
    body: SseBody,
    model: string,
    errors: ProviderErrorContext,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent>;

  /**
   * The configured model, or the one a request asks for when `allowModelOverride` is on (or
   * when it is the owner's own `defaultRequestParameters.modelName`).
   */
  protected modelFor(request: ChatRequest): string {
    const asked = request.parameters?.modelName;
    if (asked === undefined || asked === this.model) return this.model;
    if (this.options.allowModelOverride === true) return asked;
    return asked === this.defaultRequestParameters().modelName ? asked : this.model;
  }

  /** Whether `model` is a request's choice rather than this model's configuration. */
  private chosenByRequest(model: string): boolean {
    return model !== this.model && model !== this.defaultRequestParameters().modelName;
  }

  /** With a tracer installed, each call is one provider attempt span (see `src/otel`). */
  override chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ChatResponse> {
    const tracer = routingTracer();
    if (tracer === undefined) return super.chat(request, options);
    const start = chatAttemptStart(this.providerName, this.attemptModel(request), request, false);
    return tracedCall(
      tracer,
      start,
      options.signal,
      () => super.chat(request, options),
      chatAnswer,
    );
  }

  override stream(
    request: ChatRequest,
    options: ChatCallOptions = {},
  ): AsyncGenerator<ChatStreamEvent> {
    const tracer = routingTracer();
    if (tracer === undefined) return super.stream(request, options);
    const start = chatAttemptStart(this.providerName, this.attemptModel(request), request, true);
    return tracedStream(tracer, start, options.signal, () => super.stream(request, options));
  }

  /** The model id an attempt asks for, with the owner's default parameters applied. */
  private attemptModel(request: ChatRequest): string {
    return this.modelFor(this.withDefaults(request));
  }

  /** Runs one non-streamed SDK call under the caller's signal and this model's timeout. */
  protected async callSdk<T>(
    model: string,
    caller: AbortSignal | undefined,
    send: (signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T> {
    const errors = this.errorContext(model, caller);
    const call = callSignal(caller, this.options.timeout);
    try {
      return await send(call.signal);
    } catch (error) {
      throw toProviderError(error, this.withTimeout(errors, call));
    } finally {
      call.release();
    }
  }

  protected override async *doStream(
    request: ChatRequest,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    const model = this.modelFor(request);
    const errors = this.errorContext(model, options.signal);
    const call = callSignal(options.signal, this.options.timeout);
    let opened: OpenedStream;
    try {
      opened = await this.openStream(request, model, call.signal);
    } catch (error) {
      call.release();
      throw toProviderError(error, this.withTimeout(errors, call));
    }
    // the timeout bounds the wait for the response; once it streams, idle limits are the resilience layer's
    call.stopTimer();
    // what is left of the provider's quota travels on the answer, for the router's checks
    const quota = pickRateLimitHeaders(opened.headers);
    try {
      for await (const event of this.readStream(opened.body, model, errors, options)) {
        const empty =
          event.type === 'complete' && emptyAnswerError(event.response, request, errors);
        if (empty) throw empty;
        yield event.type === 'complete'
          ? { type: 'complete', response: this.answered(request, event.response, quota) }
          : event;
      }
    } finally {
      call.release();
    }
  }

  /**
   * An answer as the router sees it: usage the provider left out estimated (`withEstimatedUsage`:
   * budgets, `tpm` windows and cost then count it), and what is left of its quota attached.
   */
  protected answered(
    request: ChatRequest,
    response: ChatResponse,
    quota: Record<string, string> | undefined,
  ): ChatResponse {
    const estimated = withEstimatedUsage(request, response);
    return quota ? withRateLimit(estimated, quota) : estimated;
  }

  /**
   * Sends a non-streamed SDK request and keeps the rate-limit headers of its response; an
   * injected client whose promise has no `withResponse` (a test double) is awaited as it is.
   */
  protected async withQuota<T>(
    sent: Promise<T>,
  ): Promise<{ data: T; quota: Record<string, string> | undefined }> {
    const withResponse = (sent as { withResponse?: () => Promise<{ data: T; response: Response }> })
      .withResponse;
    if (typeof withResponse !== 'function') return { data: await sent, quota: undefined };
    const { data, response } = await withResponse.call(sent);
    return { data, quota: pickRateLimitHeaders(response?.headers) };
  }

  /** A non-streamed call over the own HTTP path, with the rate-limit headers of its answer. */
  protected async sendJson<T>(
    http: ProviderHttp,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ data: T; quota: Record<string, string> | undefined }> {
    const { data, headers } = await http.json(path, body, signal);
    return { data: data as T, quota: pickRateLimitHeaders(headers) };
  }

  protected requestOptions(signal: AbortSignal | undefined): { signal?: AbortSignal } {
    return signal ? { signal } : {};
  }

  protected errorContext(model: string, signal: AbortSignal | undefined): ProviderErrorContext {
    return {
      provider: this.providerName,
      model,
      secrets: this.secrets,
      clock: this.clock,
      ...(signal ? { signal } : {}),
      ...(this.chosenByRequest(model) ? { modelChosenByRequest: true } : {}),
      ...(this.chatPath === undefined ? {} : { requestPath: this.chatPath }),
    };
  }

  private withTimeout(errors: ProviderErrorContext, call: CallSignal): ProviderErrorContext {
    return call.timedOut() && this.options.timeout !== undefined
      ? { ...errors, timeoutMs: this.options.timeout }
      : errors;
  }
}
