import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { StubbedMachine } from '../../support/stubbed-machine.js';

/**
 * `npm test`'s pretest for the browser test, on a machine stubbed through PATH and CHROMIUM_PATH:
 * fake `id` and `apt-get`, and a chromium path inside the stub directory, so this machine's real
 * chromium is never seen and never touched.
 */
let host: StubbedMachine;
let chromium: string;

beforeEach(() => {
  host = new StubbedMachine('.ci/ensure-chromium', 'usr-bin-chromium', (path) => ({
    CHROMIUM_PATH: path,
  }));
  chromium = host.installs;
});
afterEach(() => host.remove());

const stub = (path: string, body: string) => host.stub(path, body);
const machine = (uid: number, apt?: 'installs' | 'fails') => host.setUp(uid, apt);
const run = () => host.run();

describe('.ci/ensure-chromium (npm pretest)', () => {
  it('does nothing when chromium is there', () => {
    machine(0, 'installs');
    stub(chromium, 'exit 0');
    expect(run()).toMatchObject({ status: 0, lines: [], stdout: '', aptCalls: [] });
  });

  it('stops with one line naming what to install when not root', () => {
    machine(1000, 'installs');
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/apt-get install -y chromium/);
    expect(result.aptCalls).toEqual([]);
  });

  it('stops with one line when root has no apt-get', () => {
    machine(0);
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/needs .*chromium.*install it/);
  });

  it('installs Debian chromium with apt-get as root', () => {
    machine(0, 'installs');
    const result = run();
    expect(result.status).toBe(0);
    expect(result.aptCalls).toEqual(['update -qq', 'install -y -qq chromium']);
    expect(existsSync(chromium)).toBe(true);
    expect(result.lines).toEqual([
      "chromium is missing: installing it with apt-get (the status page's browser test runs it headless)",
    ]);
  });

  it('fails naming what to install when apt-get cannot install it', () => {
    machine(0, 'fails');
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.aptCalls).toEqual(['update -qq', 'install -y -qq chromium']);
    expect(result.lines.at(-1)).toMatch(/did not provide it: install chromium/);
  });
});
