import { describe, expect, it } from '@jest/globals';
import { startupBanner } from '../../../apps/gateway/src/banner.js';

const info = {
  url: 'http://127.0.0.1:3000',
  routers: ['auto'],
  models: ['demo-mini'],
  providers: [],
  disabledProviders: [],
  source: 'config/model-router.yaml',
};

/** The banner's curl commands, each joined from its continued lines. */
const curls = (banner: string) =>
  banner
    .replaceAll('\\\n', ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('curl '));

describe('the start-up banner', () => {
  it('without auth, gives commands that need no key', () => {
    const commands = curls(startupBanner(info));

    expect(commands).toHaveLength(5);
    for (const command of commands) expect(command).not.toContain('authorization');
  });

  it('shows where the status page is', () => {
    expect(startupBanner(info)).toContain('Status page: http://127.0.0.1:3000/status in a browser');
  });

  it('with auth, gives every command a key, so copying one does not end in a 401', () => {
    const banner = startupBanner({ ...info, auth: true });
    const commands = curls(banner);

    expect(commands).toHaveLength(5);
    for (const command of commands) expect(command).toMatch(/-H "authorization: Bearer \$\w+"/);
    // /metrics is for admin keys
    expect(commands.find((command) => command.includes('/metrics'))).toContain('$ADMIN_KEY');
    expect(banner).toContain('$KEY: a key of auth.keys');
  });
});

describe('the start-up banner for providers without a key', () => {
  const line = (banner: string) => banner.split('\n').find((text) => text.includes('no key for'));

  it('names the variables the shipped configuration reads the keys from', () => {
    const banner = startupBanner({ ...info, disabledProviders: ['openai', 'anthropic'] });
    expect(line(banner)).toBe(
      '  no key for:    openai, anthropic (set OPENAI_API_KEY or ANTHROPIC_API_KEY and restart to use it)',
    );
  });

  it("points at the configuration's apiKey for a file of one's own", () => {
    const banner = startupBanner({
      ...info,
      source: '/srv/gateway.yaml',
      disabledProviders: ['openai'],
    });
    expect(line(banner)).toContain('give the provider an apiKey in the configuration and restart');
  });

  it('says nothing about keys when every provider has one', () => {
    expect(line(startupBanner(info))).toBeUndefined();
  });
});
