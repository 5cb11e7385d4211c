import type { FastifyInstance } from 'fastify';

/** The API's entry points, for a client that tried another one (`/v1/completions`, a typo). */
const SERVED =
  ': this gateway serves POST /v1/chat/completions, /v1/responses, /v1/messages and ' +
  '/v1/embeddings, and GET /v1/models';

/**
 * What to add to a 404's `Cannot <method> <path>` so it says how to get it right: the method the
 * path takes (a browser's GET of /v1/chat/completions), else, under /v1, the paths served.
 */
export function unservedPathHint(
  fastify: FastifyInstance | undefined,
  method: string | undefined,
  url: string | undefined,
): string {
  if (url === undefined) return '';
  const path = url.split('?', 1)[0] ?? '';
  const other = ['POST', 'GET'].find(
    (candidate) => candidate !== method && fastify?.hasRoute({ method: candidate, url: path }),
  );
  if (other) return `: it takes ${other}`;
  return path === '/v1' || path.startsWith('/v1/') ? SERVED : '';
}
