/**
 * Keys are redacted from every error message as whole tokens, so a key that is a provider's name
 * (`apiKey: ollama` for a local Ollama) would take that name out of every message that mentions
 * it, and such a key is no secret. It is refused at start: the fix is to leave the key out (a
 * placeholder is sent to a custom endpoint) or to give the real one. Other short keys (`test`,
 * `EMPTY`) are accepted and redacted like any key: a key of any length never reaches a message.
 */
const WELL_KNOWN_PROVIDERS = [
  'openai',
  'anthropic',
  'ollama',
  'vllm',
  'lmstudio',
  'azure',
  'groq',
  'mistral',
  'together',
  'openrouter',
];

/**
 * Why `key` cannot be a configured API key, or undefined when it can. Never quotes the key, and
 * never puts a colon after a credential word (`scrubCredentials` would eat what follows).
 */
export function plainWordKeyProblem(
  key: string,
  providerNames: readonly (string | undefined)[] = [],
): string | undefined {
  const trimmed = key.trim().toLowerCase();
  const provider = [...providerNames, ...WELL_KNOWN_PROVIDERS].find(
    (name) => name !== undefined && name.trim().toLowerCase() === trimmed,
  );
  if (provider === undefined) return undefined;
  return (
    `is the provider's name '${provider}', which no real key is; keys are redacted from error ` +
    'messages, so that name would vanish from them. For a server that needs no key (Ollama, ' +
    'vLLM) leave apiKey out; otherwise give the real key'
  );
}
