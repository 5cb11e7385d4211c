import { LuaScript } from './lua-script.js';

/**
 * Writes a circuit record atomically, and tells the other replicas in the same step, so no
 * replica can see the write without the message or the message without the write.
 *
 * KEYS: circuit hash, version counter.
 * ARGV: mode, expected version, version to keep (restore only), record JSON, TTL ms, channel,
 *       store key, origin.
 * Modes: `cas` — only if the stored version equals the expected one (0 when absent);
 *        `push` — a change made while Redis was away, based on the expected version, `keep`
 *        being its local version (base + the changes made apart): also when the circuit is
 *        absent, and over another replica's push from the same base that made fewer changes, so
 *        the replica that went further (a failed probe's escalated cooldown) wins whichever
 *        replica reconnects first; the base and local version are kept in fields `b` and `l`;
 *        `restore` — Redis lost its data: only if what is stored is older than the kept version.
 * Returns {1, version} or {0, stored version, stored JSON, TTL ms, counter}.
 */
export const WRITE_CIRCUIT = new LuaScript(`
local stored = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local mode = ARGV[1]
local expected = tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local allowed
if mode == 'cas' then
  allowed = stored == expected
elseif mode == 'push' then
  allowed = stored == expected or stored == 0
  if not allowed then
    local base = redis.call('HGET', KEYS[1], 'b')
    local steps = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
    allowed = base ~= false and tonumber(base) == expected and keep > steps
  end
else
  allowed = stored < keep
end
if not allowed then
  return {0, stored, redis.call('HGET', KEYS[1], 'r'), redis.call('PTTL', KEYS[1]),
    tonumber(redis.call('GET', KEYS[2]) or '0')}
end
local version
if mode == 'restore' then
  version = keep
  if tonumber(redis.call('GET', KEYS[2]) or '0') < keep then redis.call('SET', KEYS[2], keep) end
else
  version = redis.call('INCR', KEYS[2])
end
redis.call('HSET', KEYS[1], 'v', version, 'r', ARGV[4])
if mode == 'push' then
  redis.call('HSET', KEYS[1], 'b', expected, 'l', keep)
else
  redis.call('HDEL', KEYS[1], 'b', 'l')
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PUBLISH', ARGV[6], cjson.encode({t = 'c', k = ARGV[7], v = version, r = ARGV[4],
  p = tonumber(ARGV[5]), o = ARGV[8]}))
return {1, version}
`);

/**
 * Reads circuits and the version counter in one atomic step.
 * KEYS: version counter, then circuit hashes. Returns {counter, {version|nil, JSON|nil, TTL}...}.
 */
export const READ_CIRCUITS = new LuaScript(`
local out = {tonumber(redis.call('GET', KEYS[1]) or '0')}
for i = 2, #KEYS do
  out[i] = {redis.call('HGET', KEYS[i], 'v'), redis.call('HGET', KEYS[i], 'r'),
    redis.call('PTTL', KEYS[i])}
end
return out
`);

/**
 * Starts a resync. Returns the data-set id (created now if Redis has none: a fresh or emptied
 * Redis) and the version counter, raised to at least ARGV[1] so that new versions stay above every
 * version a replica remembers.
 * KEYS: version counter, data-set id. ARGV: highest version seen, id to create.
 */
export const BEGIN_SYNC = new LuaScript(`
local id = redis.call('GET', KEYS[2])
if not id then
  redis.call('SET', KEYS[2], ARGV[2])
  id = ARGV[2]
end
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
if seq < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return {id, seq}
`);

/**
 * Sets a sticky assignment with its TTL and tells the other replicas.
 * KEYS: sticky key. ARGV: assignment JSON, TTL ms, channel, conversation key, origin, only-if-absent.
 * Returns 1, or 0 when only-if-absent found a value.
 */
export const SET_STICKY = new LuaScript(`
if ARGV[6] == '1' then
  if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 0 end
else
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
redis.call('PUBLISH', ARGV[3], cjson.encode({t = 's', k = ARGV[4], a = ARGV[1],
  p = tonumber(ARGV[2]), o = ARGV[5]}))
return 1
`);

/** KEYS: sticky keys. Returns {{JSON|nil, TTL}...}. */
export const READ_STICKIES = new LuaScript(`
local out = {}
for i = 1, #KEYS do
  out[i] = {redis.call('GET', KEYS[i]), redis.call('PTTL', KEYS[i])}
end
return out
`);

/**
 * Puts back token totals after Redis lost its data: each counter is raised to the highest total
 * any replica last saw (usage only grows, apart from released reservations).
 * KEYS: tokens hash. ARGV: field, total, field, total…
 */
export const RESTORE_TOKENS = new LuaScript(`
for i = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if not current or tonumber(current) < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
return 1
`);

export type WriteCircuitReply =
  | { ok: true; version: number }
  | {
      ok: false;
      /** 0 when Redis holds no record. */
      storedVersion: number;
      storedJson: string | null;
      /** Remaining TTL of the stored record (negative when there is none). */
      ttlMs: number;
      /** The version counter at the time of the read. */
      seq: number;
    };

export function parseWriteCircuitReply(reply: unknown): WriteCircuitReply {
  const parts = reply as [number, ...unknown[]];
  if (Number(parts[0]) === 1) return { ok: true, version: Number(parts[1]) };
  return {
    ok: false,
    storedVersion: Number(parts[1]),
    storedJson: typeof parts[2] === 'string' ? parts[2] : null,
    ttlMs: Number(parts[3]),
    seq: Number(parts[4]),
  };
}

/**
 * The token totals with the data-set id, so a periodic refresh also notices a Redis that lost
 * its data while connected (a flush) instead of taking the empty totals for real ones.
 * KEYS: tokens hash, data-set id. Returns {id|nil, {field, total, …}}.
 */
export const READ_TOTALS = new LuaScript(`
return {redis.call('GET', KEYS[2]), redis.call('HGETALL', KEYS[1])}
`);

/**
 * Adds to a token total once: an increment numbered at or below the last one Redis applied from
 * this replica was applied already (a resend after a lost answer), and is skipped.
 * KEYS: tokens hash, the replica's last applied number. ARGV: field, delta, number, TTL ms of
 * the number. Returns the field's total (a string).
 */
export const ADD_TOKENS = new LuaScript(`
if tonumber(ARGV[3]) > tonumber(redis.call('GET', KEYS[2]) or '0') then
  redis.call('HINCRBYFLOAT', KEYS[1], ARGV[1], ARGV[2])
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
end
return redis.call('HGET', KEYS[1], ARGV[1]) or '0'
`);
