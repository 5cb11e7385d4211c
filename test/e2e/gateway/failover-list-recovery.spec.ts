import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadGatewayConfig } from '../../../apps/gateway/src/config/load-gateway-config.js';
import type { FakeProvider } from '../../../src/testing/index.js';
import {
  ManualClock,
  postJson,
  startGatewayOnFake,
  user,
  type RunningGateway,
} from './gateway-harness.js';

const FAKE_KEY = 'fake-key-for-failover-lists';
const PRIMARY = 'gpt-primary';
const BACKUP = 'gpt-backup';

/**
 * Issue 12, point 6: with the defaults, a primary of a `models: [...]` list that was down for
 * 60 s and then healthy did not get its traffic back within the next minute.
 */
describe('a per-request failover list with the default breaker', () => {
  const clock = new ManualClock();
  let fake: FakeProvider;
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ fake, gateway } = await startGatewayOnFake(FAKE_KEY, {
      config: 'test/e2e/gateway/fixtures/failover-lists.yaml',
      clock: clock.read,
    }));
  });

  afterAll(async () => {
    await gateway.close();
    await fake.close();
  });

  async function servedBy(): Promise<string> {
    const response = await postJson(`${gateway.url}/v1/chat/completions`, {
      model: `fake/${PRIMARY}`,
      models: [`fake/${BACKUP}`],
      messages: [user('hi')],
    });
    expect(response.status).toBe(200);
    return response.headers.get('x-model-router-model') ?? '';
  }

  it('probes a primary that stays down once per cooldown, and gives it its traffic back within 30 s', async () => {
    fake.setFault(PRIMARY, 'fault-503');
    const outageStart = clock.now;
    // a request every second through a 60 s outage: every one answered by the backup
    const cooldownsEnded: number[] = [];
    let before = fake.requests.count(PRIMARY);
    for (; clock.now < outageStart + 60_000; clock.advance(1000)) {
      expect(await servedBy()).toBe(`fake/${BACKUP}`);
      const now = fake.requests.count(PRIMARY);
      if (now > before) cooldownsEnded.push(clock.now - outageStart);
      before = now;
    }
    // the first failure (3 attempts, the model's retries), then one request per probe:
    // cooldowns of 10, 20, then 30 s (the cap)
    expect(cooldownsEnded).toEqual([0, 10_000, 30_000]);
    expect(fake.requests.count(PRIMARY)).toBe(3 + 1 + 1);

    fake.setFault(PRIMARY, undefined);
    const recovered = clock.now;
    while ((await servedBy()) !== `fake/${PRIMARY}`) {
      clock.advance(1000);
      expect(clock.now - recovered).toBeLessThanOrEqual(30_000);
    }
    expect(await servedBy()).toBe(`fake/${PRIMARY}`);
  });

  it('takes its breaker from failoverLists in the YAML', async () => {
    const config = await loadGatewayConfig('test/e2e/gateway/fixtures/failover-lists.yaml', {
      env: {
        FAKE_BASE_URL: fake.openaiBaseURL,
        FAKE_API_KEY: FAKE_KEY,
      },
    });
    expect(config.adHocFailover).toEqual({
      halfOpenProbes: 1,
      cooldownMultiplier: 2,
      cooldownMs: 10_000,
      maxCooldownMs: 30_000,
    });
  });
});
