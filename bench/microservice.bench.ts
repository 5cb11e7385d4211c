/**
 * What the transport costs: a routed call through RemoteChatModel over TCP (ClientTCP →
 * ModelRouterMicroserviceModule → RoutingChatService → RoutingChatModel → ModelRouter →
 * an instant model) against the same call through the same app's RoutingChatService in-process.
 * Sequential calls (latency) and 64 calls in flight (throughput); all figures from one run.
 *
 *   npx tsc -p tsconfig.bench.json && node build/bench/run.js microservice
 */
import 'reflect-metadata';
import { type DynamicModule, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ChatModel } from '../src/core/chat/chat-model.js';
import { userMessage } from '../src/core/chat/messages.js';
import type { ChatRequest } from '../src/core/chat/request.js';
import type { ChatResponse } from '../src/core/chat/response.js';
import { ChatModelRoutingResult } from '../src/core/routing/chat-model-routing-result.js';
import { RoutingChatModel } from '../src/core/routing/routing-chat-model.js';
import { FailoverStrategy } from '../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../src/core/group/model-router.js';
import { ModelRouterMicroserviceModule } from '../src/nest/microservice/model-router-microservice.module.js';
import { RemoteChatModel } from '../src/nest/microservice/remote-chat-model.js';
import { ModelRouterModule } from '../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../src/nest/service/routing-chat.service.js';
import { measure, printTable, ratio, us } from './lib/measure.js';

const request: ChatRequest = { messages: [userMessage('How long is a piece of string?')] };
const response: ChatResponse = {
  aiMessage: { role: 'assistant', text: 'Twice half its length.' },
  tokenUsage: { inputTokens: 8, outputTokens: 5, totalTokens: 13 },
};
const SETTINGS = { iterations: 2_000, rounds: 5, warmup: 500 };
const IN_FLIGHT = 64;
const BATCHES = 60;

function routerModule(): DynamicModule {
  const instant: ChatModel = { chat: async () => response };
  const main = new RoutingChatModel({
    routes: [
      {
        name: 'a',
        model: new ModelRouter({
          routes: [{ name: 'instant', model: instant }],
          routingStrategy: new FailoverStrategy(),
        }),
      },
    ],
    router: () => ChatModelRoutingResult.route('a'),
    defaultRoute: 'a',
  });
  @Module({
    imports: [ModelRouterModule.forRoot({ routers: { main } }), ModelRouterMicroserviceModule],
  })
  // oxlint-disable-next-line typescript/no-extraneous-class -- a Nest module
  class RouterServiceModule {}
  return { module: RouterServiceModule };
}

/** Calls per second with `IN_FLIGHT` calls at a time, median of the rounds. */
async function throughput(call: () => Promise<unknown>): Promise<number> {
  const rates: number[] = [];
  for (let round = 0; round < SETTINGS.rounds; round++) {
    const start = performance.now();
    for (let batch = 0; batch < BATCHES; batch++) {
      await Promise.all(Array.from({ length: IN_FLIGHT }, call));
    }
    rates.push((BATCHES * IN_FLIGHT) / ((performance.now() - start) / 1000));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
}

export async function run(): Promise<void> {
  const port = await freeLoopbackPort();
  const transport = { transport: Transport.TCP, options: { host: '127.0.0.1', port } } as const;
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(routerModule().module, {
    ...transport,
    logger: false,
  });
  await app.listen();
  const client = ClientProxyFactory.create(transport);
  try {
    const local = app.get(RoutingChatService);
    const remote = new RemoteChatModel(client);
    // sanity: both paths answer with the model's text
    for (const answer of [await local.chat(request), await remote.chat(request)]) {
      if (answer.aiMessage.text !== response.aiMessage.text) throw new Error('unexpected answer');
    }

    const inProcess = await measure('in-process', () => local.chat(request), SETTINGS);
    const overTcp = await measure('tcp', () => remote.chat(request), SETTINGS);
    const inProcessRate = await throughput(() => local.chat(request));
    const tcpRate = await throughput(() => remote.chat(request));

    printTable('The router as a microservice: a routed call over TCP vs in-process', [
      {
        benchmark: 'RemoteChatModel.chat() over TCP (loopback), one call at a time',
        figure: us(overTcp.nsPerOp),
        baseline: `${us(inProcess.nsPerOp)} RoutingChatService.chat() in-process`,
        ratio: ratio(overTcp.nsPerOp, inProcess.nsPerOp),
      },
      {
        benchmark: '… added by the transport per call',
        figure: us(overTcp.nsPerOp - inProcess.nsPerOp),
        baseline: '–',
        ratio: '–',
      },
      {
        benchmark: `calls per second over TCP, ${IN_FLIGHT} in flight`,
        figure: `${Math.round(tcpRate)}/s`,
        baseline: `${Math.round(inProcessRate)}/s in-process`,
        ratio: ratio(tcpRate, inProcessRate),
      },
    ]);
  } finally {
    client.close();
    await app.close();
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
