import { describe, expect, it } from '@jest/globals';
import type { Redis } from 'ioredis';
import { SharedLists } from '../../../src/redis/shared-lists.js';

/** A connection whose every command fails as a hung or full Redis makes it fail. */
function failingRedis(error: Error): Redis {
  const chain = {
    rpush: () => chain,
    ltrim: () => chain,
    pexpire: () => chain,
    exec: () => Promise.reject(error),
  };
  return { multi: () => chain, lrange: () => Promise.reject(error) } as unknown as Redis;
}

describe('SharedLists when Redis fails a command', () => {
  it('keeps the example locally, reports the failure, and never throws to the caller', async () => {
    const failures: unknown[] = [];
    const timeout = new Error('Command timed out');
    const lists = new SharedLists(
      'p:',
      () => failingRedis(timeout),
      () => true,
      (error) => failures.push(error),
    );
    await expect(lists.append('{r}:a', 'one', 10)).resolves.toBeUndefined();
    await expect(lists.read('{r}:a')).resolves.toEqual(['one']);
    expect(failures).toEqual([timeout, timeout]);
  });
});
