import { ProviderException } from './provider-exception.js';

/**
 * Every model a call could go to has as many calls in flight as its concurrency limit allows,
 * and the short queue (if any) did not free one in time: a 429 with a short Retry-After, never
 * a wait without end. It counts against no model.
 */
export class ConcurrencyLimitException extends ProviderException {
  constructor(models: readonly string[], retryAfterMs = 1_000) {
    super(
      `Every model that could serve this call is at its concurrency limit (${models.join(', ')}); retry shortly.`,
      { kind: 'rate-limited', provider: 'model-router', code: 'concurrency_limit', retryAfterMs },
    );
    this.name = 'ConcurrencyLimitException';
  }
}
