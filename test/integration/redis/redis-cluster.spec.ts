import { describe, expect, it } from '@jest/globals';
import { Cluster, type Redis } from 'ioredis';
import { closeConnection } from '../../../src/redis/redis-connections.js';
import { startRedisCluster } from '../../support/redis-topologies.js';
import { useTopologyStores, waitFor } from './redis-fixtures.js';
import { describeClientStore, describeFailover } from './failover-suite.js';
import { describeSharedState } from './shared-state-suite.js';

const env = useTopologyStores(() => startRedisCluster(3));

describeSharedState('Redis Cluster, 3 masters and 3 replicas', env);
describeFailover('cluster', env);
describeClientStore('cluster', env);

describe('closing a cluster connection', () => {
  it('while a periodic slots refresh is in flight leaves no refresh armed', async () => {
    const cluster = new Cluster(env.topology.connection.cluster!.nodes, {
      slotsRefreshInterval: 20,
    });
    cluster.on('error', () => undefined);
    // ioredis 6's own state: whether a refresh is in flight, and the next periodic round
    const state = cluster as unknown as { isRefreshing: boolean; slotsTimer: unknown };
    try {
      await cluster.ping();
      await waitFor('a periodic slots refresh in flight', () => state.isRefreshing);
      await closeConnection(cluster as unknown as Redis);
      await waitFor('the refresh to answer', () => !state.isRefreshing);
      // armed again, it would refresh an empty pool every 20 ms for ever, keeping the process up
      expect(state.slotsTimer ?? null).toBeNull();
    } finally {
      clearTimeout(state.slotsTimer as ReturnType<typeof setTimeout>);
    }
  });
});
