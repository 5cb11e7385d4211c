/** What `npm start` prints: where to send requests, with commands to copy. */
export function startupBanner(info: {
  url: string;
  routers: string[];
  models: string[];
  providers: string[];
  disabledProviders: string[];
  source: string;
  /** Whether requests need one of the configuration's keys. */
  auth?: boolean;
  /** Extra lines, e.g. which configuration routes to real providers. */
  hints?: string[];
}): string {
  const router = info.routers[0] ?? 'default';
  const lines = [
    '',
    `nest-model-router gateway listening on ${info.url}`,
    `  configuration: ${info.source}`,
    `  routers:       ${info.routers.join(', ') || '(none)'}`,
    `  models:        ${info.models.join(', ') || '(none)'}`,
  ];
  if (info.providers.length) {
    lines.push(`  providers:     ${info.providers.map((p) => `${p}/<model-id>`).join(', ')}`);
  }
  if (info.disabledProviders.length) {
    lines.push(
      `  no key for:    ${info.disabledProviders.join(', ')} (${keyAdvice(info.disabledProviders, info.source)})`,
    );
  }
  // with auth, the commands carry a key, so copying one does not end in a 401
  const key = info.auth ? ` -H "authorization: Bearer $KEY"` : '';
  const adminKey = info.auth ? ` -H "authorization: Bearer $ADMIN_KEY"` : '';
  lines.push(
    '',
    info.auth ? 'Try ($KEY: a key of auth.keys, $ADMIN_KEY: one of auth.adminKeys):' : 'Try:',
    `  curl -s ${info.url}/v1/chat/completions${key} -H 'content-type: application/json' \\`,
    `    -d '{"model":"${router}","messages":[{"role":"user","content":"What is the capital of France?"}]}'`,
    '',
    `  curl -N ${info.url}/v1/chat/completions${key} -H 'content-type: application/json' \\`,
    `    -d '{"model":"${router}","stream":true,"messages":[{"role":"user","content":"Design a fault-tolerant job queue"}]}'`,
    '',
    `  curl -s ${info.url}/v1/models${key}`,
    `  curl -s ${info.url}/health${adminKey}`,
    `  curl -s ${info.url}/metrics${adminKey}`,
    '',
    `Status page: ${info.url}/status in a browser (circuits, latency, spend, failovers${info.auth ? '; it asks for an admin key' : ''}).`,
    `OpenAI SDKs: baseURL ${info.url}/v1 (${info.auth ? 'apiKey: one of auth.keys' : 'any apiKey'}). Ctrl+C stops the gateway.`,
    ...(info.hints ?? []),
    '',
  );
  return lines.join('\n');
}

/** The variables the shipped configurations (`config/model-router*.yaml`) read providers' keys from. */
const SHIPPED_KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

/**
 * How to enable providers that have no key: the variable to set when the file is one of the
 * shipped ones (a newcomer's case: "set its API key" left them looking for where), else the
 * configuration's `apiKey`.
 */
function keyAdvice(disabled: readonly string[], source: string): string {
  const shipped = /(^|\/)config\/model-router(\.\w+)?\.yaml$/.test(source);
  const variables = disabled.map((name) => SHIPPED_KEY_VARIABLES[name]);
  if (shipped && variables.every((variable) => variable !== undefined)) {
    return `set ${variables.join(' or ')} and restart to use it`;
  }
  return 'give the provider an apiKey in the configuration and restart to use it';
}

/** What to try next with the keys present in the environment (names only, never values). */
export function providerHints(
  env: Readonly<Record<string, string | undefined>>,
  source: string,
): string[] {
  if (!source.endsWith('config/model-router.yaml')) return [];
  const hints: string[] = [];
  if (env.OPENAI_API_KEY) {
    hints.push(
      'OPENAI_API_KEY is set: address models as openai/<model-id>, or route between real models with',
      '  MODEL_ROUTER_CONFIG=config/model-router.openai.yaml npm start',
    );
  }
  if (env.ANTHROPIC_API_KEY) {
    hints.push(
      'ANTHROPIC_API_KEY is set: address models as anthropic/<model-id>, or route between Claude models with',
      '  MODEL_ROUTER_CONFIG=config/model-router.anthropic.yaml npm start',
    );
  }
  return hints;
}
