import { HttpException, HttpStatus } from '@nestjs/common';
import { isIP } from 'node:net';

/** An `Accept` header longer than this is refused before anything else is read. */
export const MAX_STATUS_ACCEPT_CHARS = 1024;

/** The parts of an Express or Fastify request the status endpoints read. */
interface StatusRequest {
  query?: unknown;
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
  raw?: { socket?: { remoteAddress?: string } };
}

/**
 * The cheap checks of a status request, in the order of their cost: a huge `Accept` (431), any
 * query parameter (400: the endpoints take none, so a typo is said, not ignored), and a caller
 * off loopback while `loopbackOnly` (403). Each answers without building the report.
 */
export function checkStatusRequest(request: unknown, loopbackOnly: boolean): void {
  const req = (request ?? {}) as StatusRequest;
  const accept = req.headers?.accept;
  const acceptLength = Array.isArray(accept)
    ? accept.reduce((sum, value) => sum + value.length, 0)
    : (accept?.length ?? 0);
  if (acceptLength > MAX_STATUS_ACCEPT_CHARS) {
    throw new HttpException(
      {
        message: `The Accept header is ${acceptLength} characters; the status answers at most ${MAX_STATUS_ACCEPT_CHARS}.`,
        error: 'Request Header Fields Too Large',
        statusCode: 431,
      },
      431,
    );
  }
  const query = req.query;
  if (typeof query === 'object' && query !== null && Object.keys(query).length > 0) {
    throw new HttpException(
      {
        message: `The status takes no query parameters (got ${Object.keys(query).length}); ask for the path alone.`,
        error: 'Bad Request',
        statusCode: 400,
      },
      HttpStatus.BAD_REQUEST,
    );
  }
  if (
    loopbackOnly &&
    !isLoopbackPeer(req.socket?.remoteAddress ?? req.raw?.socket?.remoteAddress)
  ) {
    throw new HttpException(
      {
        message:
          'The status is served to loopback callers only (it shows circuits, errors and spend); protect it with your own guard and set loopbackOnly: false to serve it further.',
        error: 'Forbidden',
        statusCode: 403,
      },
      HttpStatus.FORBIDDEN,
    );
  }
}

function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.toLowerCase();
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare.startsWith('::ffff:127.');
}
