/**
 * Keys are redacted from every error message as whole tokens, so a key that is an ordinary word
 * (`ollama`, `any`, `openai`) would take that word out of every message that mentions it. Such a
 * key is no secret (a local server that accepts any key), so it is refused at start instead: the
 * fix is to leave the key out (a placeholder is sent to a custom endpoint) or to give the real one.
 */
const PLAIN_WORD = /^[A-Za-z]{1,24}$/;

/**
 * Why `key` cannot be a configured API key, or undefined when it can. Never quotes the key, and
 * never puts a colon after a credential word (`scrubCredentials` would eat what follows).
 */
export function plainWordKeyProblem(
  key: string,
  providerNames: readonly (string | undefined)[] = [],
): string | undefined {
  const trimmed = key.trim();
  const provider = providerNames.find(
    (name) => name !== undefined && name.trim().toLowerCase() === trimmed.toLowerCase(),
  );
  const what =
    provider !== undefined
      ? `is the provider's name '${provider}'`
      : PLAIN_WORD.test(trimmed)
        ? 'is a plain word'
        : undefined;
  if (what === undefined) return undefined;
  return (
    `${what}, which no real key is; keys are redacted from error messages, so that word ` +
    'would vanish from them. For a server that needs no key (Ollama, vLLM) leave apiKey out; ' +
    'otherwise give the real key'
  );
}
