import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The benchmark's gateway configuration, written to a temporary YAML file: provider `up` (the
 * fake upstream) for `up/<model-id>`, and router `auto`, the embedded decision model over two
 * failover groups of two upstream models each.
 */
const model = (name: string) => `  ${name}: { provider: up, model: ${name} }`;
const route = (name: string, description: string, example: string, models: string[]) =>
  [
    `      - name: ${name}`,
    `        description: '${description}'`,
    `        examples: ['${example}']`,
    `        models: [${models.join(', ')}]`,
    '        strategy: failover',
  ].join('\n');

export function writeGatewayConfig(upstream: string): string {
  const yaml = [
    'providers:',
    `  up: { type: openai, baseURL: '${upstream}/v1', apiKey: sk-bench-upstream-key }`,
    'models:',
    ...['simple-a', 'simple-b', 'complex-a', 'complex-b'].map(model),
    'routers:',
    '  auto:',
    '    decision: { type: embedded }',
    '    defaultRoute: simple',
    '    routes:',
    route(
      'simple',
      'Quick everyday questions: facts, definitions, greetings.',
      'What is the capital of Italy?',
      ['simple-a', 'simple-b'],
    ),
    route(
      'complex',
      'Hard problems: proofs, code, system design.',
      'Prove that there are infinitely many primes.',
      ['complex-a', 'complex-b'],
    ),
    'defaultRouter: auto',
    '',
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'gateway-bench-')), 'model-router.yaml');
  writeFileSync(file, yaml);
  return file;
}
