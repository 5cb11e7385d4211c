import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Registry } from 'prom-client';
import { FakeProvider } from '../../../src/testing/index.js';
import { postJson, startGateway, type RunningGateway } from './gateway-harness.js';

// The status page in a real browser: Debian's chromium (installed by .ci/ensure-test-tools),
// driven headless by playwright-core, against the gateway on the fake provider.
const CHROMIUM = '/usr/bin/chromium';
const FIXTURE = new URL('./fixtures/status.yaml', import.meta.url).pathname;
const AUTH_FIXTURE = new URL('./fixtures/status-auth.yaml', import.meta.url).pathname;
const ADMIN_KEY = 'sk-status-admin-7e6d5c4b3a';
/** Where the screenshots go (gitignored). */
const OUTPUT = new URL('../../../test-output/status-page/', import.meta.url).pathname;
/** What the issue asks of the page: a broken model shows within 5 s, without a reload. */
const LIVE_MS = 5000;

const spentText = (page: Page) => page.locator('[data-budget="main-hourly"] .spent').textContent();

describe('the status page in headless Chromium', () => {
  let browser: Browser;
  let fake: FakeProvider;
  let gateway: RunningGateway;
  let secured: RunningGateway;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fake = await FakeProvider.start();
    const env = {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_API_KEY: 'fake-upstream-key',
      CLIENT_KEY: 'sk-status-client-5c4b3a2918',
      ADMIN_KEY,
    };
    gateway = await startGateway({ config: FIXTURE, env, metricsRegistry: new Registry() });
    secured = await startGateway({ config: AUTH_FIXTURE, env, metricsRegistry: new Registry() });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await secured?.close();
    await gateway?.close();
    await fake?.close();
  });

  /** A phone-sized tab that records console errors (a CSP violation is one). */
  async function phoneTab(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  it('shows a broken model open with its reason, and a budget growing, without a reload', async () => {
    const page = await phoneTab();
    await page.goto(`${gateway.url}/status`);
    const primary = page.locator('[data-router="main"] [data-model="primary"]');
    await primary.and(page.locator('[data-state="closed"]')).waitFor();
    expect(await primary.textContent()).toContain('CLOSED');
    const spentBefore = await spentText(page);
    expect(spentBefore).toContain('$0.000000 of $5');

    fake.setFault('gpt-primary', 'fault-503');
    expect((await postJson(`${gateway.url}/v1/chat/completions`, ask())).status).toBe(200);

    await page
      .locator('[data-router="main"] [data-model="primary"][data-state="open"]')
      .waitFor({ timeout: LIVE_MS });
    const row = (await primary.textContent()) ?? '';
    // the state in words, and why
    expect(row).toContain('OPEN');
    expect(row).toMatch(/Reason: until .*next probe then/);
    expect(row).toMatch(/last error .*503/);
    await page
      .locator('[data-budget="main-hourly"] .spent', { hasNotText: spentBefore! })
      .waitFor({ timeout: LIVE_MS });
    expect(await spentText(page)).not.toContain('$0.000000 of');
    expect(await page.locator('#failovers').textContent()).toContain('primary → backup');
    // nothing is wider than the phone
    const overflow = await page.evaluate(
      () => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
    );
    expect(overflow).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUTPUT, 'status-page.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with auth, asks for an admin key and keeps it in the tab only', async () => {
    const page = await phoneTab();
    await page.goto(`${secured.url}/status`);
    await page.locator('#login').waitFor();
    await page.fill('#key', ADMIN_KEY);
    await page.click('#login button');
    await page.locator('[data-router="main"] [data-model="primary"]').waitFor();
    expect(await page.locator('#login').isHidden()).toBe(true);
    const storage = await page.evaluate(() => {
      const { sessionStorage, localStorage, document } = globalThis as unknown as BrowserGlobals;
      return {
        session: sessionStorage.length,
        local: localStorage.length,
        cookies: document.cookie,
      };
    });
    expect(storage).toEqual({ session: 1, local: 0, cookies: '' });
    await page.screenshot({ path: join(OUTPUT, 'status-page-auth.png'), fullPage: true });
    // the 401s of the keyless first look are the page asking; nothing else went wrong
    expect(problems.filter((text) => !/401/.test(text))).toEqual([]);
    await page.close();
  });
});

function ask() {
  return { model: 'main', messages: [{ role: 'user', content: 'hello' }] };
}

/**
 * The page's globals, for functions that run in the browser (this project's TypeScript has no DOM
 * types; a function, unlike a string, runs without `unsafe-eval` under the page's CSP).
 */
interface BrowserGlobals {
  document: { documentElement: { scrollWidth: number }; cookie: string };
  sessionStorage: { length: number };
  localStorage: { length: number };
}
