import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, user, type RunningGateway } from './gateway-harness.js';

/**
 * The learnt bound of plain answers, through the gateway: a model that has shown quick answers
 * and then accepts a request and stays silent is failed over at its learnt bound, not at the
 * 60 s attempt bound. The bound's floor is lowered in the YAML (200 ms, 5 answers) so the test
 * takes a fraction of a second of real time; the defaults are 10 s and 20 answers.
 */
describe('gateway: a plain answer that never comes, from a model that has shown its pace', () => {
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fake = await FakeProvider.start();
    const learnt = '{ adaptive: { answer: { floorMs: 200, minSamples: 5 } } }';
    const yaml = [
      'providers:',
      `  fake: { type: openai, baseURL: '${fake.openaiBaseURL}', apiKey: sk-fake-0 }`,
      'models:',
      `  quick: { provider: fake, model: pd-quick, resilience: ${learnt} }`,
      '  backup: { provider: fake, model: pd-backup }',
      'routers:',
      '  main: { models: [quick, backup], strategy: failover }',
      'defaultRouter: main',
      '',
    ].join('\n');
    const config = join(mkdtempSync(join(tmpdir(), 'plain-deadline-')), 'model-router.yaml');
    writeFileSync(config, yaml);
    gateway = await startGateway({ env: {}, config });
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  const ask = () =>
    gateway.client.chat.completions
      .create({ model: 'main', messages: [user('hi')] })
      .withResponse();

  it('is answered by the next model once the silent one passes its learnt bound', async () => {
    for (let i = 0; i < 5; i += 1) expect((await ask()).data.model).toBe('quick');
    fake.setFault('pd-quick', 'hang');
    const { data, response } = await ask();
    expect(data.model).toBe('backup');
    expect(response.headers.get('x-model-router-model')).toBe('backup');
    // tried once (a timeout is not retried on the same model), then failed over
    expect(fake.requests.count('pd-quick')).toBe(6);
    const status = (await (await fetch(`${gateway.url}/router/status`)).json()) as {
      routers: { routes: { models: { name: string; lastError?: { type: string } }[] }[] }[];
    };
    const quick = status.routers
      .flatMap((router) => router.routes.flatMap((route) => route.models))
      .find((model) => model.name === 'quick');
    // a timeout, counted against the model
    expect(quick?.lastError?.type).toBe('ModelTimeoutException');
  });
});
