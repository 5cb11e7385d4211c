import type { ModelRouterMetricsOptions } from 'nest-model-router/metrics';
import type { GatewayConfig } from '../config/gateway-config.js';
import { isFailoverListName } from './failover-list-name.js';

/** The label of every per-request `models` failover list. */
export const FAILOVER_LIST_LABEL = 'failover';

/**
 * The gateway's metrics `labelFor`: clients choose the names of ad-hoc targets (`provider/<any
 * model id>`, `models` lists named `failover(a,b,…)`), so each would mint new series. They are
 * folded into `<provider>/*` and `failover`; the members of a list keep their own labels in the
 * failure and retry counters (configured names as they are, provider models folded). Configured
 * routers and models keep their names, even one that looks like an ad-hoc name; any other name
 * comes from the configuration too (routes, group members) and is kept.
 */
export function gatewayMetricLabels(
  config: GatewayConfig,
): NonNullable<ModelRouterMetricsOptions['labelFor']> {
  const configured = new Set([
    ...Object.keys(config.module.routers),
    ...Object.keys(config.module.models ?? {}),
  ]);
  const providers = new Set(Object.keys(config.providers ?? {}));
  return (name) => {
    if (configured.has(name)) return name;
    if (isFailoverListName(name)) return FAILOVER_LIST_LABEL;
    const slash = name.indexOf('/');
    const provider = slash > 0 ? name.slice(0, slash) : undefined;
    if (provider !== undefined && providers.has(provider)) return `${provider}/*`;
    return name;
  };
}
