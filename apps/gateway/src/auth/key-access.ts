import { HttpException, HttpStatus } from '@nestjs/common';
import type { GatewayKey } from './api-keys.js';
import { globMatcher } from './glob.js';
import { keyOf } from './request-key.js';

export type TargetKind = 'router' | 'model' | 'provider-model';

/**
 * What one caller may address. The resolver asks it about every name a request uses (the model,
 * each entry of a failover list) and filters what it lists with it. Without `auth` everything is
 * allowed (`OPEN_ACCESS`); an admin key may use everything too.
 */
export interface KeyAccess {
  allows(kind: TargetKind, name: string): boolean;
  /** Whether some `provider/model-id` of this provider may be used (for listings). */
  allowsProvider(provider: string): boolean;
}

export const OPEN_ACCESS: KeyAccess = { allows: () => true, allowsProvider: () => true };

export function keyAccess(key: GatewayKey): KeyAccess {
  const client = key.client;
  if (key.admin || !client) return OPEN_ACCESS;
  const routers = client.routers ? globMatcher(client.routers) : () => true;
  const models = client.models ? globMatcher(client.models) : () => true;
  const providerModels =
    client.providerModels === true
      ? () => true
      : Array.isArray(client.providerModels)
        ? globMatcher(client.providerModels)
        : () => false;
  const patterns = client.providerModels;
  return {
    allows: (kind, name) =>
      kind === 'router' ? routers(name) : kind === 'model' ? models(name) : providerModels(name),
    allowsProvider: (provider) =>
      patterns === true ||
      (Array.isArray(patterns) &&
        patterns.some((pattern) => pattern === '*' || pattern.startsWith(`${provider}/`))),
  };
}

/** 403: names what the request asked for and that this key may not; never other keys. */
export class TargetNotAllowedException extends HttpException {
  constructor(kind: TargetKind, name: string, param = 'model') {
    const what =
      kind === 'router'
        ? 'router'
        : kind === 'model'
          ? 'model'
          : 'provider model (provider/model-id)';
    super(
      {
        message:
          `This API key may not use the ${what} '${name}'. GET /v1/models lists what it may use; ` +
          'ask the gateway operator to extend the key’s scope.',
        param,
        code: 'model_not_allowed',
        type: 'permission_error',
      },
      HttpStatus.FORBIDDEN,
    );
  }
}

/** Throws the 403 unless `access` allows the name. */
export function assertAllowed(
  access: KeyAccess,
  kind: TargetKind,
  name: string,
  param?: string,
): void {
  if (!access.allows(kind, name)) throw new TargetNotAllowedException(kind, name, param);
}

const accesses = new WeakMap<GatewayKey, KeyAccess>();

/** What the request's key may use; everything when the gateway has no `auth`. */
export function accessOf(request: object): KeyAccess {
  const key = keyOf(request);
  if (!key) return OPEN_ACCESS;
  let access = accesses.get(key);
  if (!access) {
    access = keyAccess(key);
    accesses.set(key, access);
  }
  return access;
}
