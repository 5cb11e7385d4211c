import { ProviderException } from '../../core/errors/provider-exception.js';

/**
 * A request this provider cannot express (e.g. a video part for the OpenAI chat API): the
 * caller's error, kind `invalid-request`, raised before anything is sent.
 */
export function invalidRequest(
  provider: string,
  model: string,
  problem: string,
): ProviderException {
  return new ProviderException(
    `${provider} model '${model}' cannot take this request: ${problem}`,
    {
      kind: 'invalid-request',
      provider,
      model,
    },
  );
}
