import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { redisKey, RedisKeySpace } from '../../../src/redis/redis-key-space.js';
import { RedisRouteStateStore } from '../../../src/redis/redis-route-state-store.js';
import { checkRouteStateConfig } from '../../../src/redis/route-state-store-config.js';
import { topologySecrets } from '../../../src/redis/redis-topology.js';

const SECRET = 'pw1-S3cret';
const sentinels = [{ host: '10.0.0.1', port: 26379 }];
const nodes = [{ host: '10.0.0.2', port: 7000 }];

function rejection(config: unknown): Error {
  try {
    checkRouteStateConfig(config);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigurationException);
    return error as Error;
  }
  throw new Error('accepted');
}

describe('state: { type: redis } with a Sentinel group or a Cluster', () => {
  it('accepts each topology', () => {
    const sentinel = { sentinels, name: 'mymaster', password: SECRET, sentinelPassword: SECRET };
    expect(checkRouteStateConfig({ type: 'redis', sentinel })).toMatchObject({ sentinel });
    const cluster = { nodes, password: SECRET, tls: true };
    expect(checkRouteStateConfig({ type: 'redis', cluster, keyPrefix: 'p:' })).toMatchObject({
      cluster,
    });
  });

  it.each([
    [
      { url: 'redis://h', cluster: { nodes } },
      /^state takes exactly one of url, sentinel and cluster; url and cluster/,
    ],
    [{ sentinel: [] }, /^state\.sentinel must be an object/],
    [{ sentinel: { name: 'm' } }, /^state\.sentinel\.sentinels must be a non-empty list/],
    [
      { sentinel: { sentinels, name: '' } },
      /^state\.sentinel\.name must be the master group's name/,
    ],
    [
      { sentinel: { sentinels: [{ host: 'h', port: 0 }], name: 'm' } },
      /^state\.sentinel\.sentinels\[0\]\.port must be a port/,
    ],
    [
      { sentinel: { sentinels: [{ port: 1 }], name: 'm' } },
      /^state\.sentinel\.sentinels\[0\]\.host must be/,
    ],
    [
      { sentinel: { sentinels, name: 'm', pasword: SECRET } },
      /^state\.sentinel\.pasword is not an option/,
    ],
    [
      { sentinel: { sentinels, name: 'm', sentinelPassword: 7 } },
      /^state\.sentinel\.sentinelPassword must be a non-empty string/,
    ],
    [
      { sentinel: { sentinels, name: 'm', db: -1 } },
      /^state\.sentinel\.db must be a database number/,
    ],
    [{ cluster: { nodes: [] } }, /^state\.cluster\.nodes must be a non-empty list/],
    [{ cluster: { nodes, tls: 'yes' } }, /^state\.cluster\.tls must be true or false/],
    [
      { cluster: { nodes: [{ host: 'h', port: 1, password: SECRET }] } },
      /^state\.cluster\.nodes\[0\]\.password is not an option/,
    ],
  ])('rejects %j naming the field, never the password', (topology, message) => {
    const error = rejection({ type: 'redis', ...topology });
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(SECRET);
  });

  it('describes a store by hosts and ports, never a password', () => {
    const stores = [
      new RedisRouteStateStore({
        sentinel: { sentinels, name: 'mymaster', password: SECRET, sentinelPassword: SECRET },
      }),
      new RedisRouteStateStore({ cluster: { nodes, password: SECRET } }),
      new RedisRouteStateStore({
        client: new Cluster(nodes, { lazyConnect: true, redisOptions: { password: SECRET } }),
      }),
      new RedisRouteStateStore({
        client: new Redis({ lazyConnect: true, sentinels, name: 'mymaster', password: SECRET }),
      }),
    ];
    expect(stores.map((store) => store.describe().url)).toEqual([
      'redis-sentinel://10.0.0.1:26379/mymaster',
      'redis-cluster://10.0.0.2:7000',
      'redis-cluster://10.0.0.2:7000',
      'redis-sentinel://10.0.0.1:26379/mymaster',
    ]);
    for (const store of stores) {
      expect(`${inspect(store)} ${JSON.stringify(store)}`).not.toContain(SECRET);
    }
  });

  it('scrubs every password of a topology from messages', () => {
    const cluster = new Cluster(nodes, { lazyConnect: true, redisOptions: { password: SECRET } });
    expect(topologySecrets({ kind: 'client', client: cluster, isCluster: true })).toEqual([SECRET]);
    expect(
      topologySecrets({
        kind: 'sentinel',
        sentinel: { sentinels, name: 'm', password: 'a', sentinelPassword: 'b' },
      }),
    ).toEqual(['a', 'b']);
  });
});

const tag = (key: string) => /\{([^}]*)\}/.exec(key)?.[1];

describe('the key naming rule', () => {
  it("puts one entity's keys in one hash tag and the route-state core in one slot", () => {
    expect(redisKey('mr:', 'cache', 'entry-1', 'meta')).toBe('mr:cache:{entry-1}:meta');
    const keys = new RedisKeySpace('mr:');
    const core = [keys.seq, keys.dataSet, keys.tokens, keys.tokenSeq('r1'), keys.circuit('g/m')];
    expect(new Set(core.map(tag))).toEqual(new Set(['core']));
    const [total, by] = keys.window('rpm:g/m', 60_000);
    expect(tag(total)).toBe(tag(by));
    expect(keys.stickyKeyOf(keys.sticky('conv-1'))).toBe('conv-1');
    expect(keys.circuitKeyOf(keys.circuit('g/m'))).toBe('g/m');
  });
});
