import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SH = '/bin/sh';

/**
 * A machine stubbed through PATH for the `.ci/ensure-*` pretest scripts: a directory holding only
 * fake `id`, `apt-get` and what a case puts there, so this machine's real tools are never seen and
 * never touched. `apt-get install` creates `installs` (an executable path) when it succeeds.
 */
export class StubbedMachine {
  readonly bin = mkdtempSync(join(tmpdir(), 'stubbed-machine-'));
  /** What a successful `apt-get install` creates, inside `bin`. */
  readonly installs: string;
  private readonly script: string;
  private readonly env: Record<string, string>;

  constructor(
    script: string,
    installs: string,
    /** Extra environment for the script, given the path `installs` names. */
    env: (installed: string) => Record<string, string> = () => ({}),
  ) {
    this.script = resolve(script);
    this.installs = join(this.bin, installs);
    this.env = env(this.installs);
  }

  stub(path: string, body: string): void {
    writeFileSync(path, `#!${SH}\n${body}\n`);
    chmodSync(path, 0o755);
  }

  /** `id -u` prints `uid`; `apt-get` is there when `apt` says what it does. */
  setUp(uid: number, apt?: 'installs' | 'fails'): void {
    this.stub(join(this.bin, 'id'), `echo ${uid}`);
    if (apt === undefined) return;
    // chmod by its full path: the stub PATH has nothing but these stubs
    const install =
      apt === 'installs'
        ? `printf '#!${SH}\\nexit 0\\n' > "${this.installs}"; /bin/chmod 755 "${this.installs}"`
        : 'exit 100';
    this.stub(
      join(this.bin, 'apt-get'),
      `echo "$*" >> "${join(this.bin, 'apt.log')}"\ncase "$*" in *install*) ${install} ;; esac`,
    );
  }

  run() {
    const result = spawnSync(SH, [this.script], {
      env: { PATH: this.bin, ...this.env },
      encoding: 'utf8',
    });
    const log = join(this.bin, 'apt.log');
    return {
      status: result.status,
      lines: result.stderr.split('\n').filter((line) => line !== ''),
      stdout: result.stdout,
      aptCalls: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [],
    };
  }

  remove(): void {
    rmSync(this.bin, { recursive: true, force: true });
  }
}
