import { z } from 'zod';
import { failoverList, modelName, shapes } from '../http/wire-schema.js';

/**
 * An OpenAI embeddings body: its one description (type, check, wording; see WireBodyPipe).
 * Unknown extra fields are tolerated, as on chat completions.
 */

/** OpenAI's own limits: 2048 inputs per request; a text far beyond any model's context is refused. */
export const MAX_EMBEDDING_INPUTS = 2048;
export const MAX_EMBEDDING_INPUT_CHARS = 100_000;

const LIST =
  `must be a string or 1 to ${MAX_EMBEDDING_INPUTS} strings of at most ` +
  `${MAX_EMBEDDING_INPUT_CHARS} characters each`;

// LangChain's Python OpenAIEmbeddings sends token ids by default: the answer says how to send text
const TOKEN_IDS =
  'must be a text: token-id arrays are not supported by this gateway (LangChain: ' +
  'OpenAIEmbeddings(check_embedding_ctx_length=False) sends texts)';

/** An empty text has no meaning to embed; OpenAI refuses it too. */
const EMPTY = 'must not be empty: an empty text has nothing to embed';

const text = z.string().min(1, { error: EMPTY }).max(MAX_EMBEDDING_INPUT_CHARS);

export const embeddingsBody = z.object({
  /** A text or a non-empty list of texts, bounded; token-id arrays are refused by name. */
  input: z.union(
    [
      text,
      z
        .array(
          z.string({ error: TOKEN_IDS }).min(1, { error: EMPTY }).max(MAX_EMBEDDING_INPUT_CHARS),
        )
        .min(1, { error: LIST })
        .max(MAX_EMBEDDING_INPUTS, { error: LIST }),
    ],
    { error: shapes(LIST) },
  ),
  model: modelName,
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.int().min(1).max(65_536).nullish(),
  user: z.string().nullish(),
  /** A per-request failover list, as on chat completions. */
  models: failoverList(),
});

export type EmbeddingsRequest = z.output<typeof embeddingsBody>;
