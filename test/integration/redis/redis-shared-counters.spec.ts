import { describeSharedState } from './shared-state-suite.js';
import { useRedisStores } from './redis-fixtures.js';

describeSharedState('one node', useRedisStores());
