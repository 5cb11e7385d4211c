import { startRedisCluster } from '../../support/redis-topologies.js';
import { useTopologyStores } from './redis-fixtures.js';
import { describeClientStore, describeFailover } from './failover-suite.js';
import { describeSharedState } from './shared-state-suite.js';

const env = useTopologyStores(() => startRedisCluster(3));

describeSharedState('Redis Cluster, 3 masters and 3 replicas', env);
describeFailover('cluster', env);
describeClientStore('cluster', env);
