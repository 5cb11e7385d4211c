import { startRedisSentinelGroup } from '../../support/redis-topologies.js';
import { useTopologyStores } from './redis-fixtures.js';
import { describeClientStore, describeFailover } from './failover-suite.js';
import { describeSharedState } from './shared-state-suite.js';

const env = useTopologyStores(() => startRedisSentinelGroup());

describeSharedState('Sentinel: master, replica and 3 sentinels', env);
describeFailover('sentinel', env);
describeClientStore('sentinel', env);
