import { InvalidConfigurationException } from '../../core/errors/exceptions.js';

/** The connection options both official SDK clients are built from. */
export interface SdkConnectionOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  maxRetries?: number;
}

export interface SdkClientOptions {
  apiKey: string;
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
  maxRetries: number;
}

/**
 * The key comes from the options or the provider's environment variable; without either we fail
 * at construction, naming both, rather than at the first call. Retries default to 0 because
 * retrying is the resilience layer's job.
 */
export function sdkClientOptions(
  options: SdkConnectionOptions,
  owner: { className: string; apiKeyEnv: string; hint?: string },
): SdkClientOptions {
  const apiKey = options.apiKey ?? process.env[owner.apiKeyEnv];
  if (!apiKey) {
    throw new InvalidConfigurationException(
      `${owner.className} '${options.model}': options.apiKey is missing and ${owner.apiKeyEnv} is not set` +
        (owner.hint ? `; ${owner.hint}` : ''),
    );
  }
  return {
    apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    maxRetries: options.maxRetries ?? 0,
  };
}
