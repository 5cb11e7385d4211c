import type { Redis } from 'ioredis';
import type { RedisKeySpace } from './redis-key-space.js';
import { ADD_TOKENS } from './route-state-scripts.js';
import type { NumberedIncrement, TokenCounters } from './token-counters.js';

/**
 * How long Redis remembers a replica's last applied increment: a replica cut off for longer may
 * count one unanswered increment twice when it returns.
 */
const LAST_APPLIED_TTL_MS = 7 * 24 * 3_600_000;

/**
 * Sends one numbered token increment (applied once, however often it is resent: see
 * ADD_TOKENS). Without an answer it is kept, with its number, for the next resync; rejects then.
 * The command is issued before this returns, so increments sent one after another reach Redis
 * in that order.
 */
export async function sendTokenIncrement(
  command: Redis,
  keys: RedisKeySpace,
  replica: string,
  tokens: TokenCounters,
  increment: NumberedIncrement,
): Promise<void> {
  const { key, delta, seq } = increment;
  try {
    const total = await ADD_TOKENS.run(
      command,
      [keys.tokens, keys.tokenSeq(replica)],
      [key, delta, seq, LAST_APPLIED_TTL_MS],
    );
    tokens.confirmed(key, delta, Number(total));
  } catch (error) {
    tokens.unansweredSent(increment);
    throw error;
  }
}
