// docs/nest-module.md's status.module.ts: the page's app with the status mounted by one import,
// served over HTTP against the project's FakeProvider.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ModelRouterExceptionFilter, type RouterStatusReport } from 'nest-model-router';
import { FakeProvider } from 'nest-model-router/testing';
import { snippetPath, writeSnippets } from './support/markdown.js';

const PAGE = 'docs/nest-module.md';

describe('docs/nest-module.md: ModelRouterStatusModule beside the app', () => {
  let fake: FakeProvider;
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    writeSnippets(PAGE);
    fake = await FakeProvider.start();
    Object.assign(process.env, {
      OPENAI_BASE_URL: fake.openaiBaseURL,
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
      OPENAI_API_KEY: 'sk-test',
      ANTHROPIC_API_KEY: 'sk-ant-test',
    });
    const { AppWithStatusModule } = (await import(snippetPath(PAGE, 'status.module.ts'))) as {
      AppWithStatusModule: new () => unknown;
    };
    app = await NestFactory.create(AppWithStatusModule, { logger: false });
    app.useGlobalPipes(new ValidationPipe({ transform: true }));
    app.useGlobalFilters(new ModelRouterExceptionFilter());
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('serves the JSON with the routes and the traffic of a call, and the page', async () => {
    const asked = await fetch(`${url}/support`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(asked.status).toBe(200);
    const report = (await (await fetch(`${url}/router/status`)).json()) as RouterStatusReport;
    const support = report.routers.find((router) => router.name === 'support')!;
    expect(support.routes.map((route) => route.name).toSorted()).toEqual(['complex', 'simple']);
    const served = support.routes.flatMap((route) => route.models).filter((m) => m.requests > 0);
    expect(served).toHaveLength(1);
    expect(support.decisions).toEqual([{ route: 'simple', calls: 1, share: 1 }]);
    const page = await fetch(`${url}/status`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await fetch(`${url}/router/status?debug=1`)).status).toBe(400);
  });
});
