import { FakeProvider } from '../../../src/testing/index.js';
import { demoGatewayConfig } from '../../../apps/gateway/src/config/demo-config.js';
import { startGateway, type RunningGateway } from '../gateway/gateway-harness.js';

export const FAKE_KEY = 'sk-fake-client-tests';

export interface ClientGateway {
  gateway: RunningGateway;
  /** The fake OpenAI/Anthropic upstream behind `fake/<model>` and `fake-anthropic/<model>`. */
  fake: FakeProvider;
  close(): Promise<void>;
}

/**
 * The demo configuration (no flaky model) plus the project's FakeProvider as a real HTTP
 * upstream: `fake/<id>` goes through the OpenAI provider, `fake-anthropic/<id>` through the
 * Anthropic one, so the providers' stream assemblers are part of what the clients see.
 */
export async function startClientGateway(
  options: { tokenDelayMs?: number } = {},
): Promise<ClientGateway> {
  const fake = await FakeProvider.start({ apiKey: FAKE_KEY });
  const demo = demoGatewayConfig({ tokenDelayMs: options.tokenDelayMs ?? 0, failEvery: 0 });
  const gateway = await startGateway({
    config: {
      ...demo,
      providers: {
        fake: { type: 'openai', baseURL: fake.openaiBaseURL, apiKey: FAKE_KEY, resilience: false },
        'fake-anthropic': {
          type: 'anthropic',
          baseURL: fake.anthropicBaseURL,
          apiKey: FAKE_KEY,
          resilience: false,
        },
      },
    },
  });
  return {
    gateway,
    fake,
    close: async () => {
      await gateway.close();
      await fake.close();
    },
  };
}
