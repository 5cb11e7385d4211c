import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidConfigurationException } from '../../../../src/core/errors/exceptions.js';
import {
  loadMicroservices,
  microservices,
  microservicesOrFail,
  requireMicroservices,
} from '../../../../src/nest/microservice/load-microservices.js';

const SRC = join(process.cwd(), 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('@nestjs/microservices, an optional peer dependency', () => {
  it('is undefined when it cannot be imported, and the module then names the package to install', async () => {
    const missing = Object.assign(new Error("Cannot find package '@nestjs/microservices'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadMicroservices(() => Promise.reject(missing))).resolves.toBeUndefined();
    await expect(
      loadMicroservices(async () => ({ MessagePattern: 'not a function' })),
    ).resolves.toBeUndefined();

    expect(() => microservicesOrFail(undefined)).toThrow(InvalidConfigurationException);
    expect(() => microservicesOrFail(undefined)).toThrow(
      'ModelRouterMicroserviceModule needs the @nestjs/microservices package (an optional peer dependency); install it with `npm install @nestjs/microservices@^12`',
    );
  });

  it('is loaded here, where it is installed', () => {
    expect(microservices).toBeDefined();
    expect(requireMicroservices()).toBe(microservices);
  });

  it('is imported by load-microservices.ts alone, dynamically: no static import anywhere in src', () => {
    const sources = sourceFiles(SRC).map((file) => ({
      file: relative(SRC, file),
      text: readFileSync(file, 'utf8'),
    }));
    const staticImport =
      /(^|\n)\s*(import|export)\s+(?!type\b)[^;]*from\s+'@nestjs\/microservices[^']*'/;
    const anyImport = /from\s+'@nestjs\/microservices|import\('@nestjs\/microservices/;

    expect(sources.filter(({ text }) => staticImport.test(text)).map(({ file }) => file)).toEqual(
      [],
    );
    expect(sources.filter(({ text }) => anyImport.test(text)).map(({ file }) => file)).toEqual([
      'nest/microservice/load-microservices.ts',
    ]);
  });
});
