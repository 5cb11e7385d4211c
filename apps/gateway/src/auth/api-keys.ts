import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyConfig, AuthConfig, KeySecretConfig } from '../config/gateway-sections.js';

/** What the gateway knows of an authenticated caller; never the secret itself. */
export interface GatewayKey {
  name: string;
  admin: boolean;
  /** Scope and limits; absent for admin keys (they administer, they do not chat). */
  client?: Omit<ApiKeyConfig, 'key' | 'sha256' | 'name'>;
}

interface HeldKey {
  digest: Buffer;
  identity: GatewayKey;
}

/** Longer credentials are refused unhashed: hashing megabytes per request is a DoS lever. */
export const MAX_CREDENTIAL_LENGTH = 512;

/**
 * The configured keys, held as SHA-256 digests only (a heap dump shows no key). A presented key
 * is hashed and compared with every digest in constant time, without stopping at the first
 * match, so timing tells neither which key matched nor how many characters did.
 */
export class ApiKeys {
  private readonly held: HeldKey[];

  constructor(auth: AuthConfig) {
    this.held = [
      ...(auth.keys ?? []).map((key) =>
        held(key, { name: key.name, admin: false, client: scope(key) }),
      ),
      ...(auth.adminKeys ?? []).map((key) => held(key, { name: key.name, admin: true })),
    ];
  }

  authenticate(presented: string): GatewayKey | undefined {
    if (presented.length === 0 || presented.length > MAX_CREDENTIAL_LENGTH) return undefined;
    const digest = sha256(presented);
    let found: GatewayKey | undefined;
    for (const key of this.held) {
      if (timingSafeEqual(digest, key.digest) && found === undefined) found = key.identity;
    }
    return found;
  }
}

/**
 * The same configuration with every `key` replaced by its `sha256`, so the configuration object
 * the application keeps (and could log or dump) holds no key.
 */
export function withHashedKeys(auth: AuthConfig): AuthConfig {
  return {
    ...(auth.keys ? { keys: auth.keys.map(hashed) } : {}),
    ...(auth.adminKeys ? { adminKeys: auth.adminKeys.map(hashed) } : {}),
  };
}

function hashed<T extends KeySecretConfig>(config: T): T {
  if (config.key === undefined) return config;
  const { key, ...rest } = config;
  // keeps the class (ApiKeyConfig): the scope checks recognise client keys by it
  return Object.assign(Object.create(Object.getPrototypeOf(config) as object) as T, {
    ...rest,
    sha256: sha256(key).toString('hex'),
  });
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function held(config: KeySecretConfig, identity: GatewayKey): HeldKey {
  const digest =
    config.sha256 !== undefined ? Buffer.from(config.sha256, 'hex') : sha256(config.key ?? '');
  return { digest, identity };
}

function scope(config: ApiKeyConfig): GatewayKey['client'] {
  const { key: _key, sha256: _sha, name: _name, ...rest } = config;
  return { ...rest };
}
