import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Where `npm run build:gateway` puts the app (it imports the package's dist/ by name). */
const OUT_DIR = join(ROOT, 'apps', 'gateway', 'dist');

/** Builds like `npm start` does, then runs the entry point with no environment but PATH. */
async function buildAndStart(): Promise<{
  child: ChildProcess;
  url: string;
  output: () => string;
}> {
  await rm(OUT_DIR, { recursive: true, force: true });
  const tsc = (project: string) =>
    promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project],
      {
        cwd: ROOT,
      },
    );
  // what `npm start` runs: the package, then the app on the package's public entries
  await tsc('tsconfig.build.json')
    .then(() => tsc('apps/gateway/tsconfig.app.json'))
    .catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`the build failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
  const child = spawn(process.execPath, [join(OUT_DIR, 'main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`the gateway exited (${code ?? signal}) before listening:\n${output}`)),
    );
  });
  return { child, url, output: () => output };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('npm start (build, then node main.js)', () => {
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  });

  it('starts offline with no environment, answers, reports health and stops on SIGTERM', async () => {
    const started = await buildAndStart();
    child = started.child;

    expect(started.output()).toContain(`curl -s ${started.url}/v1/chat/completions`);

    const chat = await fetch(`${started.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'auto',
        messages: [{ role: 'user', content: 'What is the capital of France?' }],
      }),
    });
    const completion = (await chat.json()) as {
      model: string;
      choices: { message: { content: string } }[];
      usage: { total_tokens: number };
    };
    expect(chat.status).toBe(200);
    expect(chat.headers.get('x-model-router-route')).toBe('simple');
    expect(completion.model).toBe('demo-mini');
    expect(completion.choices[0]!.message.content).toContain("router 'auto', route 'simple'");
    expect(completion.usage.total_tokens).toBeGreaterThan(0);

    const health = await fetch(`${started.url}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');

    // a second gateway on the same port, or on a PORT that is no port, stops saying what to do
    const failedStart = async (port: string) => {
      const second = spawn(process.execPath, [join(OUT_DIR, 'main.js')], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', PORT: port },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      second.stderr!.on('data', (data: Buffer) => (errors += data.toString()));
      expect((await exited(second)).code).toBe(1);
      return errors;
    };
    const taken = await failedStart(new URL(started.url).port);
    expect(taken).toContain('EADDRINUSE');
    expect(taken).toContain('PORT=3001 npm start');
    expect(await failedStart('abc')).toContain(
      "PORT must be a port number from 0 to 65535 (0: any free one); got 'abc'",
    );

    child.kill('SIGTERM');
    const { code, signal } = await exited(child);
    // Nest closes the app on the signal, then re-raises it
    expect(code === 0 || signal === 'SIGTERM').toBe(true);
    expect(started.output()).not.toMatch(/\bERROR\b|Unhandled|TypeError/);
  }, 120_000);
});
