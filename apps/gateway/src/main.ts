import 'reflect-metadata';
import { providerHints, startupBanner } from './banner.js';
import { GATEWAY_CONFIG } from './http/gateway-tokens.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { createGatewayApp } from './create-gateway-app.js';
import { ModelResolver } from './models/model-resolver.js';
import { ProviderModels } from './models/provider-models.js';

/**
 * `npm start`: the demo gateway on PORT (default 3000) and HOST (default 127.0.0.1), configured
 * by MODEL_ROUTER_CONFIG (default config/model-router.yaml).
 */
async function main(): Promise<void> {
  const port = portOf(process.env.PORT);
  const host = process.env.HOST ?? '127.0.0.1';
  const app = await createGatewayApp();
  await app.listen(port, host);
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const entries = app.get(ModelResolver).list();
  const providers = app.get(ProviderModels);
  const config = app.get<GatewayConfig>(GATEWAY_CONFIG);
  process.stdout.write(
    startupBanner({
      url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${actualPort}`,
      routers: entries.filter((e) => e.kind === 'router').map((e) => e.id),
      models: entries.filter((e) => e.kind === 'model').map((e) => e.id),
      providers: providers.providerNames(),
      disabledProviders: [...providers.disabledProviders().keys()],
      source: config.source ?? 'configuration object',
      auth: config.auth !== undefined && config.auth !== 'none',
      hints: providerHints(process.env, config.source ?? ''),
    }),
  );
}

main().catch((error: unknown) => {
  // configuration errors list every problem; nothing here contains a key
  console.error(
    error instanceof Error ? `${error.name}: ${error.message}${hintFor(error)}` : error,
  );
  process.exit(1);
});

/** PORT as a number, or a start that stops saying what PORT takes (`abc` made Node say NaN). */
function portOf(value = '3000'): number {
  const port = Number(value);
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a port number from 0 to 65535 (0: any free one); got '${value}'`);
  }
  return port;
}

/** What to do about a start that failed for a reason of the machine, not of the configuration. */
function hintFor(error: Error): string {
  const { code } = error as Error & { code?: unknown };
  if (code === 'EADDRINUSE') {
    return '\nAnother process listens on that port: stop it, or choose another, e.g. PORT=3001 npm start';
  }
  return '';
}
