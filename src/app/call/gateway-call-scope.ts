import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the gateway learns about one call while it runs: the route the router chose (with its
 * probability), the model currently answering, and the model that finally succeeded. Filled by
 * GatewayCallInterceptor from the call's routing events and by the models' listeners; read by
 * the controllers (response `model`, headers, tool call ids) and by the demo models (their
 * answer states the route probability).
 */
export class GatewayCallScope {
  route: string | undefined;
  /** The chosen route's probability, when the router reported probabilities. */
  probability: number | undefined;
  /** The model of the attempt in progress (set when a registered model is called). */
  attemptModel: string | undefined;
  /** The model that answered (the first `model-succeeded` event). */
  succeededModel: string | undefined;

  /** The model to name to the client: the one that answered, else the one answering now. */
  get model(): string | undefined {
    return this.succeededModel ?? this.attemptModel;
  }
}

const storage = new AsyncLocalStorage<GatewayCallScope>();

export function runInGatewayCall<T>(scope: GatewayCallScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the gateway call in progress in this async context, if any. */
export function currentGatewayCall(): GatewayCallScope | undefined {
  return storage.getStore();
}

/**
 * For LocalDemoChatModel's `identity` option: the route probability of the call in progress, so
 * a demo answer states how sure the router was.
 */
export function routeProbabilityIdentity(): { probability: number } | undefined {
  const probability = currentGatewayCall()?.probability;
  return probability === undefined ? undefined : { probability };
}
