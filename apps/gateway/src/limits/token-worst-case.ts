import type { FastifyRequest } from 'fastify';

/** The most output a request may ask for, under the names each wire surface gives it. */
const OUTPUT_FIELDS = ['max_completion_tokens', 'max_tokens', 'max_output_tokens'] as const;

/**
 * The most tokens a request may use, held in its key's `tpm` window before it runs: its whole
 * body at four bytes per token (an upper bound of the prompt: JSON syntax counts too), plus the
 * output it asks for at most (`max_tokens`, `max_completion_tokens`, `max_output_tokens`, or
 * `parameters.maxOutputTokens` on `/chat`), else `defaultOutputTokens`. Embeddings produce no
 * output.
 */
export function worstCaseTokens(request: FastifyRequest, defaultOutputTokens: number): number {
  const length = Number(request.headers['content-length']);
  const bytes = Number.isFinite(length) && length > 0 ? length : bodyLength(request.body);
  const prompt = Math.max(1, Math.ceil(bytes / 4));
  if (request.url.startsWith('/v1/embeddings')) return prompt;
  return prompt + (askedOutput(request.body) ?? defaultOutputTokens);
}

function askedOutput(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  for (const field of OUTPUT_FIELDS) {
    if (isCount(fields[field])) return fields[field];
  }
  const parameters = fields.parameters as Record<string, unknown> | undefined;
  return isCount(parameters?.maxOutputTokens) ? parameters.maxOutputTokens : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function bodyLength(body: unknown): number {
  if (body === undefined) return 0;
  try {
    return JSON.stringify(body)?.length ?? 0;
  } catch {
    return 0;
  }
}
