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

/** Sent to a custom endpoint configured without a key (Ollama, vLLM and the like accept any). */
export const NO_KEY_PLACEHOLDER = 'no-key';

/**
 * The key comes from the options or the provider's environment variable; without either we fail
 * at construction, naming both, rather than at the first call. The environment variable is the
 * key of the provider's own API, so it is used only when the model talks to that API (no
 * baseURL, or the provider's host): a model for another endpoint configured without a key (a
 * local Ollama) gets a placeholder and never another provider's key. The SDKs read the variable
 * themselves when no key is passed, so a key is always passed. Retries default to 0 because
 * retrying is the resilience layer's job.
 */
export function sdkClientOptions(
  options: SdkConnectionOptions,
  owner: { className: string; apiKeyEnv: string; officialHost: string; hint?: string },
): SdkClientOptions {
  const apiKey = options.apiKey ?? environmentKey(options.baseURL, owner);
  if (!apiKey) {
    throw new InvalidConfigurationException(
      // `apiKey` is the option's name in code and the setting's in YAML alike
      `${owner.className} '${options.model}': no apiKey given and ${owner.apiKeyEnv} is not set; ` +
        `set ${owner.apiKeyEnv} or give the model an apiKey` +
        (owner.hint ? ` (${owner.hint})` : ''),
    );
  }
  return {
    apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
    maxRetries: options.maxRetries ?? 0,
  };
}

/** The provider's environment key for its own API; the placeholder for any other endpoint. */
export function environmentKey(
  baseURL: string | undefined,
  owner: { apiKeyEnv: string; officialHost: string },
): string | undefined {
  if (baseURL === undefined || hostOf(baseURL) === owner.officialHost) {
    return process.env[owner.apiKeyEnv];
  }
  return NO_KEY_PLACEHOLDER;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
