export type FakeEndpoint = 'chat-completions' | 'messages' | 'embeddings' | 'models' | 'other';

/** One request as the fake provider received it. */
export interface RecordedRequest {
  endpoint: FakeEndpoint;
  method: string;
  path: string;
  /** The `model` of the body, when there is one. */
  model?: string;
  /** Epoch ms from the provider's clock, when the request body had been read. */
  timestamp: number;
  /** Lower-cased header names. Includes credentials as sent: this is a test fixture. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined for GET or an unparseable body). */
  body?: unknown;
  stream: boolean;
  /** The fault applied to this request, if any (e.g. `fault-500-once`). */
  fault?: string;
}

export interface ModelRequests {
  count: number;
  timestamps: number[];
  bodies: unknown[];
  headers: Array<Record<string, string>>;
  requests: RecordedRequest[];
}

/** What the fake provider saw, in arrival order; tests assert attempts per model and spacing. */
export class FakeRequestLog {
  private readonly entries: RecordedRequest[] = [];

  record(request: RecordedRequest): void {
    this.entries.push(request);
  }

  all(): RecordedRequest[] {
    return [...this.entries];
  }

  /** Requests whose body named `model` (chat, messages and embeddings alike). */
  forModel(model: string): ModelRequests {
    const requests = this.entries.filter((entry) => entry.model === model);
    return {
      count: requests.length,
      timestamps: requests.map((entry) => entry.timestamp),
      bodies: requests.map((entry) => entry.body),
      headers: requests.map((entry) => entry.headers),
      requests,
    };
  }

  /** All requests, or those for one model. */
  count(model?: string): number {
    return model === undefined ? this.entries.length : this.forModel(model).count;
  }

  /** The last request, optionally for one model. */
  last(model?: string): RecordedRequest | undefined {
    const entries = model === undefined ? this.entries : this.forModel(model).requests;
    return entries[entries.length - 1];
  }

  /** Distinct model names, in order of first appearance. */
  models(): string[] {
    return [...new Set(this.entries.flatMap((entry) => (entry.model ? [entry.model] : [])))];
  }

  clear(): void {
    this.entries.length = 0;
  }
}
