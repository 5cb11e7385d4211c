/**
 * A deterministic corpus of malformed chat bodies for fuzzing the gateway's two chat endpoints:
 * valid bodies with one or a few fields broken (wrong types, nested arrays, nulls, huge or empty
 * arrays, deep nesting, prototype keys, odd strings), plus raw text that is not JSON at all. The
 * same seed gives the same corpus, so a failure names a body that can be replayed.
 */
import { seededRandom } from './seeded-random.js';

export interface HostileBody {
  /** `/v1/chat/completions` or `/chat`. */
  path: string;
  /** What goes on the wire, as is. */
  raw: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const OPENAI_BASE = (): Record<string, Json> => ({
  model: 'auto',
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
});

const CHAT_BASE = (): Record<string, Json> => ({
  messages: [{ role: 'user', content: 'What is the capital of France?' }],
});

/** Field paths worth breaking, per endpoint (`*` stands for index 0 of an array). */
const OPENAI_FIELDS = [
  'model',
  'messages',
  'messages.*',
  'messages.*.role',
  'messages.*.content',
  'messages.*.tool_calls',
  'messages.*.tool_call_id',
  'messages.*.name',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'tools',
  'tools.*',
  'tools.*.function',
  'tools.*.function.parameters',
  'tool_choice',
  'response_format',
  'response_format.json_schema',
  'models',
  'n',
  'user',
];

const CHAT_FIELDS = [
  'messages',
  'messages.*',
  'messages.*.role',
  'messages.*.content',
  'messages.*.text',
  'messages.*.toolCalls',
  'messages.*.toolCallId',
  'messages.*.attributes',
  'parameters',
  'parameters.modelName',
  'parameters.temperature',
  'parameters.maxOutputTokens',
  'parameters.stopSequences',
  'parameters.tools',
  'parameters.tools.*',
  'parameters.responseFormat',
  'parameters.responseFormat.jsonSchema',
  'router',
];

const STRINGS = [
  '',
  ' ',
  'x'.repeat(10_000),
  '\u0000\u001b[31m\n\r',
  '🙂'.repeat(50),
  '__proto__',
  'constructor',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  'provider/random-model',
  'auto',
];

/**
 * `count` hostile bodies, alternating between the two endpoints, from `seed`.
 * Every body is at most about 100 KB, so a corpus of thousands runs in seconds.
 */
export function hostileBodies(count: number, seed = 12): HostileBody[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const bodies: HostileBody[] = [];
  for (let i = 0; i < count; i++) {
    const openai = i % 2 === 0;
    const path = openai ? '/v1/chat/completions' : '/chat';
    if (random() < 0.08) {
      bodies.push({ path, raw: notJson(random, pick) });
      continue;
    }
    const body = openai ? OPENAI_BASE() : CHAT_BASE();
    const mutations = 1 + Math.floor(random() * 3);
    for (let m = 0; m < mutations; m++) {
      setPath(body, pick(openai ? OPENAI_FIELDS : CHAT_FIELDS).split('.'), hostile(random, pick));
    }
    bodies.push({ path, raw: JSON.stringify(body) });
  }
  return bodies;
}

/**
 * `count` hostile bodies for one endpoint: `base()` with one to three of `fields` broken, or
 * (8 %) no JSON at all, from `seed`; the same mutations as `hostileBodies`.
 */
export function hostileBodiesFor(
  path: string,
  base: () => Record<string, Json>,
  fields: readonly string[],
  count: number,
  seed = 12,
): HostileBody[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const bodies: HostileBody[] = [];
  for (let i = 0; i < count; i++) {
    if (random() < 0.08) {
      bodies.push({ path, raw: notJson(random, pick) });
      continue;
    }
    const body = base();
    const mutations = 1 + Math.floor(random() * 3);
    for (let m = 0; m < mutations; m++) {
      setPath(body, pick(fields).split('.'), hostile(random, pick));
    }
    bodies.push({ path, raw: JSON.stringify(body) });
  }
  return bodies;
}

function hostile(random: () => number, pick: <T>(items: readonly T[]) => T): Json {
  switch (Math.floor(random() * 14)) {
    case 0:
      return null;
    case 1:
      return pick([true, false]);
    case 2:
      return pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 3]);
    case 3:
      return pick(STRINGS);
    case 4:
      return [];
    case 5:
      return [[]];
    case 6:
      return [{}];
    case 7:
      return {};
    case 8:
      // an array just over the cap, of empty or half-formed elements
      return Array.from({ length: 4097 + Math.floor(random() * 2000) }, (): Json =>
        random() < 0.5 ? {} : { role: 'user' },
      );
    case 9:
      return nested(65 + Math.floor(random() * 200));
    case 10:
      // an own key named __proto__, as JSON.parse makes it (a literal would set the prototype)
      return JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{}}}') as Json;
    case 11:
      return Array.from({ length: 1 + Math.floor(random() * 50) }, () => pick(STRINGS));
    case 12:
      return { type: pick(['text', 'image_url', 'function', 'json_schema', 'x']), text: 7 };
    default:
      return [{ role: pick(['user', 'assistant', 'tool', 'system', 'x']), content: [[{}]] }];
  }
}

function nested(depth: number): Json {
  let value: Json = 'leaf';
  for (let d = 0; d < depth; d++) value = d % 2 === 0 ? [value] : { a: value };
  return value;
}

function notJson(random: () => number, pick: <T>(items: readonly T[]) => T): string {
  switch (Math.floor(random() * 6)) {
    case 0:
      return '{"model":"auto","messages":[';
    case 1:
      return '';
    case 2:
      return '['.repeat(5000);
    case 3:
      return `{"messages": ${'['.repeat(300)}${']'.repeat(300)}}`;
    case 4:
      return pick(['null', 'true', '42', '"text"', '[]']);
    default:
      return '{"model":"auto","messages":[{"role":"user","content":"\\ud800"}],}';
  }
}

/** Sets `path` in `target`, creating objects (or arrays for `*`) on the way. */
function setPath(target: Record<string, Json>, path: string[], value: Json): void {
  let at: Json = target;
  for (let k = 0; k < path.length; k++) {
    const key = path[k] === '*' ? '0' : path[k]!;
    if (typeof at !== 'object' || at === null) return;
    const container = at as Record<string, Json>;
    if (k === path.length - 1) {
      container[key] = value;
      return;
    }
    let next: Json | undefined = container[key];
    if (typeof next !== 'object' || next === null) {
      next = path[k + 1] === '*' ? [] : {};
      container[key] = next;
    }
    at = next;
  }
}
