import { registerAs } from '@nestjs/config';
import {
  loadModelRouterConfig,
  type LoadModelRouterConfigOptions,
} from '../../config/load-model-router-config.js';
import type { ModelRouterConfig } from '../../config/model-router-config.js';

/** The namespace under which ConfigService holds the validated configuration. */
export const MODEL_ROUTER_CONFIG_NAMESPACE = 'modelRouter';

/**
 * A `registerAs` factory for `@nestjs/config`: reads the YAML file (`MODEL_ROUTER_CONFIG`, else
 * `config/model-router.yaml`) when ConfigModule loads, so an invalid file stops the start with
 * every problem listed. Inject `modelRouterConfig.KEY` and pass the value to
 * `buildModelRouterOptions` in `ModelRouterModule.forRootAsync`.
 */
export const modelRouterConfig = registerAs(MODEL_ROUTER_CONFIG_NAMESPACE, (): ModelRouterConfig =>
  loadModelRouterConfig(),
);

/** The same factory for another file or environment (tests, several configurations). */
export function createModelRouterConfig(
  path: string,
  options: LoadModelRouterConfigOptions = {},
  namespace = MODEL_ROUTER_CONFIG_NAMESPACE,
) {
  return registerAs(namespace, (): ModelRouterConfig => loadModelRouterConfig(path, options));
}
