/**
 * EmbeddedVectorDecisionModel: load time, time per decision and top-1 accuracy on a held-out set
 * (bench/data: 8 routes, 5 examples each, 10 unseen messages per route), each next to a baseline
 * measured in the same run. The accuracy baseline is keyword overlap: the option sharing the most
 * non-stop words with the message wins.
 *
 *   npx tsc -p tsconfig.bench.json && node -e "import('./build/bench/decision-models.bench.js').then(m=>m.run())"
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type {
  ChoiceOption,
  ChoiceQuestion,
  DecisionRequest,
} from '../src/core/decision/decision-model.js';
import { EmbeddedVectorDecisionModel } from '../src/core/decision/models/embedded-vector-decision-model.js';
import { STOP_WORDS } from '../src/core/decision/models/stop-words.js';
import { tokenize } from '../src/core/decision/models/tokenize.js';
import {
  clearWordVectorCache,
  DEFAULT_WORD_VECTORS_FILE,
  findAsset,
  loadWordVectors,
} from '../src/core/decision/models/word-vectors.js';
import { measure, printTable, ratio, us, type Row } from './lib/measure.js';

interface RouteData {
  name: string;
  description: string;
  examples: string[];
}
interface TestMessage {
  route: string;
  text: string;
}

/** bench/data, found by walking up (this file runs from build/bench/). */
function readData<T>(file: string): T {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dirname(dir) !== dir;
    dir = dirname(dir)
  ) {
    const candidate = join(dir, 'bench', 'data', file);
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')) as T;
  }
  throw new Error(`bench/data/${file} not found`);
}

/**
 * The baseline router: most shared non-stop words with the option's description and examples;
 * ties → the first option. Option word sets are built once, as a fair router would.
 */
function keywordOverlapRouter(options: readonly ChoiceOption[]): (input: string) => string {
  const optionWords = options.map(
    (option) =>
      new Set([option.description, ...(option.examples ?? [])].flatMap((text) => tokenize(text))),
  );
  return (input) => {
    const words = new Set(tokenize(input).filter((word) => !STOP_WORDS.has(word)));
    let best = 0;
    let bestScore = -1;
    optionWords.forEach((set, index) => {
      let score = 0;
      for (const word of words) if (set.has(word)) score++;
      if (score > bestScore) {
        bestScore = score;
        best = index;
      }
    });
    return options[best]!.name;
  };
}

function pct(fraction: number): string {
  return `${(fraction * 100).toFixed(1)} %`;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export async function run(): Promise<void> {
  const routes = readData<{ routes: RouteData[] }>('decision-routes.json').routes;
  const tests = readData<{ messages: TestMessage[] }>('decision-test-messages.json').messages;
  const withExamples: ChoiceQuestion = {
    text: 'Which model should handle this request?',
    options: routes.map(({ name, description, examples }) => ({ name, description, examples })),
  };
  const descriptionOnly: ChoiceQuestion = {
    text: withExamples.text,
    options: routes.map(({ name, description }) => ({ name, description })),
  };

  // Load: the first decision of a process reads and parses the file and builds the word weights.
  const file = findAsset(DEFAULT_WORD_VECTORS_FILE);
  const loads: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < 5; i++) {
    let start = performance.now();
    readFileSync(file);
    reads.push(performance.now() - start);
    clearWordVectorCache();
    start = performance.now();
    await new EmbeddedVectorDecisionModel().decide({ input: 'hello', question: withExamples });
    loads.push(performance.now() - start);
  }
  loads.sort((a, b) => a - b);
  reads.sort((a, b) => a - b);
  const load = loads[2]!;
  const read = reads[2]!;

  const model = new EmbeddedVectorDecisionModel().preload();
  const vectors = loadWordVectors();

  const keywordOverlap = keywordOverlapRouter(withExamples.options);
  const keywordOverlapDescription = keywordOverlapRouter(descriptionOnly.options);

  // Accuracy on the unseen messages.
  let correct = 0;
  let correctDescription = 0;
  let keywordCorrect = 0;
  let keywordCorrectDescription = 0;
  const confusions = new Map<string, number>();
  for (const { route, text } of tests) {
    const answer = await model.decide({ input: text, question: withExamples });
    if (answer.value === route) correct++;
    else
      confusions.set(
        `${route}→${answer.value}`,
        (confusions.get(`${route}→${answer.value}`) ?? 0) + 1,
      );
    if ((await model.decide({ input: text, question: descriptionOnly })).value === route) {
      correctDescription++;
    }
    if (keywordOverlap(text) === route) keywordCorrect++;
    if (keywordOverlapDescription(text) === route) keywordCorrectDescription++;
  }
  const accuracy = correct / tests.length;
  const accuracyDescription = correctDescription / tests.length;
  const keywordAccuracy = keywordCorrect / tests.length;
  const keywordAccuracyDescription = keywordCorrectDescription / tests.length;

  // Time per decision, cycling through the test messages (option vectors are cached after the first).
  const requests: DecisionRequest[] = tests.map(({ text }) => ({
    input: text,
    question: withExamples,
  }));
  const conversation: DecisionRequest[] = tests.map(({ text }, i) => ({
    input: {
      messages: [
        { role: 'user', text: tests[(i + 7) % tests.length]!.text },
        { role: 'assistant', text: 'Sure, here is what I found about that.' },
        { role: 'user', text },
      ],
    },
    question: withExamples,
  }));
  let i = 0;
  const decision = await measure('decide', () => model.decide(requests[i++ % requests.length]!), {
    iterations: 5_000,
  });
  let j = 0;
  const decisionConversation = await measure(
    'decide {messages}',
    () => model.decide(conversation[j++ % conversation.length]!),
    { iterations: 5_000 },
  );
  let k = 0;
  const keyword = await measure(
    'keyword overlap',
    () => keywordOverlap(tests[k++ % tests.length]!.text),
    { iterations: 5_000 },
  );
  let l = 0;
  const stringify = await measure(
    'JSON.stringify',
    () => JSON.stringify(requests[l++ % requests.length]),
    { iterations: 5_000 },
  );

  const rows: Row[] = [
    {
      benchmark: `load ${vectors.size.toLocaleString('en')} words × ${vectors.dimensions}d (first decision)`,
      figure: ms(load),
      baseline: `readFileSync of the file: ${ms(read)}`,
      ratio: ratio(load, read),
    },
    {
      benchmark: `decision, ${routes.length} options with 5 examples, string input`,
      figure: us(decision.nsPerOp),
      baseline: `JSON.stringify(request): ${us(stringify.nsPerOp)}`,
      ratio: ratio(decision.nsPerOp, stringify.nsPerOp),
    },
    {
      benchmark: 'decision, 3-message conversation input',
      figure: us(decisionConversation.nsPerOp),
      baseline: `string input: ${us(decision.nsPerOp)}`,
      ratio: ratio(decisionConversation.nsPerOp, decision.nsPerOp),
    },
    {
      benchmark: 'decision by the keyword-overlap baseline router',
      figure: us(keyword.nsPerOp),
      baseline: `embedded vectors: ${us(decision.nsPerOp)}`,
      ratio: ratio(keyword.nsPerOp, decision.nsPerOp),
    },
    {
      benchmark: `top-1 accuracy with examples (${tests.length} unseen messages)`,
      figure: pct(accuracy),
      baseline: `keyword overlap: ${pct(keywordAccuracy)}`,
      ratio: ratio(accuracy, keywordAccuracy),
    },
    {
      benchmark: 'top-1 accuracy, descriptions only',
      figure: pct(accuracyDescription),
      baseline: `keyword overlap: ${pct(keywordAccuracyDescription)}`,
      ratio: ratio(accuracyDescription, keywordAccuracyDescription),
    },
  ];
  printTable('Decision models: EmbeddedVectorDecisionModel (targets: < 200 µs, ≥ 80 %)', rows);
  const misses = [...confusions].map(([pair, count]) => `${pair} ×${count}`).join(', ');
  console.log(`\nmisrouted with examples (expected→chosen): ${misses || 'none'}`);
}
