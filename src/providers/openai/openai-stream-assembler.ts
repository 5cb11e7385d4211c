import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatStreamEvent } from '../../core/chat/chat-model.js';
import type { ToolCall } from '../../core/chat/messages.js';
import type { ChatResponse, FinishReason, TokenUsage } from '../../core/chat/response.js';
import type { TokenLogprob } from '../../core/chat/logprobs.js';
import {
  contentText,
  toAiMessage,
  toFinishReason,
  toTokenLogprobs,
  toTokenUsage,
  toUpstreamInfo,
} from './openai-response-mapper.js';

type ToolCallFragment = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Folds chat completion chunks into stream events and the final response: text deltas as they
 * come, tool-call fragments as deltas, and each tool call assembled by `index` and emitted whole
 * at the end.
 */
export class OpenAiStreamAssembler {
  private text = '';
  private refusal = '';
  private readonly toolCalls = new Map<number, PartialToolCall>();
  private readonly logprobs: TokenLogprob[] = [];
  private rawFinish: string | null = null;
  private usage?: TokenUsage;
  private id?: string;
  private answeringModel?: string;
  private systemFingerprint?: string;
  private serviceTier?: string;

  constructor(private readonly requestedModel: string) {}

  /** The provider has said why it stopped. */
  get finished(): boolean {
    return this.rawFinish !== null;
  }

  /** The finish reason as the server said it (`stop`, `length`, `abort`…), once it has. */
  get rawFinishReason(): string | null {
    return this.rawFinish;
  }

  get hasUsage(): boolean {
    return this.usage !== undefined;
  }

  /** The text and tool-call deltas carried by one chunk. */
  push(chunk: Partial<ChatCompletionChunk>): ChatStreamEvent[] {
    const events: ChatStreamEvent[] = [];
    if (chunk.id && !this.id) this.id = chunk.id;
    if (chunk.model && !this.answeringModel) this.answeringModel = chunk.model;
    if (chunk.system_fingerprint) this.systemFingerprint = chunk.system_fingerprint;
    if (chunk.service_tier) this.serviceTier = chunk.service_tier;
    const usage = toTokenUsage(chunk.usage);
    if (usage) this.usage = usage;
    const choice = chunk.choices?.find((c) => c.index === 0) ?? chunk.choices?.[0];
    if (!choice) return events;
    const delta = choice.delta ?? {};
    const content = contentText(delta.content);
    if (content !== '') {
      this.text += content;
      events.push({ type: 'text-delta', text: content });
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refusal += delta.refusal;
      if (this.text === '') events.push({ type: 'text-delta', text: delta.refusal });
    }
    for (const fragment of delta.tool_calls ?? []) events.push(this.addToolFragment(fragment));
    if (choice.logprobs?.content) this.logprobs.push(...toTokenLogprobs(choice.logprobs.content));
    if (choice.finish_reason) this.rawFinish = choice.finish_reason;
    return events;
  }

  /**
   * One fragment of a tool call, forwarded as a delta. The call's id is fixed by its first
   * fragment (a fallback when that has none), so the deltas and the final tool call agree.
   */
  private addToolFragment(fragment: ToolCallFragment): ChatStreamEvent {
    const known = this.toolCalls.get(fragment.index);
    const call = known ?? {
      id: fragment.id || `call_${fragment.index}`,
      name: '',
      arguments: '',
    };
    const name = fragment.function?.name ?? '';
    const argumentsDelta = fragment.function?.arguments ?? '';
    call.name += name;
    call.arguments += argumentsDelta;
    this.toolCalls.set(fragment.index, call);
    return {
      type: 'tool-call-delta',
      index: fragment.index,
      ...(known ? {} : { id: call.id }),
      ...(name ? { name } : {}),
      argumentsDelta,
    };
  }

  /** The tool-call events and the final `complete`; call once `finished`. */
  finish(): ChatStreamEvent[] {
    const toolCalls: ToolCall[] = [...this.toolCalls.entries()]
      .toSorted(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id,
        name: call.name,
        arguments: call.arguments,
      }));
    const response: ChatResponse = {
      aiMessage: toAiMessage({
        text: this.text,
        ...(this.refusal ? { refusal: this.refusal } : {}),
        toolCalls,
        logprobs: this.logprobs,
      }),
      modelName: this.answeringModel || this.requestedModel,
    };
    const finishReason: FinishReason | undefined = toFinishReason(
      this.rawFinish,
      toolCalls.length > 0,
    );
    if (finishReason) response.finishReason = finishReason;
    if (this.usage) response.tokenUsage = this.usage;
    if (this.id) response.id = this.id;
    const upstream = toUpstreamInfo(this.systemFingerprint, this.serviceTier);
    if (upstream) response.upstream = upstream;
    return [
      ...toolCalls.map((toolCall): ChatStreamEvent => ({ type: 'tool-call', toolCall })),
      { type: 'complete', response },
    ];
  }
}
