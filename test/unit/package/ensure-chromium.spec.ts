import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm test`'s pretest for the browser test, on a machine stubbed through PATH and CHROMIUM_PATH:
 * fake `id` and `apt-get`, and a chromium path inside the stub directory, so this machine's real
 * chromium is never seen and never touched.
 */
const SCRIPT = resolve('.ci/ensure-chromium');
const SH = '/bin/sh';

let bin: string;
let chromium: string;

beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'ensure-chromium-'));
  chromium = join(bin, 'usr-bin-chromium');
});
afterEach(() => {
  rmSync(bin, { recursive: true, force: true });
});

function stub(path: string, body: string): void {
  writeFileSync(path, `#!${SH}\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A machine whose `id -u` prints `uid`; `apt-get` is there when `apt` says what it does. */
function machine(uid: number, apt?: 'installs' | 'fails'): void {
  stub(join(bin, 'id'), `echo ${uid}`);
  if (apt === undefined) return;
  const install =
    apt === 'installs'
      ? `printf '#!${SH}\\nexit 0\\n' > "${chromium}"; /bin/chmod 755 "${chromium}"`
      : 'exit 100';
  stub(
    join(bin, 'apt-get'),
    `echo "$*" >> "${join(bin, 'apt.log')}"\ncase "$*" in *install*) ${install} ;; esac`,
  );
}

function run() {
  const result = spawnSync(SH, [SCRIPT], {
    env: { PATH: bin, CHROMIUM_PATH: chromium },
    encoding: 'utf8',
  });
  return {
    status: result.status,
    lines: result.stderr.split('\n').filter((line) => line !== ''),
    stdout: result.stdout,
    aptCalls: existsSync(join(bin, 'apt.log'))
      ? readFileSync(join(bin, 'apt.log'), 'utf8').trim().split('\n')
      : [],
  };
}

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
