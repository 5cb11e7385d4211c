import { describe, expect, it } from '@jest/globals';
import { HttpException } from '@nestjs/common';
import { checkStatusRequest } from '../../../../src/nest/status/status-request.js';

function statusOf(request: unknown, loopbackOnly = true): number | 'ok' {
  try {
    checkStatusRequest(request, loopbackOnly);
    return 'ok';
  } catch (error) {
    return (error as HttpException).getStatus();
  }
}

const from = (remoteAddress: string, extra: Record<string, unknown> = {}) => ({
  socket: { remoteAddress },
  query: {},
  headers: {},
  ...extra,
});

describe('checkStatusRequest', () => {
  it('serves loopback callers (IPv4, IPv6, mapped) and refuses others while loopbackOnly', () => {
    expect(statusOf(from('127.0.0.1'))).toBe('ok');
    expect(statusOf(from('::1'))).toBe('ok');
    expect(statusOf(from('::ffff:127.0.0.1'))).toBe('ok');
    // Fastify keeps the socket on request.raw
    expect(statusOf({ raw: { socket: { remoteAddress: '127.0.0.2' } } })).toBe('ok');
    expect(statusOf(from('10.0.0.5'))).toBe(403);
    expect(statusOf(from('::ffff:10.0.0.5'))).toBe(403);
    expect(statusOf({})).toBe(403);
    expect(statusOf(from('10.0.0.5'), false)).toBe('ok');
  });

  it('refuses any query parameter and a huge Accept before anything else', () => {
    expect(statusOf(from('127.0.0.1', { query: { refresh: '1' } }))).toBe(400);
    expect(statusOf(from('10.0.0.5', { headers: { accept: 'x'.repeat(1025) } }))).toBe(431);
    expect(
      statusOf(from('127.0.0.1', { headers: { accept: ['a'.repeat(600), 'b'.repeat(600)] } })),
    ).toBe(431);
    expect(statusOf(from('127.0.0.1', { headers: { accept: 'text/html' } }))).toBe('ok');
  });
});
