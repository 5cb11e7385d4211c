// A newcomer's wrong turns on the demo gateway: a path it does not serve, a method the path does
// not take, a model name one letter off. Each 404 says what would have worked.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postJson, type RunningGateway, startGateway } from './gateway-harness.js';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ config: 'config/model-router.yaml', env: {} });
});

afterAll(async () => {
  await gateway?.close();
});

const SERVED =
  ': this gateway serves POST /v1/chat/completions, /v1/responses, /v1/messages and ' +
  '/v1/embeddings, and GET /v1/models';

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { message: string } };
  return { status: response.status, message: body.error.message };
}

describe('the gateway answers a wrong turn with the way back', () => {
  it('a path under /v1 it does not serve, with a body, lists the paths served', async () => {
    const wrong = await errorOf(await postJson(`${gateway.url}/v1/completions`, { prompt: 'hi' }));
    expect(wrong).toEqual({ status: 404, message: `Cannot POST /v1/completions${SERVED}` });
  });

  it('the same without a body', async () => {
    const wrong = await errorOf(await fetch(`${gateway.url}/v1/chat/completion?x=1`));
    expect(wrong).toEqual({ status: 404, message: `Cannot GET /v1/chat/completion${SERVED}` });
  });

  it('a GET of a path that takes POST says so, on the OpenAI and the Anthropic surface', async () => {
    const chat = await errorOf(await fetch(`${gateway.url}/v1/chat/completions`));
    expect(chat).toEqual({
      status: 404,
      message: 'Cannot GET /v1/chat/completions: it takes POST',
    });

    const messages = await fetch(`${gateway.url}/v1/messages`);
    expect(messages.status).toBe(404);
    expect(await messages.json()).toMatchObject({
      type: 'error',
      error: { message: 'Cannot GET /v1/messages: it takes POST' },
    });
  });

  it('a path outside the API gets no list', async () => {
    const wrong = await errorOf(await fetch(`${gateway.url}/v2/models`));
    expect(wrong.message).toBe('Cannot GET /v2/models');
  });

  it('a model one letter off names the one meant, and still lists them all', async () => {
    const wrong = await errorOf(
      await postJson(`${gateway.url}/v1/chat/completions`, {
        model: 'demo-min',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(wrong.status).toBe(404);
    expect(wrong.message).toMatch(
      /^The model 'demo-min' does not exist on this gateway \(did you mean 'demo-mini'\?\)\. Use one of: auto, demo-mini, /,
    );
  });
});
