import { describe, expect, it } from '@jest/globals';
import { LocalDemoChatModel } from '../../../src/providers/local/local-demo-chat-model.js';

describe('LocalDemoChatModel without a name', () => {
  it('answers as `local-demo`, in its text, its modelName and its errors', async () => {
    const model = new LocalDemoChatModel();
    expect(model.name).toBe('local-demo');
    const response = await model.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(response.modelName).toBe('local-demo');
    expect(response.aiMessage.text).toContain("Model 'local-demo'");

    const flaky = new LocalDemoChatModel({ failEvery: 1 });
    await expect(flaky.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      "Model 'local-demo' simulated an outage",
    );
  });

  it('keeps a given name', async () => {
    const response = await new LocalDemoChatModel({ name: 'fast' }).chat({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.modelName).toBe('fast');
  });
});
