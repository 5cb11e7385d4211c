import { LuaScript } from './lua-script.js';

/**
 * The Lua scripts of the windowed counters (rpm/tpm windows, budget spend and holds, in-flight
 * counts). Each window is two keys under one hash tag (so a script touches one slot, as Redis
 * Cluster requires): the total, a string for INCRBYFLOAT and MGET, and a hash of each replica's
 * contribution to it (field `<replica>`) with the sequence number of the last write-back from that
 * replica that Redis applied (field `<replica>#seq`). The total is always the sum of the
 * contributions: every script changes both together.
 *
 * The contributions make an outage's write-back idempotent (see RedisCounters.writeBack): a
 * replica sets its own contribution to what it knows it added, with a fresh sequence number,
 * and the total moves by the difference; sending it again changes nothing, and a stale add that
 * reaches Redis after a newer write (a half-open connection) is ignored by its older number.
 * Totals travel as strings: Redis would truncate a Lua number to an integer.
 */

/**
 * Adds to a window, refusing a positive delta that would take it above the limit, so a limit
 * holds exactly however many replicas add at once. Only a write-back records its sequence number:
 * adds are relative and may reach Redis out of order (a NOSCRIPT retry sends one again after a
 * later one), so an add is stale only when it is older than the replica's last write-back, whose
 * contribution already counted it.
 * KEYS: total, contributions. ARGV: delta, limit ('' for none), TTL ms, replica, sequence number.
 * Returns {1|0, total}; {1, total} unchanged for an add older than the replica's last write.
 */
export const ADD_TO_WINDOW = new LuaScript(`
local seqField = ARGV[4] .. '#seq'
local seq = tonumber(ARGV[5])
if seq <= tonumber(redis.call('HGET', KEYS[2], seqField) or '0') then
  return {1, redis.call('GET', KEYS[1]) or '0'}
end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local delta = tonumber(ARGV[1])
if ARGV[2] ~= '' and delta > 0 and current + delta > tonumber(ARGV[2]) then
  return {0, redis.call('GET', KEYS[1]) or '0'}
end
local total = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('HINCRBYFLOAT', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, total}
`);

/**
 * Sets one replica's contribution to a window (what it counted, in Redis or alone while Redis
 * was away), moving the total by the difference. Idempotent: the same contribution sent twice
 * moves the total once; ignored when not newer than the replica's last applied write.
 * KEYS: total, contributions. ARGV: replica, sequence number, contribution, TTL ms.
 * Returns {1|0 (applied or not), total}.
 */
export const WRITE_BACK_WINDOW = new LuaScript(`
local seqField = ARGV[1] .. '#seq'
if tonumber(ARGV[2]) <= tonumber(redis.call('HGET', KEYS[2], seqField) or '0') then
  return {0, redis.call('GET', KEYS[1]) or '0'}
end
local before = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local diff = tonumber(ARGV[3]) - before
if diff ~= 0 then
  redis.call('INCRBYFLOAT', KEYS[1], string.format('%.17g', diff))
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3], seqField, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return {1, redis.call('GET', KEYS[1]) or '0'}
`);
