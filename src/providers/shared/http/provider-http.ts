import type { Dispatcher } from 'undici';
import { routingTracer } from '../../../core/observability/tracing.js';
import { PooledSseBody } from './pooled-sse-body.js';
import { providerDispatcher, type ProviderHttpOptions } from './provider-pools.js';
import { pause, retryDelayMs, shouldRetry } from './sdk-retry.js';

/** The SDK's own error classes, so that a failure keeps the shape (and `cause`) it had. */
export interface SdkErrorShapes {
  /** An HTTP error answer: the SDK's `APIError.generate(status, body, message, headers)`. */
  status(
    status: number,
    body: object | undefined,
    message: string | undefined,
    headers: Headers,
  ): Error;
  /** A failure before the response headers: the SDK's `APIConnectionError`. */
  connection(cause: Error): Error;
}

export interface ProviderEndpoint {
  /** e.g. `https://api.openai.com/v1`; paths are appended to it, its query string kept. */
  baseURL: string;
  /** Sent with every call, credentials included; never logged or put in an error. */
  headers: Readonly<Record<string, string>>;
  maxRetries: number;
  http?: ProviderHttpOptions;
  errors: SdkErrorShapes;
}

type Answer = Dispatcher.ResponseData;

/**
 * JSON over a keep-alive undici pool, in place of the SDKs' WHATWG fetch: one `request` per call,
 * the body as a Node stream, no web-stream or Headers objects unless the call fails. Errors and
 * retries (`maxRetries`) follow the SDKs, and the SDKs' error classes carry them, so the error
 * mapper sees what it saw before. The caller's signal aborts the request, which closes its
 * connection; a body that is not read to its end is destroyed, which closes it too.
 */
export class ProviderHttp {
  private readonly dispatcher: Dispatcher;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly search: string;

  constructor(private readonly endpoint: ProviderEndpoint) {
    const url = new URL(endpoint.baseURL);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.search = url.search;
    this.dispatcher = providerDispatcher(this.origin, endpoint.http);
  }

  /** The URL path a call to `path` goes to (the base URL's path first), without its query. */
  pathOf(path: string): string {
    return `${this.prefix}${path}`;
  }

  /** POSTs `body`: the parsed answer (text when the server did not answer JSON), its headers. */
  async json(
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ data: unknown; headers: Answer['headers'] }> {
    const answer = await this.send(path, body, signal);
    const text = await readText(answer, MAX_ANSWER_BYTES);
    const data: unknown = isJson(answer.headers['content-type']) ? JSON.parse(text) : text;
    return { data, headers: answer.headers };
  }

  /** POSTs `body`: the answer's body to read as it arrives (an SSE stream), its headers. */
  async stream(
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ body: AsyncIterable<Uint8Array>; headers: Answer['headers'] }> {
    const answer = await this.send(path, body, signal);
    return { body: new PooledSseBody(answer.body), headers: answer.headers };
  }

  private async send(
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    // the current attempt's trace context (`traceparent`), when a tracer records one
    const traced = routingTracer()?.outgoingHeaders();
    const request: Dispatcher.RequestOptions = {
      origin: this.origin,
      path: `${this.prefix}${path}${this.search}`,
      method: 'POST',
      headers: traced ? { ...this.endpoint.headers, ...traced } : this.endpoint.headers,
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    };
    const { maxRetries, errors } = this.endpoint;
    for (let retriesDone = 0; ; retriesDone++) {
      const retry = retriesDone < maxRetries;
      let answer: Answer;
      try {
        answer = await this.dispatcher.request(request);
      } catch (error) {
        // the caller's abort or the model's timeout: the model maps it by its signal
        if (signal?.aborted) throw error;
        if (retry) {
          await pause(retryDelayMs(undefined, retriesDone), signal);
          continue;
        }
        throw errors.connection(error instanceof Error ? error : new Error(String(error)));
      }
      if (answer.statusCode >= 200 && answer.statusCode < 300) return answer;
      const headers = toHeaders(answer.headers);
      if (retry && shouldRetry(answer.statusCode, headers)) {
        await answer.body.dump();
        await pause(retryDelayMs(headers, retriesDone), signal);
        continue;
      }
      const text = await readText(answer, MAX_ERROR_BODY_BYTES).catch((error: unknown) =>
        error instanceof Error ? error.message : String(error),
      );
      const parsed = safeJson(text);
      throw errors.status(answer.statusCode, parsed, parsed ? undefined : text, headers);
    }
  }
}

/**
 * The most a non-streamed answer may hold: 64 MiB, several times a long answer with logprobs.
 * A server that sends more is broken, and reading on would hold the process's memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** An error answer is read for its message only. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** A non-streamed answer ran over its limit: its connection was closed, the answer abandoned. */
export class OversizedAnswerError extends Error {
  readonly code = 'answer_too_large';

  constructor(readonly limit: number) {
    super(`the answer ran over ${limit} bytes; it was abandoned`);
    this.name = 'OversizedAnswerError';
  }
}

/**
 * The body as text, at most `limit` bytes: a declared length over it is refused before reading,
 * a chunked body when it passes it (the connection is closed either way).
 */
async function readText(answer: Answer, limit: number): Promise<string> {
  const declared = Number(answer.headers['content-length']);
  if (declared > limit) {
    answer.body.destroy();
    throw new OversizedAnswerError(limit);
  }
  if (declared >= 0) return answer.body.text();
  // read by its events: an async iterator (a promise per chunk, and the end-of-stream watcher it
  // sets up) cost ~1.5 % of a call's CPU, chunked being how most servers answer
  const body = answer.body;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      body.destroy();
      reject(new OversizedAnswerError(limit));
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    body.once('error', reject);
  });
}

/** Header names lower-cased, so that a caller's `Authorization` replaces ours, not doubles it. */
export function lowerCasedHeaders(
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function isJson(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value !== undefined && /\bjson\b/i.test(value);
}

function safeJson(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Only on a failure: the SDK errors read their headers through `get`. */
function toHeaders(raw: Answer['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
