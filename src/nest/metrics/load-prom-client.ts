import { InvalidConfigurationException } from '../../core/errors/exceptions.js';

export type PromClient = typeof import('prom-client');

/**
 * prom-client is an optional peer dependency: it is loaded only when ModelRouterMetricsModule
 * starts, so an application that never uses metrics does not need it installed.
 */
export async function loadPromClient(
  importer: () => Promise<unknown> = () => import('prom-client'),
): Promise<PromClient> {
  let loaded: unknown;
  try {
    loaded = await importer();
  } catch {
    throw new InvalidConfigurationException(
      'ModelRouterMetricsModule needs the prom-client package (an optional peer dependency); ' +
        'install it with `npm install prom-client@^15`',
    );
  }
  // a CommonJS package seen through import(): the API may sit on `default`
  const candidate = loaded as Partial<PromClient> & { default?: Partial<PromClient> };
  const client = typeof candidate.Counter === 'function' ? candidate : candidate.default;
  if (
    !client ||
    typeof client.Counter !== 'function' ||
    typeof client.Gauge !== 'function' ||
    typeof client.Histogram !== 'function'
  ) {
    throw new InvalidConfigurationException(
      'ModelRouterMetricsModule: the installed prom-client does not export Counter, Gauge and Histogram; install prom-client@^15',
    );
  }
  return client as PromClient;
}
