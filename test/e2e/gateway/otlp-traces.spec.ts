import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeProvider } from '../../../src/testing/index.js';
import { startGateway, user, type RunningGateway } from './gateway-harness.js';

/**
 * The gateway with the OpenTelemetry Node SDK started by the standard variables, exporting over
 * OTLP/HTTP (JSON) to a receiver the test owns: a failover continues the caller's trace.
 */

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values: OtlpValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number };
}

const FAKE_KEY = 'sk-fake-otlp-3b1f0c9a77';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const EMBED_TRACE_ID = '5b8efff798038103d269b633813fc60c';

let fake: FakeProvider;
let gateway: RunningGateway;
let receiver: Server;
const posts: Array<{ path: string; contentType: string; body: string }> = [];

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.arrayValue) return value.arrayValue.values.map((v) => v.stringValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

function exportedSpans(): OtlpSpan[] {
  return posts
    .filter((post) => post.path === '/v1/traces')
    .flatMap((post) => {
      const body = JSON.parse(post.body) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      return body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    });
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      posts.push({
        path: request.url ?? '',
        contentType: String(request.headers['content-type']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  fake = await FakeProvider.start({ apiKey: FAKE_KEY });
  gateway = await startGateway({
    config: 'test/e2e/gateway/fixtures/fake-providers.yaml',
    env: {
      FAKE_BASE_URL: fake.openaiBaseURL,
      FAKE_URL: fake.url,
      FAKE_API_KEY: FAKE_KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'otlp-e2e',
    },
  });
});

afterAll(async () => {
  await fake?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('gateway traces over OTLP/HTTP', () => {
  it("a failover arrives as the call span and two attempt spans in the caller's trace", async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({ model: 'main', messages: [user('hello')] }),
    });
    expect(response.status).toBe(200);
    // the provider saw the trace too, from the answering attempt
    expect(fake.requests.last('gpt-4o-mini')?.headers.traceparent).toMatch(
      new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`),
    );
    // an embeddings call joins its caller's trace too
    const embedded = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${EMBED_TRACE_ID}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({ model: 'fake/text-embedding-3-small', input: 'hello' }),
    });
    expect(embedded.status).toBe(200);
    // closing the app flushes the batch of spans to the receiver
    await gateway.close();

    expect(posts.every((post) => post.contentType.startsWith('application/json'))).toBe(true);
    const spans = exportedSpans().filter((span) => span.traceId === TRACE_ID);
    const call = spans.find((span) => span.name === 'model_router.call main');
    expect(call).toBeDefined();
    expect(call!.parentSpanId).toBe(CALLER_SPAN);
    expect(attribute(call!, 'model_router.router')).toBe('main');
    expect(attribute(call!, 'model_router.model')).toBe('fake-mini');

    const attempts = spans
      .filter((span) => span.parentSpanId === call!.spanId)
      .toSorted(
        (a, b) =>
          Number(attribute(a, 'model_router.attempt')) -
          Number(attribute(b, 'model_router.attempt')),
      );
    expect(attempts.map((span) => span.name)).toEqual(['chat gpt-fault-503', 'chat gpt-4o-mini']);
    const [failed, answered] = attempts as [OtlpSpan, OtlpSpan];
    expect(failed.kind).toBe(3); // CLIENT in OTLP's numbering
    expect(failed.status?.code).toBe(2); // ERROR
    expect(attribute(failed, 'error.type')).toBe('transient');
    expect(attribute(answered, 'gen_ai.operation.name')).toBe('chat');
    expect(attribute(answered, 'gen_ai.provider.name')).toBe('openai');
    expect(attribute(answered, 'gen_ai.request.model')).toBe('gpt-4o-mini');
    expect(attribute(answered, 'gen_ai.response.model')).toBe('gpt-4o-mini');
    expect(attribute(answered, 'gen_ai.response.finish_reasons')).toEqual(['stop']);
    expect(attribute(answered, 'gen_ai.usage.input_tokens')).toEqual(expect.any(Number));
    expect(attribute(answered, 'gen_ai.usage.output_tokens')).toEqual(expect.any(Number));
    expect(fake.requests.last('gpt-4o-mini')?.headers.traceparent).toContain(answered.spanId);

    const embedSpans = exportedSpans().filter((span) => span.traceId === EMBED_TRACE_ID);
    const embedCall = embedSpans.find((span) => span.parentSpanId === CALLER_SPAN);
    expect(embedCall?.name).toBe('model_router.call');
    const embedAttempt = embedSpans.find((span) => span.parentSpanId === embedCall?.spanId);
    expect(embedAttempt?.name).toBe('embeddings text-embedding-3-small');
    expect(attribute(embedAttempt!, 'gen_ai.operation.name')).toBe('embeddings');

    // the GenAI metrics went out too, and no span or metric carries the provider's key
    const metrics = posts.filter((post) => post.path === '/v1/metrics').map((post) => post.body);
    expect(metrics.join('\n')).toContain('gen_ai.client.operation.duration');
    expect(posts.map((post) => post.body).join('\n')).not.toContain(FAKE_KEY);
  });
});
