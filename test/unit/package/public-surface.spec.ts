// The package as a consumer installs it: built with the project's tsc into a scratch
// node_modules/nest-model-router (package.json + dist), beside links to the repository's installed
// packages minus the ones a consumer may not have. Nothing here reads src/: it checks what ships.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};
const PEERS = Object.keys(pkg.peerDependencies);
const MAX_ROOT_NAMES = 120;
/** The AI SDK and its providers: optional, the adapters import only types of @ai-sdk/provider. */
const AI_SDK = ['ai', '@ai-sdk/provider', '@ai-sdk/openai-compatible', '@ai-sdk/openai'];

let scratch: string;

/** A consumer's folder whose node_modules has the built package and every installed package but `without`. */
function consumer(name: string, without: readonly string[]): string {
  const dir = join(scratch, name);
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const link = (from: string, to: string, id: string) => {
    if (id === 'nest-model-router' || id.startsWith('.') || without.includes(id)) return;
    symlinkSync(from, to);
  };
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('@')) {
      mkdirSync(join(modules, entry));
      for (const scoped of readdirSync(join(ROOT, 'node_modules', entry))) {
        const id = `${entry}/${scoped}`;
        link(join(ROOT, 'node_modules', id), join(modules, id), id);
      }
    } else {
      link(join(ROOT, 'node_modules', entry), join(modules, entry), entry);
    }
  }
  // a copy, not a link: its imports must resolve from the consumer's node_modules
  cpSync(join(scratch, 'nest-model-router'), join(modules, 'nest-model-router'), {
    recursive: true,
  });
  return dir;
}

function runModule(cwd: string, code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd,
    encoding: 'utf8',
  });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'nmr-surface-'));
  const built = join(scratch, 'nest-model-router');
  execFileSync(process.execPath, [
    TSC,
    '-p',
    join(ROOT, 'tsconfig.build.json'),
    '--outDir',
    join(built, 'dist'),
    '--sourceMap',
    'false',
  ]);
  copyFileSync(join(ROOT, 'package.json'), join(built, 'package.json'));
}, 120_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the published surface', () => {
  it('nest-model-router/core runs with no peer dependency installed', () => {
    const dir = consumer('no-peers', PEERS);
    expect(() => runModule(dir, "await import('@nestjs/common')")).toThrow(/Cannot find package/);
    const out = runModule(
      dir,
      `
      import { ChatModelRoutingResult, RoutingChatModel, userMessage } from 'nest-model-router/core';
      const model = (text) => ({ chat: async () => ({ aiMessage: { role: 'assistant', text } }) });
      const router = new RoutingChatModel({
        routes: [{ name: 'a', model: model('from a') }, { name: 'b', model: model('from b') }],
        router: () => ChatModelRoutingResult.route('b'),
        defaultRoute: 'a',
      });
      const response = await router.chat({ messages: [userMessage('hi')] });
      console.log(JSON.stringify(response.aiMessage));
      `,
    );
    expect(JSON.parse(out)).toEqual({
      role: 'assistant',
      text: 'from b',
      attributes: { chat_model_route: 'b' },
    });
  });

  it(`the root exports at most ${MAX_ROOT_NAMES} runtime names, and loads without ioredis or prom-client`, () => {
    const dir = consumer('no-optional-peers', ['ioredis', 'prom-client', ...AI_SDK]);
    const names = JSON.parse(
      runModule(
        dir,
        "import 'reflect-metadata'; console.log(JSON.stringify(Object.keys(await import('nest-model-router'))))",
      ),
    ) as string[];
    expect(names.length).toBeLessThanOrEqual(MAX_ROOT_NAMES);
    // the contract of DESIGN.md section 2 is among them
    expect(names).toEqual(
      expect.arrayContaining(['RoutingChatModel', 'ModelRouterModule', 'RemoteChatModel']),
    );
  });

  it('nest-model-router/ai-sdk runs without ai or any @ai-sdk package installed', () => {
    const dir = consumer('no-ai-sdk', AI_SDK);
    expect(() => runModule(dir, "await import('@ai-sdk/provider')")).toThrow(/Cannot find package/);
    const out = runModule(
      dir,
      `
      import { AiSdkChatModel, toAiSdkLanguageModel } from 'nest-model-router/ai-sdk';
      const echo = { chat: async () => ({ aiMessage: { role: 'assistant', text: 'hi' } }) };
      const language = toAiSdkLanguageModel(echo);
      const chat = new AiSdkChatModel(language);
      const response = await chat.chat({ messages: [{ role: 'user', content: 'x' }] });
      console.log(JSON.stringify([language.specificationVersion, chat.name, response.aiMessage.text]));
      `,
    );
    expect(JSON.parse(out)).toEqual(['v3', 'nest-model-router/nest-model-router', 'hi']);
  });

  it('a Nest app routes calls without @opentelemetry/api installed (the module skips tracing)', () => {
    const dir = consumer('no-otel', ['@opentelemetry/api']);
    expect(() => runModule(dir, "await import('@opentelemetry/api')")).toThrow(
      /Cannot find package/,
    );
    const out = runModule(
      dir,
      `
      import 'reflect-metadata';
      import { NestFactory } from '@nestjs/core';
      import { ModelRouterModule, RoutingChatService, userMessage } from 'nest-model-router';
      const model = { chat: async () => ({ aiMessage: { role: 'assistant', text: 'no tracing' } }) };
      const app = await NestFactory.createApplicationContext(
        ModelRouterModule.forRoot({ routers: { only: model } }),
        { logger: false },
      );
      const response = await app.get(RoutingChatService).chat({ messages: [userMessage('hi')] });
      await app.close();
      console.log(response.aiMessage.text);
      `,
    );
    expect(out.trim()).toBe('no tracing');
  });

  it('the root, /redis and /ai-sdk type-check without ioredis, prom-client or the AI SDK under skipLibCheck: false', () => {
    const dir = consumer('typings', ['ioredis', 'prom-client', ...AI_SDK]);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'consumer.ts'),
      [
        "import * as api from 'nest-model-router';",
        "import type { ModelRouterModuleOptions, ChatRequest } from 'nest-model-router';",
        "import type { RedisRouteStateStoreOptions } from 'nest-model-router';",
        "import * as redis from 'nest-model-router/redis';",
        "import * as aiSdk from 'nest-model-router/ai-sdk';",
        'const request: ChatRequest = { messages: [api.userMessage("hi")] };',
        'const options: ModelRouterModuleOptions = { routers: {} };',
        "const shared: RedisRouteStateStoreOptions = { url: 'redis://127.0.0.1:6379' };",
        'export { request, options, shared, api, redis, aiSdk };',
      ].join('\n'),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], {
        cwd: dir,
        encoding: 'utf8',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 60_000);

  it('the tarball has no gateway file and no test', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
      }),
    ) as { files: { path: string }[] }[];
    const paths = packed!.files.map((file) => file.path);
    expect(paths).toContain('package.json');
    // the embedded model's vectors and corpus are the only files shipped from src/
    const unexpected = paths.filter(
      (path) => /^(apps|test|bench|src)\//.test(path) && !path.startsWith('src/embedded/assets/'),
    );
    expect(unexpected).toEqual([]);
    expect(paths).toContain('src/embedded/assets/glove-6b-50k-glossary-100d-int8.bin');
  }, 60_000);
});
