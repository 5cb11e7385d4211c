import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm test`'s first step (`pretest`) on a machine stubbed through PATH: a directory holding only
 * fake `id`, `apt-get` and (when the case has it) `redis-server`, so the real redis-server of this
 * machine is never seen and never touched.
 */
const SCRIPT = resolve('.ci/ensure-redis-server');
const SH = '/bin/sh';

let bin: string;

beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'ensure-redis-'));
});
afterEach(() => {
  rmSync(bin, { recursive: true, force: true });
});

function stub(name: string, body: string): void {
  const path = join(bin, name);
  writeFileSync(path, `#!${SH}\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A machine whose `id -u` prints `uid`; `apt-get` is there when `apt` says what it does. */
function machine(uid: number, apt?: 'installs' | 'fails'): void {
  stub('id', `echo ${uid}`);
  if (apt === undefined) return;
  // records each call; `install` puts an executable redis-server on PATH, as the package does
  // (chmod by its full path: the stub PATH has nothing but these stubs)
  const redis = join(bin, 'redis-server');
  const install =
    apt === 'installs'
      ? `printf '#!${SH}\\nexit 0\\n' > "${redis}"; /bin/chmod 755 "${redis}"`
      : 'exit 100';
  stub(
    'apt-get',
    `echo "$*" >> "${join(bin, 'apt.log')}"\ncase "$*" in *install*) ${install} ;; esac`,
  );
}

function run() {
  const result = spawnSync(SH, [SCRIPT], { env: { PATH: bin }, encoding: 'utf8' });
  return {
    status: result.status,
    lines: result.stderr.split('\n').filter((line) => line !== ''),
    stdout: result.stdout,
    aptCalls: existsSync(join(bin, 'apt.log'))
      ? readFileSync(join(bin, 'apt.log'), 'utf8').trim().split('\n')
      : [],
  };
}

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
