import { profileOf } from '../cost/model-profile.js';
import type { ChatModelWrapper } from '../chat/chat-model-wrapper.js';
import { countersOf, windowEnd, type CounterWindow } from '../state/counter-store.js';
import { chain, type MaybePromise } from '../state/maybe-async.js';
import type { RouteStateStore } from '../state/route-state-store.js';
import { exhaustedUntil } from './provider-quota.js';

const MINUTE = 60_000;

/** Requests and tokens a model used in the current minute, against its limits. */
export interface LimitUsage {
  rpm?: { used: number; limit: number };
  tpm?: { used: number; limit: number };
}

/** What a dispatched attempt took from its model's minute, to settle when it ends. */
export interface RateClaim {
  readonly model: string;
  readonly tokens: number;
  readonly window: CounterWindow;
}

/**
 * A model's requests and tokens per minute (its profile's `limits`) and the quota its provider
 * says is left. Counters are per model name in the state store, so every group and replica
 * using that model counts against one limit. Taking a slot is an atomic add-if-below-limit:
 * with Redis that is one awaited round trip per call to a limited model, the price of holding
 * a limit exactly across replicas.
 */
export class RateLimits {
  constructor(private readonly store: () => RouteStateStore) {}

  /** Epoch ms until which the model is at a limit for a request of `tokens`, else undefined. */
  blockedUntil(model: ChatModelWrapper, tokens: number, now: number): number | undefined {
    const counters = countersOf(this.store());
    const quota = counters.getGauge(this.key(model.name, 'quota-until'));
    if (quota !== undefined && quota > now) return quota;
    const limits = profileOf(model).limits;
    if (!limits) return undefined;
    const window = { windowMs: MINUTE, now };
    if (
      limits.rpm !== undefined &&
      counters.getWindow(this.key(model.name, 'rpm'), window) >= limits.rpm
    ) {
      return windowEnd(window);
    }
    if (
      limits.tpm !== undefined &&
      counters.getWindow(this.key(model.name, 'tpm'), window) + Math.min(tokens, limits.tpm) >
        limits.tpm
    ) {
      return windowEnd(window);
    }
    return undefined;
  }

  /** Takes a request (and `tokens`) from the model's minute; false when another call got there first. */
  claim(model: ChatModelWrapper, tokens: number, now: number): MaybePromise<RateClaim | undefined> {
    const limits = profileOf(model).limits;
    const window: CounterWindow = { windowMs: MINUTE, now };
    const claim: RateClaim = {
      model: model.name,
      tokens: limits?.tpm !== undefined ? tokens : 0,
      window,
    };
    if (limits?.rpm === undefined && limits?.tpm === undefined) return claim;
    const counters = countersOf(this.store());
    const requests =
      limits.rpm === undefined
        ? { ok: true, total: 0 }
        : counters.addToWindow(this.key(model.name, 'rpm'), 1, { ...window, limit: limits.rpm });
    return chain(requests, (taken) => {
      if (!taken.ok) return undefined;
      if (limits.tpm === undefined) return claim;
      // a request larger than the whole limit may still go alone into an empty minute
      const asked = Math.min(tokens, limits.tpm);
      const added = counters.addToWindow(this.key(model.name, 'tpm'), asked, {
        ...window,
        limit: limits.tpm,
      });
      return chain(added, (result) => {
        if (result.ok) return { ...claim, tokens: asked };
        if (limits.rpm !== undefined) void this.add(model.name, 'rpm', -1, window);
        return undefined;
      });
    });
  }

  /** Replaces the claimed token estimate with what the call really used (0 when it failed). */
  settle(claim: RateClaim, usedTokens: number): void {
    if (claim.tokens === 0) return; // no tpm limit: nothing was counted
    void this.add(claim.model, 'tpm', usedTokens - claim.tokens, claim.window);
  }

  /** Reads a provider's remaining-quota headers: an exhausted quota blocks until its reset. */
  observeQuota(model: string, headers: Record<string, string>, now: number): void {
    const until = exhaustedUntil(headers, now);
    if (until === undefined || until <= now) return;
    try {
      countersOf(this.store()).setGauge(this.key(model, 'quota-until'), until, until - now);
    } catch {
      // a lost quota reading means the provider's 429 tells us instead
    }
  }

  private add(
    model: string,
    what: string,
    delta: number,
    window: CounterWindow,
  ): MaybePromise<unknown> {
    if (delta === 0) return undefined;
    try {
      const result = countersOf(this.store()).addToWindow(this.key(model, what), delta, window);
      return result instanceof Promise ? result.catch(() => undefined) : result;
    } catch {
      return undefined;
    }
  }

  /** The model's minute so far against its `rpm` / `tpm` (every replica's, with Redis). */
  usage(model: ChatModelWrapper, now: number): LimitUsage | undefined {
    const limits = profileOf(model).limits;
    if (limits?.rpm === undefined && limits?.tpm === undefined) return undefined;
    const counters = countersOf(this.store());
    const window = { windowMs: MINUTE, now };
    const used = (what: string) => counters.getWindow(this.key(model.name, what), window);
    return {
      ...(limits.rpm !== undefined ? { rpm: { used: used('rpm'), limit: limits.rpm } } : {}),
      ...(limits.tpm !== undefined ? { tpm: { used: used('tpm'), limit: limits.tpm } } : {}),
    };
  }

  private key(model: string, what: string): string {
    return `limits:${model}:${what}`;
  }
}
