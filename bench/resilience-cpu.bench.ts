/**
 * ResilientChatModel's CPU per call (its abort races and phase timers), alone and behind the
 * stream layers above it (ModelRouter, RoutingChatModel), against a baseline tree's, both in this
 * one process and measured in interleaved batches, so the machine changing speed affects both
 * alike. Runs only with a baseline (a built tree: its dist/index.js, which
 * `npm run build` or `npm run build:gateway` writes):
 *
 *   BENCH_BASELINE_GATEWAY=/tmp/gw-base npm run bench -- resilience-cpu
 *
 * The wrapped provider is a BaseChatModel of each tree that answers at once, so the figure is the
 * wrapper's work; the caller's signal is one long-lived AbortController, as a gateway's is.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as current from '../src/index.js';
import { batchesAgainstBaseline, printTable, type Row } from './lib/measure.js';

type Tree = Pick<
  typeof current,
  | 'BaseChatModel'
  | 'withResilience'
  | 'ModelRouter'
  | 'FailoverStrategy'
  | 'RoutingChatModel'
  | 'ChatModelRoutingResult'
>;
type Model = Pick<ReturnType<Tree['withResilience']>, 'chat' | 'stream'>;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
/** chat() batches are this many times longer: a batch of BATCH takes ~2 ms, near the CPU clock's grain. */
const CHAT_BATCH_FACTOR = 10;
/** Events of the streamed answer: text deltas, then `complete`. */
const STREAM_EVENTS = 64;

const request = {
  messages: [{ role: 'user' as const, content: 'What is the capital of France?' }],
};
const answer = {
  aiMessage: { role: 'assistant' as const, text: 'Paris.' },
  modelName: 'bench-model',
  finishReason: 'stop' as const,
};

/** An instant provider built on `tree`'s own BaseChatModel, wrapped by `tree`'s resilience. */
function resilientOf(tree: Tree): Model {
  return tree.withResilience(providerOf(tree), { name: 'bench-model' });
}

/** A group of one bare provider (no resilience): what the group itself adds is the figure. */
function groupedProviderOf(tree: Tree): Model {
  return new tree.ModelRouter({
    routes: [{ name: 'instant', model: providerOf(tree) }],
    routingStrategy: new tree.FailoverStrategy(),
  }) as Model;
}

function providerOf(tree: Tree) {
  class Instant extends tree.BaseChatModel {
    constructor() {
      super({ defaultRequestParameters: { modelName: 'bench-model' } });
    }
    protected doChat() {
      return Promise.resolve(answer);
    }
    protected override async *doStream() {
      for (let i = 1; i < STREAM_EVENTS; i++) yield { type: 'text-delta' as const, text: 'x' };
      yield { type: 'complete' as const, response: answer };
    }
  }
  return new Instant();
}

/** The same in a model group of one. */
function groupedOf(tree: Tree): Model {
  return new tree.ModelRouter({
    routes: [{ name: 'instant', model: resilientOf(tree) }],
    routingStrategy: new tree.FailoverStrategy(),
  }) as Model;
}

/** The same behind a model group and a routing model, as a gateway's `auto` streams through. */
function routedOf(tree: Tree): Model {
  const group = groupedOf(tree);
  return new tree.RoutingChatModel({
    routes: [{ name: 'a', model: group }],
    router: () => tree.ChatModelRoutingResult.route('a'),
    defaultRoute: 'a',
  }) as Model;
}

const caller = new AbortController();

async function cpuPerCall(model: Model, count: number, stream: boolean): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    if (stream) {
      let events = 0;
      for await (const _ of model.stream(request, { signal: caller.signal })) events++;
      if (events !== STREAM_EVENTS)
        throw new Error(`expected ${STREAM_EVENTS} events, got ${events}`);
    } else {
      await model.chat(request, { signal: caller.signal });
    }
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

export async function run(): Promise<void> {
  const baselineRoot = process.env.BENCH_BASELINE_GATEWAY;
  if (!baselineRoot) {
    console.log('\nresilience-cpu: set BENCH_BASELINE_GATEWAY to a built tree to compare with');
    return;
  }
  const baseline = (await import(pathToFileURL(join(baselineRoot, 'dist/index.js')).href)) as Tree;
  const rows: Row[] = [];
  for (const [label, stream, build] of [
    ['ResilientChatModel chat()', false, resilientOf],
    [`ResilientChatModel stream() of ${STREAM_EVENTS} events`, true, resilientOf],
    ['chat(), grouped (ModelRouter → BaseChatModel)', false, groupedProviderOf],
    ['chat(), grouped (ModelRouter → ResilientChatModel)', false, groupedOf],
    ['chat(), routed (RoutingChatModel → ModelRouter)', false, routedOf],
    [
      `stream() of ${STREAM_EVENTS} events, routed (RoutingChatModel → ModelRouter)`,
      true,
      routedOf,
    ],
  ] as const) {
    const ours = build(current);
    const theirs = build(baseline);
    const size = stream ? BATCH : BATCH * CHAT_BATCH_FACTOR;
    const batch = (model: Model, count: number) => cpuPerCall(model, count, stream);
    await batch(ours, 4 * size); // JIT warm-up
    await batch(theirs, 4 * size);
    rows.push(
      await batchesAgainstBaseline(
        `CPU per ${label} (median of ${ROUNDS} interleaved batches of ${size})`,
        () => batch(ours, size),
        () => batch(theirs, size),
        ROUNDS,
      ),
    );
  }
  printTable(
    'ResilientChatModel and the stream layers above it, CPU per call, interleaved against a baseline tree',
    rows,
  );
}
