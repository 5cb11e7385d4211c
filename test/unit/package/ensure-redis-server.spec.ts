import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StubbedMachine } from '../../support/stubbed-machine.js';

/**
 * `npm test`'s first step (`pretest`) on a machine stubbed through PATH: fake `id`, `apt-get` and
 * (when the case has it) `redis-server`, so the real redis-server of this machine is never seen.
 */
let host: StubbedMachine;
let bin: string;

beforeEach(() => {
  host = new StubbedMachine('.ci/ensure-redis-server', 'redis-server');
  bin = host.bin;
});
afterEach(() => host.remove());

const stub = (name: string, body: string) => host.stub(join(bin, name), body);
const machine = (uid: number, apt?: 'installs' | 'fails') => host.setUp(uid, apt);
const run = () => host.run();

describe('.ci/ensure-redis-server (npm pretest)', () => {
  it('does nothing when redis-server is on PATH', () => {
    machine(1000, 'installs');
    stub('redis-server', 'exit 0');
    const result = run();
    expect(result).toMatchObject({ status: 0, lines: [], stdout: '', aptCalls: [] });
  });

  it('stops with one line naming what to install when not root', () => {
    machine(1000, 'installs');
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/needs redis-server/);
    expect(result.lines[0]).toMatch(/apt-get install -y redis-server/);
    expect(result.aptCalls).toEqual([]);
  });

  it('stops with one line when root has no apt-get', () => {
    machine(0);
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(/needs redis-server on PATH.*install it/);
  });

  it('installs it with apt-get as root, as .ci/run did', () => {
    machine(0, 'installs');
    const result = run();
    expect(result.status).toBe(0);
    expect(result.aptCalls).toEqual(['update -qq', 'install -y -qq redis-server']);
    expect(existsSync(join(bin, 'redis-server'))).toBe(true);
    expect(result.lines).toEqual([
      'redis-server is missing: installing it with apt-get (the Redis suites run a real one)',
    ]);
  });

  it('fails naming what to install when apt-get cannot install it', () => {
    machine(0, 'fails');
    const result = run();
    expect(result.status).not.toBe(0);
    expect(result.aptCalls).toEqual(['update -qq', 'install -y -qq redis-server']);
    expect(result.lines.at(-1)).toMatch(/did not provide it: install redis-server/);
  });
});
