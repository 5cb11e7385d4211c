import { BadRequestException, NotFoundException } from '@nestjs/common';
import {
  type ChatModel,
  type Clock,
  type RouteStateStore,
  FailoverStrategy,
  ModelRouter,
  type ChatResponse,
  type ModelRouterRegistry,
  type RoutingChatOptions,
} from 'nest-model-router';
import {
  closestName,
  type ConfiguredBreaker,
  configuredProfile,
  profileMetadata,
} from 'nest-model-router/config';
import { type BudgetLedger, costOfAnswer } from 'nest-model-router/core';
import { assertAllowed, type KeyAccess, OPEN_ACCESS } from '../auth/key-access.js';
import { UnknownModelException } from '../openai/openai-error.js';
import { failoverListName } from './failover-list-name.js';
import type { ProviderModels } from './provider-models.js';

/** Circuits of per-request failover lists live under this scope: shared per model name. */
export const AD_HOC_SCOPE = 'gateway/models';

/**
 * Turns the `model` (and optional `models`) of a request into what RoutingChatService serves:
 * a router, a registered model, a provider's model (`provider/model-id`), or a failover group
 * built for this request over `[model, ...models]`.
 */
export class ModelResolver {
  constructor(
    private readonly registry: ModelRouterRegistry,
    private readonly providers: ProviderModels,
    private readonly adHoc: {
      breaker: ConfiguredBreaker;
      store: RouteStateStore;
      clock?: Clock;
      /** The module's budgets: a list's group checks and charges each of its models. */
      budgets?: BudgetLedger;
    },
  ) {}

  /** `access`: what the caller's key may use; a name outside it is a 403 naming that name. */
  resolve(
    model: string,
    models?: readonly string[] | null,
    access: KeyAccess = OPEN_ACCESS,
  ): RoutingChatOptions {
    // an empty list: no fallback, the model alone
    if (models == null || models.length === 0) return this.single(model, access);
    if (this.registry.getRouter(model)) {
      // a router outside the key's scope is not described to it
      assertAllowed(access, 'router', model);
      throw new BadRequestException(
        `models: a failover list takes model names, but model '${model}' is a router; ` +
          'set model to the first model of the list or drop models',
      );
    }
    const names = [...new Set([model, ...models])];
    const entries = names.map((name) => {
      if (this.registry.getRouter(name)) {
        assertAllowed(access, 'router', name, `models[${models.indexOf(name)}]`);
        throw new BadRequestException(
          `models[${models.indexOf(name)}]: '${name}' is a router; a failover list takes model names`,
        );
      }
      const chosen = this.modelNamed(name, access, `models[${models.indexOf(name)}]`);
      return { name, model: chosen, metadata: profileMetadata(chosen) };
    });
    if (entries.length === 1) return this.single(model, access);
    return {
      model: {
        name: failoverListName(names),
        model: new ModelRouter({
          routes: entries,
          routingStrategy: new FailoverStrategy({
            ...this.adHoc.breaker,
            store: this.adHoc.store,
            scope: AD_HOC_SCOPE,
            ...(this.adHoc.clock ? { clock: this.adHoc.clock } : {}),
          }),
          continuation: true,
          ...(this.adHoc.budgets?.size ? { budgets: this.adHoc.budgets } : {}),
        }),
      },
    };
  }

  /**
   * The router a `/chat` body may use: the one it names, else the default one. An unknown name
   * is 404 and a missing one (no default configured) 400, each listing the routers there are.
   */
  assertRouter(name: string | undefined, access: KeyAccess = OPEN_ACCESS): void {
    const routers = this.registry
      .routerNames()
      .filter((router) => access.allows('router', router))
      .join(', ');
    if (name === undefined) {
      const fallback = this.registry.defaultRouter;
      if (fallback !== undefined) return assertAllowed(access, 'router', fallback, 'router');
      throw new BadRequestException({
        message: `router: required, since no defaultRouter is configured; routers: ${routers}`,
        param: 'router',
      });
    }
    if (this.registry.getRouter(name)) return assertAllowed(access, 'router', name, 'router');
    throw new NotFoundException({
      message: `No router is named '${name}'; routers: ${routers}`,
      param: 'router',
    });
  }

  /** What `GET /v1/models` lists: routers first, then models; only what `access` allows. */
  list(access: KeyAccess = OPEN_ACCESS): { id: string; kind: 'router' | 'model' }[] {
    return [
      ...this.registry
        .routerNames()
        .filter((id) => access.allows('router', id))
        .map((id) => ({ id, kind: 'router' as const })),
      ...this.registry
        .modelNames()
        .filter((id) => access.allows('model', id))
        .map((id) => ({ id, kind: 'model' as const })),
    ];
  }

  /**
   * What `GET /v1/models/:id` shows for a name: a router, a model, or a provider's model that
   * could be served (the provider serves; the model is not created for this).
   */
  describe(
    name: string,
    access: KeyAccess = OPEN_ACCESS,
  ): { id: string; kind: 'router' | 'model' } {
    if (this.registry.getRouter(name)) assertAllowed(access, 'router', name);
    else if (this.registry.getModel(name)) assertAllowed(access, 'model', name);
    const listed = this.list(access).find((candidate) => candidate.id === name);
    if (listed) return listed;
    const { provider, modelId } = providerModelName(name);
    if (provider !== undefined && this.providers.has(provider)) {
      assertAllowed(access, 'provider-model', name);
      const refusal = this.providers.refusal(provider, modelId);
      if (refusal) throw new UnknownModelException(name, [], refusal);
      return { id: name, kind: 'model' };
    }
    throw this.unknown(name, provider, access);
  }

  /**
   * What an answer served by model `name` cost: the library's one rule (costOfAnswer), at the
   * price of a registered model or of a `provider/model-id` model (its provider's `pricing`).
   */
  costOf(name: string | undefined, response: ChatResponse): number | undefined {
    const model =
      name === undefined
        ? undefined
        : (this.registry.getModel(name) ?? this.providers.cached(name));
    return costOfAnswer(response, model && configuredProfile(model)?.pricing);
  }

  private single(name: string, access: KeyAccess): RoutingChatOptions {
    if (this.registry.getRouter(name)) {
      assertAllowed(access, 'router', name);
      return { router: name };
    }
    if (this.registry.getModel(name)) {
      assertAllowed(access, 'model', name);
      return { model: name };
    }
    return { model: { name, model: this.providerModel(name, access) } };
  }

  private modelNamed(name: string, access: KeyAccess, param: string): ChatModel {
    if (!this.registry.getModel(name)) return this.providerModel(name, access, param);
    assertAllowed(access, 'model', name, param);
    return this.registry.getModel(name)!;
  }

  private providerModel(name: string, access: KeyAccess, param = 'model'): ChatModel {
    const { provider, modelId } = providerModelName(name);
    if (provider !== undefined && this.providers.has(provider)) {
      assertAllowed(access, 'provider-model', name, param);
      const refusal = this.providers.refusal(provider, modelId);
      if (refusal) throw new UnknownModelException(name, [], refusal);
    }
    const model = provider === undefined ? undefined : this.providers.get(provider, modelId);
    if (model) return model;
    throw this.unknown(name, provider, access);
  }

  /** A disabled provider says why (e.g. no key); any other name lists what there is. */
  private unknown(
    name: string,
    provider: string | undefined,
    access: KeyAccess,
  ): UnknownModelException {
    // why a provider is disabled is told only to keys that may use it
    const reason =
      provider === undefined || !access.allowsProvider(provider)
        ? undefined
        : this.providers.disabledReason(provider);
    if (reason) return new UnknownModelException(name, [], reason);
    const known = this.knownNames(access);
    // a misspelt name first: 'Auto' is 'auto', not a provider's model named 'Auto'
    const meant =
      closestName(name, known) ??
      (provider === undefined ? this.providerFor(name, access) : undefined);
    return new UnknownModelException(name, known, undefined, meant);
  }

  /**
   * `openai/gpt-4o` for a bare `gpt-4o` when exactly one provider this key may use would serve
   * that id: the name people type first, from a provider's own documentation.
   */
  private providerFor(modelId: string, access: KeyAccess): string | undefined {
    const serving = this.providers
      .providerNames()
      .map((provider) => `${provider}/${modelId}`)
      .filter(
        (name) =>
          access.allows('provider-model', name) &&
          this.providers.refusal(name.slice(0, name.indexOf('/')), modelId) === undefined,
      );
    return serving.length === 1 ? serving[0] : undefined;
  }

  /**
   * Every name a client may use, provider patterns included (for error messages); with a key,
   * only what it may use, so an error tells no one what other keys can reach.
   */
  knownNames(access: KeyAccess = OPEN_ACCESS): string[] {
    return [
      ...this.list(access).map((entry) => entry.id),
      ...this.providers
        .providerNames()
        .filter((provider) => access.allowsProvider(provider))
        .map((provider) => `${provider}/<model-id>`),
    ];
  }
}

/** `provider/model-id` split at its first slash; `provider` undefined when it is not one. */
function providerModelName(name: string): { provider?: string; modelId: string } {
  const slash = name.indexOf('/');
  const modelId = slash > 0 ? name.slice(slash + 1) : '';
  if (modelId.trim() === '') return { modelId };
  return { provider: name.slice(0, slash), modelId };
}
