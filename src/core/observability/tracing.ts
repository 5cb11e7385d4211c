/**
 * The seam between the framework-free core and a tracing system (OpenTelemetry, `src/otel`): the
 * core and the providers say where a routed call, a provider attempt or a decision begins and
 * ends, and what it was; the installed tracer turns that into spans and metrics. Nothing is
 * installed by default, and with nothing installed every hook below is skipped with one check.
 */

/** The facts of a routed call, read once when it ends (from the module's call record). */
export interface RoutedCallFacts {
  router?: string;
  route?: string;
  routeProbability?: number;
  /** The configured name of the model that answered. */
  model?: string;
  costUsd?: number;
  /** The response cache's verdict (`hit`, `semantic-hit`, `miss`, `bypass`), when a cache applies. */
  cache?: string;
}

/** What a provider attempt is, known before it is sent. */
export interface AttemptStart {
  operation: 'chat' | 'embeddings';
  /** `openai`, `anthropic`, … */
  provider: string;
  /** The provider's model id. */
  requestModel: string;
  stream?: boolean;
  /** The messages sent; read only when content capture is on. */
  input?: () => unknown;
}

/** What a provider attempt answered. */
export interface AttemptAnswer {
  responseModel?: string;
  finishReasons?: readonly string[];
  inputTokens?: number;
  outputTokens?: number;
  /** The provider did not report the token counts (or some of them): they are estimated. */
  usageEstimated?: true;
  /** The answer's messages; read only when content capture is on. */
  output?: () => unknown;
}

/** One provider attempt in flight. */
export interface AttemptTrace {
  /** Runs `work` with the attempt as the current trace context (outgoing calls carry it). */
  run<T>(work: () => T): T;
  /** A stream's first chunk arrived. */
  firstChunk(): void;
  succeeded(answer: AttemptAnswer): void;
  /** `errorType`: the kind of failure (a short, low-cardinality word). */
  failed(error: unknown, errorType?: string): void;
  /** Ended without a verdict (the caller stopped reading a stream). */
  cancelled(): void;
}

export interface RoutingTracer {
  /**
   * Whether anything would record now (an app registered a tracer or meter provider). While it
   * says no, `routingTracer()` answers undefined and callers skip every wrapper.
   */
  recording?(): boolean;
  /** Runs a routed call (chat) inside its span; `facts` is read once, when it settles. */
  routedCall<T>(
    parent: TraceCarrier | undefined,
    work: () => Promise<T>,
    facts: () => RoutedCallFacts,
  ): Promise<T>;
  /** A routed stream: each read runs inside the call's span, which ends when the stream does. */
  routedStream<E>(
    parent: TraceCarrier | undefined,
    open: () => AsyncIterable<E>,
    facts: () => RoutedCallFacts,
  ): AsyncIterable<E>;
  /** A decision model's own model call (an LLM judge, an embeddings endpoint), as a child span. */
  decision<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Starts one provider attempt under the current context. */
  attempt(start: AttemptStart): AttemptTrace;
  /** Runs `work` with each of the stream's reads inside `attempt`'s context. */
  bindStream<E>(attempt: AttemptTrace, events: AsyncIterable<E>): AsyncIterable<E>;
  /** The headers (`traceparent`, `tracestate`) that carry the current context to a provider. */
  outgoingHeaders(): Record<string, string> | undefined;
}

/** Incoming request headers: where a caller's `traceparent` is read from. */
export type TraceCarrier = Readonly<Record<string, string | string[] | undefined>>;

let installed: RoutingTracer | undefined;

/** Installs (or, with `undefined`, removes) the process's tracer; see `nest-model-router/otel`. */
export function installRoutingTracer(tracer: RoutingTracer | undefined): void {
  installed = tracer;
}

/** The installed tracer while it records, else undefined: callers skip all tracing work then. */
export function routingTracer(): RoutingTracer | undefined {
  return installed === undefined || installed.recording?.() === false ? undefined : installed;
}

/** The installed tracer, recording or not. */
export function installedRoutingTracer(): RoutingTracer | undefined {
  return installed;
}
