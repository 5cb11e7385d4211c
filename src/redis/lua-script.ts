import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by its SHA (one small request), loaded again with EVAL when Redis does not
 * know it (after a restart or SCRIPT FLUSH).
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: Redis, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      try {
        return await client.evalsha(this.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return await client.eval(this.source, keys.length, ...keys, ...args);
      }
    } catch (error) {
      throw namingKeys(error, keys);
    }
  }
}

/**
 * Redis does not say which key held the wrong type (WRONGTYPE), or which value a script could
 * not read (a key something else wrote under our prefix): the message names the command's keys,
 * so the log line says what to delete. Keys hold the prefix and counter names, never a secret.
 */
export function namingKeys(error: unknown, keys: string[]): unknown {
  if (!(error instanceof Error) || !/^(WRONGTYPE|ERR user_script)/.test(error.message)) {
    return error;
  }
  error.message = `${error.message} (keys: ${keys.join(', ')})`;
  return error;
}
