import { setTimeout as delay } from 'node:timers/promises';
import { BaseChatModel, type BaseChatModelOptions } from '../../core/chat/base-chat-model.js';
import { Capability } from '../../core/chat/capability.js';
import type { ChatCallOptions, ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ChatMessage } from '../../core/chat/messages.js';
import type {
  ChatRequest,
  ChatRequestParameters,
  ToolSpecification,
} from '../../core/chat/request.js';
import type { ChatResponse } from '../../core/chat/response.js';
import { InvalidConfigurationException } from '../../core/errors/exceptions.js';
import { ProviderException } from '../../core/errors/provider-exception.js';
import { routeAttribute, routerAttribute } from '../../core/chat/call-attributes.js';
import { boundedSampleForSchema, capBytes, DEMO_MAX_ANSWER_BYTES } from './bounded-sample.js';
import {
  countWords,
  demoAnswerText,
  lastUserText,
  type DemoIdentity,
  type DemoStyle,
} from './demo-answer.js';

export interface LocalDemoChatModelOptions extends BaseChatModelOptions {
  /** The name the model gives in its answers and in `modelName` (default `local-demo`). */
  name?: string;
  style?: DemoStyle;
  /** Fail every Nth call (a simulated 503), so failover and cooldowns show up in the demo. */
  failEvery?: number;
  /** Pause between streamed words, so streaming is visible in a terminal. */
  tokenDelayMs?: number;
  /**
   * Extra facts for the answer (e.g. the route's probability, known to the app), from the
   * call's options as the model receives them.
   */
  identity?: (options: ChatCallOptions) => Partial<DemoIdentity> | undefined;
  /**
   * The most an answer (its text, or a tool call's arguments) may weigh in UTF-8 bytes, whatever
   * the schema, tools or input ask; default 64 KiB. A request's `maxOutputTokens` bounds it further
   * (in words, the demo's tokens).
   */
  maxAnswerBytes?: number;
}

/** The name of a demo model built without one. */
export const DEFAULT_DEMO_MODEL_NAME = 'local-demo';

/**
 * A built-in model that needs no network and no key: deterministic answers that say which
 * router, route and model answered. It calls tools when offered, answers JSON schemas, and
 * continues an assistant prefill, so every gateway feature can be tried offline.
 */
export class LocalDemoChatModel extends BaseChatModel {
  private calls = 0;

  constructor(private readonly options: LocalDemoChatModelOptions = {}) {
    const max = options.maxAnswerBytes;
    if (max !== undefined && !(Number.isInteger(max) && max >= 64)) {
      throw new InvalidConfigurationException(
        `Model '${options.name ?? DEFAULT_DEMO_MODEL_NAME}': maxAnswerBytes must be a whole number of bytes ≥ 64; got ${String(max)}.`,
      );
    }
    super({
      ...options,
      capabilities: options.capabilities ?? [
        Capability.RESPONSE_FORMAT_JSON_SCHEMA,
        Capability.ASSISTANT_PREFILL,
      ],
    });
  }

  get name(): string {
    return this.options.name ?? DEFAULT_DEMO_MODEL_NAME;
  }

  protected async doChat(request: ChatRequest, options: ChatCallOptions): Promise<ChatResponse> {
    this.failIfDue();
    return this.answer(request, options);
  }

  protected override async *doStream(
    request: ChatRequest,
    options: ChatCallOptions,
  ): AsyncGenerator<ChatStreamEvent> {
    this.failIfDue();
    const response = this.answer(request, options);
    const pause = this.options.tokenDelayMs ?? 0;
    for (const piece of streamPieces(response.aiMessage.text ?? '')) {
      if (pause > 0) await delay(pause, undefined, { signal: options.signal });
      yield { type: 'text-delta', text: piece };
    }
    const toolCalls = response.aiMessage.toolCalls ?? [];
    // arguments arrive in pieces, as from a real provider
    for (const [index, { id, name, arguments: args }] of toolCalls.entries()) {
      yield { type: 'tool-call-delta', index, id, name, argumentsDelta: '' };
      const half = Math.ceil(args.length / 2);
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        if (piece) yield { type: 'tool-call-delta', index, argumentsDelta: piece };
      }
    }
    for (const toolCall of toolCalls) yield { type: 'tool-call', toolCall };
    yield { type: 'complete', response };
  }

  private failIfDue(): void {
    this.calls++;
    const every = this.options.failEvery;
    if (every && this.calls % every === 0) {
      throw new ProviderException(
        `Model '${this.name}' simulated an outage (it fails once every ${every} calls)`,
        {
          kind: 'transient',
          provider: 'local',
          model: this.name,
          status: 503,
        },
      );
    }
  }

  private answer(request: ChatRequest, options: ChatCallOptions): ChatResponse {
    const { conversation, prefill } = splitPrefill(request.messages);
    const attributes = options.attributes ?? {};
    const who: DemoIdentity = {
      model: this.name,
      ...stringAttr('router', routerAttribute.of(attributes)),
      ...stringAttr('route', routeAttribute.of(attributes)),
      ...this.options.identity?.(options),
    };
    const params = request.parameters ?? {};
    const last = conversation[conversation.length - 1];
    const inputTokens = countTokens(request.messages);

    const maxBytes = this.options.maxAnswerBytes ?? DEMO_MAX_ANSWER_BYTES;

    const tool = params.toolChoice === 'none' ? undefined : toolToCall(params);
    // `required` or a named tool obliges a call on every turn, after a tool result too, as OpenAI
    // does (the AI SDK rejects a text answer to it); `auto` answers a tool result in words
    const forced = params.toolChoice === 'required' || typeof params.toolChoice === 'object';
    if (tool && (forced || last?.role === 'user')) {
      const hint = lastUserText(conversation);
      const properties = tool.parameters?.properties;
      // a tool with declared arguments gets a sample of them (structured output by tool call)
      const schema =
        properties && typeof properties === 'object' && Object.keys(properties).length > 0
          ? tool.parameters
          : { type: 'object', properties: { query: { type: 'string' } } };
      const args = boundedSampleForSchema(schema, hint, maxBytes);
      const toolCall = {
        id: `call_${this.calls}`,
        name: tool.name,
        arguments: JSON.stringify(args.value),
      };
      const finish = args.truncated ? 'length' : 'tool_calls';
      return this.response({ role: 'assistant', toolCalls: [toolCall] }, inputTokens, finish);
    }

    let text: string;
    let cut = false;
    if (params.responseFormat?.type === 'json') {
      const sample = boundedSampleForSchema(
        params.responseFormat.jsonSchema?.schema,
        lastUserText(conversation),
        maxBytes,
      );
      text = JSON.stringify(sample.value);
      cut = sample.truncated;
    } else {
      text = demoAnswerText(
        { ...request, messages: conversation },
        who,
        this.options.style ?? 'brief',
      );
    }
    if (prefill && text.startsWith(prefill)) text = text.slice(prefill.length);
    // a tool result or a question is echoed in part; the answer still stays within its bound
    const capped = capBytes(text, maxBytes);
    text = capped.text;
    cut ||= capped.cut;
    if (params.maxOutputTokens !== undefined) {
      const words = text.match(/\S+\s*/g) ?? [];
      if (words.length > params.maxOutputTokens) {
        text = words.slice(0, params.maxOutputTokens).join('');
        return this.response({ role: 'assistant', text }, inputTokens, 'length');
      }
    }
    return this.response({ role: 'assistant', text }, inputTokens, cut ? 'length' : 'stop');
  }

  private response(
    aiMessage: ChatResponse['aiMessage'],
    inputTokens: number,
    finishReason: ChatResponse['finishReason'],
  ): ChatResponse {
    const outputTokens =
      (aiMessage.text?.match(/\S+/g) ?? []).length + (aiMessage.toolCalls?.length ?? 0) * 8;
    return {
      aiMessage,
      modelName: this.name,
      finishReason,
      id: `local-${this.name}-${this.calls}`,
      tokenUsage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    };
  }
}

/** Most deltas in one demo stream: each costs a client a frame of its own. */
const MAX_STREAM_PIECES = 512;

/** Word by word, as a model streams; a long answer in as many pieces of several words. */
function streamPieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  if (words.length <= MAX_STREAM_PIECES) return words;
  const size = Math.ceil(words.length / MAX_STREAM_PIECES);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += size) pieces.push(words.slice(i, i + size).join(''));
  return pieces;
}

/** A trailing assistant message is a prefill: the answer continues it. */
function splitPrefill(messages: readonly ChatMessage[]): {
  conversation: ChatMessage[];
  prefill?: string;
} {
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant' && last.text && !last.toolCalls?.length) {
    return { conversation: messages.slice(0, -1), prefill: last.text };
  }
  return { conversation: [...messages] };
}

function countTokens(messages: readonly ChatMessage[]): number {
  let words = 0;
  for (const m of messages) {
    const text =
      m.role === 'user'
        ? typeof m.content === 'string'
          ? m.content
          : m.content.map((p) => (p.type === 'text' ? p.text : 'attachment')).join(' ')
        : (m.text ?? '');
    words += countWords(text);
  }
  return words;
}

function stringAttr<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  return typeof value === 'string' ? ({ [key]: value } as Record<K, string>) : {};
}

/** The tool a request makes the model call: the named one, else the first offered. */
function toolToCall(params: ChatRequestParameters): ToolSpecification | undefined {
  const choice = params.toolChoice;
  if (typeof choice === 'object') return params.tools?.find((tool) => tool.name === choice.name);
  return params.tools?.[0];
}
