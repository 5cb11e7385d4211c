import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { planAnswer } from './answer-planner.js';
import {
  anthropicMessage,
  anthropicStreamPlan,
  parseAnthropicMessages,
} from './anthropic-dialect.js';
import {
  applyRequestFault,
  type Dialect,
  filtered,
  type Json,
  sendDialectError,
  sendError,
  sendJsonWithFault,
  statusError,
} from './fault-responses.js';
import type { FakeAnswerSource, FakeChatRequest } from './fake-chat-request.js';
import { embeddingsResponse } from './fake-embedding.js';
import { faultInModelName, parseFault, UnknownFaultError, type Fault } from './faults.js';
import { headerRecord, isGone, presentedKey, readBody, sendJson } from './http-io.js';
import { openAiCompletion, openAiStreamPlan, parseOpenAiChat } from './openai-dialect.js';
import { FakeRequestLog, type FakeEndpoint } from './request-log.js';
import { playStream, type StreamPlan } from './stream-player.js';
import { TimerRegistry } from './timer-registry.js';
import { fakeId } from './tokens.js';

export interface FakeProviderOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a random free port. */
  port?: number;
  /** Listed by `GET /v1/models`, besides every model the provider has been asked for. */
  models?: string[];
  /** When set, requests presenting another key get 401 (the key sent is echoed, as real APIs do). */
  apiKey?: string;
  /** Timestamps of the request log and the HTTP date of `retry-after-date` faults. */
  clock?: () => number;
  /** Pause before each streamed token (default 0). */
  tokenDelayMs?: number;
  /** Embedding size when the request does not say `dimensions` (default 64). */
  embeddingDimensions?: number;
  /**
   * A wait before each chat answer starts (ms), asked per request: latency, or a heavy tail
   * (`() => (Math.random() < 0.05 ? 2000 : 20)`). Default none.
   */
  answerDelayMs?: (model: string) => number;
  /** Chat requests over this many in flight get a 429 at once: an overloaded provider. */
  maxConcurrent?: number;
}

/** The chat load the provider has seen (with `maxConcurrent`: how many it refused). */
export interface FakeProviderLoad {
  inFlight: number;
  peak: number;
  served: number;
  refused: number;
}

/**
 * A deterministic LLM provider on `node:http` for tests: OpenAI chat completions (JSON and
 * SSE), `GET /v1/models`, `POST /v1/embeddings` and Anthropic `POST /v1/messages`, with faults
 * chosen by the model name (see `faults.ts`) or set at runtime with `setFault`.
 *
 * `close()` destroys every open connection (hung and stalled ones included) and clears every
 * timer, so a test runner exits cleanly.
 */
export class FakeProvider {
  readonly requests = new FakeRequestLog();
  readonly load: FakeProviderLoad = { inFlight: 0, peak: 0, served: 0, refused: 0 };
  private readonly sockets = new Set<Socket>();
  private readonly timers = new TimerRegistry();
  private readonly runtimeFaults = new Map<string, Fault | 'none'>();
  private readonly faultHits = new Map<string, number>();
  private readonly answers = new Map<string, FakeAnswerSource>();
  private readonly clock: () => number;
  private sequence = 0;
  private closing?: Promise<void>;

  private constructor(
    private readonly server: Server,
    private readonly options: FakeProviderOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  static async start(options: FakeProviderOptions = {}): Promise<FakeProvider> {
    const server = createServer();
    const provider = new FakeProvider(server, options);
    server.on('connection', (socket) => {
      provider.sockets.add(socket);
      socket.on('close', () => provider.sockets.delete(socket));
    });
    server.on('request', (req, res) => void provider.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return provider;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://127.0.0.1:<port>`: the Anthropic SDK's `baseURL`. */
  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** `<url>/v1`: the OpenAI SDK's `baseURL`. */
  get openaiBaseURL(): string {
    return `${this.url}/v1`;
  }

  get anthropicBaseURL(): string {
    return this.url;
  }

  /**
   * Overrides the fault of one model name: a fault spec (`'fault-503'`, `'503'`), `'none'` to
   * answer normally whatever the name says, or `undefined` to go back to the name's own fault.
   * Resets the model's `-once` / `-times-<n>` counter.
   */
  setFault(model: string, fault: string | undefined): void {
    this.faultHits.delete(model);
    if (fault === undefined) this.runtimeFaults.delete(model);
    else this.runtimeFaults.set(model, fault === 'none' ? 'none' : parseFault(fault));
  }

  clearFaults(): void {
    this.runtimeFaults.clear();
    this.faultHits.clear();
  }

  /** Scripts the answers of one model (`undefined` restores the deterministic default). */
  setAnswer(model: string, answer: FakeAnswerSource | undefined): void {
    if (answer === undefined) this.answers.delete(model);
    else this.answers.set(model, answer);
  }

  /** Forgets the request log, runtime faults, fault counters and scripted answers. */
  reset(): void {
    this.requests.clear();
    this.clearFaults();
    this.answers.clear();
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.timers.clearAll();
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/^\/v1(?=\/)/, '');
      const endpoint = endpointOf(req.method ?? 'GET', path);
      const text = await readBody(req);
      const headers = headerRecord(req);
      const dialect: Dialect = endpoint === 'messages' ? 'anthropic' : 'openai';
      let body: Json | undefined;
      try {
        body = text ? (JSON.parse(text) as Json) : undefined;
      } catch {
        this.requests.record(this.entry(req, endpoint, path, headers, undefined));
        return sendError(res, dialect, 400, 'The request body is not valid JSON.');
      }
      const model = typeof body?.model === 'string' ? body.model : undefined;
      let fault: Fault | undefined;
      let unknownFault: string | undefined;
      try {
        fault = endpoint === 'models' || endpoint === 'other' ? undefined : this.takeFault(model);
      } catch (error) {
        if (!(error instanceof UnknownFaultError)) throw error;
        unknownFault = error.message;
      }
      this.requests.record({
        ...this.entry(req, endpoint, path, headers, body),
        ...(fault ? { fault: fault.spec } : {}),
      });
      if (unknownFault) return sendError(res, dialect, 400, unknownFault);
      const key = presentedKey(headers);
      if (this.options.apiKey !== undefined && key !== this.options.apiKey) {
        return sendDialectError(res, statusError(dialect, 401, model ?? '', key));
      }
      if (await applyRequestFault(res, dialect, fault, model ?? '', key, this.clock)) return;
      switch (endpoint) {
        case 'chat-completions':
        case 'messages':
          return await this.underLoad(res, dialect, model ?? '', key, () =>
            this.chat(res, dialect, body ?? {}, fault),
          );
        case 'embeddings':
          return await this.embeddings(res, body ?? {}, fault);
        case 'models':
          return sendJson(res, 200, this.modelList());
        default:
          return sendError(res, 'openai', 404, `Unknown path ${req.method} ${req.url}`);
      }
    } catch (error) {
      if (!res.headersSent && !isGone(res)) {
        sendJson(res, 500, {
          error: { message: `fake provider failed: ${String(error)}`, type: 'server_error' },
        });
      }
    }
  }

  /** Applies `maxConcurrent` and `answerDelayMs` around one chat answer. */
  private async underLoad(
    res: ServerResponse,
    dialect: Dialect,
    model: string,
    key: string | undefined,
    serve: () => Promise<void>,
  ): Promise<void> {
    const max = this.options.maxConcurrent;
    if (max !== undefined && this.load.inFlight >= max) {
      this.load.refused += 1;
      return sendDialectError(res, statusError(dialect, 429, model, key));
    }
    this.load.inFlight += 1;
    this.load.peak = Math.max(this.load.peak, this.load.inFlight);
    try {
      const delay = this.options.answerDelayMs?.(model) ?? 0;
      if (delay > 0 && !(await this.timers.sleep(delay))) return;
      if (isGone(res)) return;
      await serve();
      this.load.served += 1;
    } finally {
      this.load.inFlight -= 1;
    }
  }

  private entry(
    req: IncomingMessage,
    endpoint: FakeEndpoint,
    path: string,
    headers: Record<string, string>,
    body: Json | undefined,
  ) {
    return {
      endpoint,
      method: req.method ?? 'GET',
      path,
      ...(typeof body?.model === 'string' ? { model: body.model } : {}),
      timestamp: this.clock(),
      headers,
      ...(body === undefined ? {} : { body }),
      stream: body?.stream === true,
    };
  }

  /** The fault for this request, counting `-once` / `-times-<n>` hits. */
  private takeFault(model: string | undefined): Fault | undefined {
    if (model === undefined) return undefined;
    const override = this.runtimeFaults.get(model);
    const fault = override === 'none' ? undefined : (override ?? faultInModelName(model));
    if (!fault) return undefined;
    if (fault.times !== undefined) {
      const hits = this.faultHits.get(model) ?? 0;
      if (hits >= fault.times) return undefined;
      this.faultHits.set(model, hits + 1);
    }
    return fault;
  }

  private async chat(
    res: ServerResponse,
    dialect: Dialect,
    body: Json,
    fault: Fault | undefined,
  ): Promise<void> {
    let request: FakeChatRequest;
    try {
      request = dialect === 'anthropic' ? parseAnthropicMessages(body) : parseOpenAiChat(body);
    } catch (error) {
      return sendError(res, dialect, 400, (error as Error).message);
    }
    const last = request.messages[request.messages.length - 1];
    if (
      request.model.includes('no-prefill') &&
      last?.role === 'assistant' &&
      !last.toolCallNames?.length
    ) {
      return sendError(
        res,
        dialect,
        400,
        'This model does not support assistant message prefill. The conversation must end with a user message.',
      );
    }
    const sequence = ++this.sequence;
    const source = this.answers.get(request.model);
    let answer = planAnswer(
      request,
      typeof source === 'function' ? source(request) : source,
      sequence,
    );
    if (fault?.type === 'content-filter-finish') answer = filtered(answer);
    // answers, but says the quota is spent: what a router should read before the 429 comes
    if (request.model.includes('quota-exhausted')) sendQuotaExhausted(res, dialect, this.clock());
    if (request.stream) {
      const plan: StreamPlan =
        dialect === 'anthropic'
          ? anthropicStreamPlan({ id: fakeId('msg_', request.model, sequence), request, answer })
          : openAiStreamPlan({
              id: fakeId('chatcmpl-', request.model, sequence),
              created: this.created(),
              request,
              answer,
            });
      return playStream(res, plan, fault, this.timers, this.options.tokenDelayMs ?? 0);
    }
    const json =
      dialect === 'anthropic'
        ? anthropicMessage({ id: fakeId('msg_', request.model, sequence), request, answer })
        : openAiCompletion({
            id: fakeId('chatcmpl-', request.model, sequence),
            created: this.created(),
            request,
            answer,
          });
    return sendJsonWithFault(res, dialect, json, fault, this.timers);
  }

  private async embeddings(
    res: ServerResponse,
    body: Json,
    fault: Fault | undefined,
  ): Promise<void> {
    let json: Json;
    try {
      json = embeddingsResponse(body, this.options.embeddingDimensions ?? 64);
    } catch (error) {
      return sendError(res, 'openai', 400, (error as Error).message);
    }
    return sendJsonWithFault(res, 'openai', json, fault, this.timers);
  }

  private modelList(): Json {
    const ids = [...new Set([...(this.options.models ?? []), ...this.requests.models()])];
    return {
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-provider' })),
    };
  }

  private created(): number {
    return Math.floor(this.clock() / 1000);
  }
}

function endpointOf(method: string, path: string): FakeEndpoint {
  if (method === 'POST' && path === '/chat/completions') return 'chat-completions';
  if (method === 'POST' && path === '/messages') return 'messages';
  if (method === 'POST' && path === '/embeddings') return 'embeddings';
  if (method === 'GET' && path === '/models') return 'models';
  return 'other';
}

/** The rate-limit headers of a provider whose request quota is spent for 30 seconds. */
function sendQuotaExhausted(
  res: ServerResponse,
  dialect: 'openai' | 'anthropic',
  now: number,
): void {
  if (dialect === 'anthropic') {
    res.setHeader('anthropic-ratelimit-requests-remaining', '0');
    res.setHeader('anthropic-ratelimit-requests-reset', new Date(now + 30_000).toISOString());
  } else {
    res.setHeader('x-ratelimit-remaining-requests', '0');
    res.setHeader('x-ratelimit-reset-requests', '30s');
  }
}
