import { describe, expect, it } from '@jest/globals';
import { ChatInterceptorContext } from '../../../src/nest/interceptors/chat-interceptor-context.js';
import type { ServedBy } from '../../../src/nest/interceptors/chat-interceptor-context.js';

function record(): { context: ChatInterceptorContext; told: ServedBy[] } {
  const context = new ChatInterceptorContext({
    mode: 'stream',
    request: { messages: [{ role: 'user', content: 'hi' }] },
    routerName: 'support',
    attributes: {},
    signal: new AbortController().signal,
    clock: () => 0,
  });
  const told: ServedBy[] = [];
  context.onServed((served) => told.push(served));
  return { context, told };
}

const answer = { aiMessage: { role: 'assistant' as const, text: 'ok' }, modelName: 'claude-4' };

describe('who served a call, for headers', () => {
  it("names a route's only model as configured when the route is chosen, before any answer", () => {
    const { context, told } = record();
    context.notify({
      type: 'route-selected',
      route: 'complex',
      isDefaultRoute: false,
      model: 'claude',
    });
    expect(told).toEqual([{ route: 'complex', model: 'claude' }]);
    // the answer's provider id does not replace the configured name
    context.recordResponse(answer);
    expect(context.servedBy()).toEqual({ route: 'complex', model: 'claude' });
    expect(context.model).toBe('claude');
  });

  it('keeps the outermost route and takes the model an inner route names', () => {
    const { context } = record();
    context.notify({ type: 'route-selected', route: 'complex', isDefaultRoute: false });
    context.notify({
      type: 'route-selected',
      route: 'deep',
      isDefaultRoute: true,
      model: 'claude',
    });
    context.recordResponse(answer);
    expect(context.servedBy()).toEqual({ route: 'complex', model: 'claude' });
  });

  it("still names a group's member that answered, and the provider id only as a last resort", () => {
    const grouped = record().context;
    grouped.notify({ type: 'route-selected', route: 'simple', isDefaultRoute: true });
    grouped.notify({ type: 'model-called', route: 'simple', model: 'mini', attempt: 1 });
    grouped.recordResponse(answer);
    expect(grouped.servedBy()).toEqual({ route: 'simple', model: 'mini' });

    const plain = record().context;
    plain.recordResponse(answer);
    expect(plain.servedBy()).toEqual({ model: 'claude-4' });
  });
});
