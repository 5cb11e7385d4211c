import type { ModelRouterMetrics } from 'nest-model-router/metrics';
import { keyOf } from '../auth/request-key.js';
import { noteServed } from '../http/call-facts.interceptor.js';
import type { KeyBudgets } from '../limits/key-budgets.js';
import type { KeyThrottlerStorage } from '../limits/key-throttler-storage.js';

/**
 * What an embeddings call counts, as a chat call does: the key's budgets before it (429
 * `budget_exceeded` once a budget over the key and model is spent), its input tokens in the
 * key's `tpm` window, a call and its tokens in the metrics per embedding model, and the model
 * and tokens on the access log line. The key's `rpm` is counted by the global throttler guard,
 * as for every POST. No cost is charged: embedding models have no pricing in the configuration.
 */
export class EmbeddingAccounting {
  constructor(
    private readonly limits: KeyThrottlerStorage,
    private readonly budgets: KeyBudgets,
    private readonly metrics: ModelRouterMetrics | undefined,
  ) {}

  /** Before the call: `model` is what the request addressed (a model or a failover list). */
  admit(request: object, model: string): void {
    const key = keyOf(request)?.name;
    if (key !== undefined) this.budgets.assertWithin(key, model);
  }

  /** `model`: what the request addressed (bounded metric labels); `served`: who answered. */
  answered(request: object, model: string, served: string, inputTokens: number): void {
    this.limits.recordTokensOf(request, inputTokens);
    this.metrics?.recordEmbedding({ model, outcome: 'ok', inputTokens });
    noteServed(request, served, {
      inputTokens,
      outputTokens: 0,
      totalTokens: inputTokens,
    });
  }

  failed(model: string, error: unknown, signal: AbortSignal): void {
    this.metrics?.recordFailedEmbedding(model, error, signal);
  }
}
