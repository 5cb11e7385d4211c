import {
  type Clock,
  DecisionModelChatModelRouter,
  type DecisionLogger,
  EmbeddedVectorDecisionModel,
  RoutingChatModel,
  FailoverStrategy,
  ModelRouter,
  LocalDemoChatModel,
} from 'nest-model-router';
import { demoEmbeddings } from './demo-embeddings.js';
import { routeProbabilityIdentity } from './gateway-factories.js';
import { DEMO_BREAKER, type GatewayConfig } from './gateway-config.js';

export const SIMPLE_ROUTE = {
  name: 'simple',
  description:
    'Quick everyday questions with a short answer: facts, definitions, greetings, small talk, ' +
    'conversions and simple how-to questions.',
  examples: [
    'What is the capital of France?',
    'Hi there, how are you today?',
    'How many centimetres are in an inch?',
    'What does the word ubiquitous mean?',
    'What time zone is Tokyo in?',
  ],
};

export const COMPLEX_ROUTE = {
  name: 'complex',
  description:
    'Hard problems that need careful reasoning: multi-step analysis, mathematics and proofs, ' +
    'writing and debugging code, system design, planning and detailed comparisons.',
  examples: [
    'Design a scalable architecture for a real-time chat application with millions of users.',
    'Prove that there are infinitely many prime numbers.',
    'Debug this recursive function that overflows the stack on large inputs.',
    'Compare the trade-offs of microservices and a monolith for a growing startup.',
    'Write a step-by-step migration plan from a relational database to an event-sourced system.',
  ],
};

export interface DemoConfigOptions {
  /** Pause between streamed words (visible streaming); default 30 ms. */
  tokenDelayMs?: number;
  /** Circuit cooldown of the demo groups; default 15 s. */
  cooldownMs?: number;
  /** The flaky model fails every Nth call; default 3. */
  failEvery?: number;
  clock?: Clock;
  logger?: DecisionLogger;
}

/**
 * The offline demo, in code: the embedded decision model routes between a `simple` and a
 * `complex` route, each a failover group of local demo models, one of them flaky. The same
 * setup is written in config/model-router.yaml.
 */
export function demoGatewayConfig(options: DemoConfigOptions = {}): GatewayConfig {
  const tokenDelayMs = options.tokenDelayMs ?? 30;
  const demo = (name: string, style: 'brief' | 'thorough', failEvery?: number) =>
    new LocalDemoChatModel({
      name,
      style,
      tokenDelayMs,
      identity: routeProbabilityIdentity,
      ...(failEvery ? { failEvery } : {}),
    });
  const models = {
    'demo-mini': demo('demo-mini', 'brief', options.failEvery ?? 3),
    'demo-mini-backup': demo('demo-mini-backup', 'brief'),
    'demo-pro': demo('demo-pro', 'thorough'),
    'demo-pro-backup': demo('demo-pro-backup', 'thorough'),
  };
  const breaker = {
    ...DEMO_BREAKER,
    ...(options.cooldownMs !== undefined ? { cooldownMs: options.cooldownMs } : {}),
  };
  const group = (...names: (keyof typeof models)[]) =>
    new ModelRouter({
      routes: names.map((name) => ({ name, model: models[name] })),
      routingStrategy: new FailoverStrategy(breaker),
      continuation: true,
    });
  const auto = new RoutingChatModel({
    routes: [
      { ...SIMPLE_ROUTE, model: group('demo-mini', 'demo-mini-backup') },
      { ...COMPLEX_ROUTE, model: group('demo-pro', 'demo-pro-backup') },
    ],
    router: new DecisionModelChatModelRouter(
      new EmbeddedVectorDecisionModel().preload(),
      options.logger ? { logger: options.logger } : {},
    ),
    defaultRoute: 'simple',
  });
  return {
    module: {
      routers: { auto },
      models,
      defaultRouter: 'auto',
      ...(options.clock ? { clock: options.clock } : {}),
    },
    adHocFailover: breaker,
    embeddings: demoEmbeddings(),
  };
}
