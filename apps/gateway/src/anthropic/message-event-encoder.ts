import type {
  ChatResponse,
  ChatStreamEvent,
  TokenUsage,
  ToolCall,
  ToolCallDeltaEvent,
} from 'nest-model-router';
import type { AnsweredBy } from '../http/answered-by.js';
import type { SseMessage } from '../http/event-stream.js';
import type { StreamEncoder } from '../http/stream-reply.js';
import type { WireError } from '../openai/openai-error.js';
import type { ToolCallIds } from '../openai/tool-call-ids.js';
import { fromWireError } from './anthropic-error.js';
import { toAnthropicUsage, toStopReason, toolInput } from './to-message.js';

interface ToolBlock {
  index: number;
  providerId: string;
  json: string;
  open: boolean;
}

/**
 * Turns stream events into Anthropic's: `message_start`, then per content block
 * `content_block_start` / `_delta` (text_delta, input_json_delta) / `_stop`, then
 * `message_delta` (stop reason and usage) and `message_stop`. A failure ends the stream with an
 * `error` event and no `message_stop`.
 */
export class MessageEventEncoder implements StreamEncoder {
  private started = false;
  private blocks = 0;
  private textBlock?: number;
  private readonly toolsByUpstream = new Map<number, ToolBlock>();
  private readonly tools: ToolBlock[] = [];
  /** The input tokens the upstream told before its answer (Anthropic's own message_start). */
  private inputUsage?: TokenUsage & { model: string };

  constructor(
    private readonly id: string,
    private readonly answeredBy: () => AnsweredBy,
    private readonly ids: ToolCallIds,
  ) {}

  encode(event: ChatStreamEvent): SseMessage[] {
    if (event.type === 'input-usage') {
      // kept for message_start, which waits for the first output (a failover may yet happen)
      if (!this.started) this.inputUsage = { model: this.answeredBy().model, ...event.tokenUsage };
      return [];
    }
    const out: SseMessage[] = [];
    if (!this.started) {
      this.started = true;
      out.push(
        message('message_start', {
          message: {
            id: this.id,
            type: 'message',
            role: 'assistant',
            model: this.answeredBy().model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            // the input tokens when the upstream told them first (Anthropic's own message_start);
            // otherwise known at the end: message_delta carries the whole count
            usage: toAnthropicUsage(
              // a count from a model that failed before its output is not the server's
              this.inputUsage?.model === this.answeredBy().model ? this.inputUsage : undefined,
            ),
          },
        }),
      );
    }
    switch (event.type) {
      case 'text-delta':
        if (event.text) this.text(event.text, out);
        break;
      case 'tool-call-delta':
        this.toolDelta(event, out);
        break;
      case 'tool-call':
        this.toolDone(event.toolCall, out);
        break;
      case 'complete':
        this.finish(event.response, out);
        break;
      default:
        break; // an event type the gateway does not know: clients need nothing of it
    }
    return out;
  }

  fail(error: WireError): SseMessage[] {
    return [message('error', fromWireError(error).body)];
  }

  private text(text: string, out: SseMessage[]): void {
    if (this.textBlock === undefined) {
      this.textBlock = this.blocks++;
      out.push(
        message('content_block_start', {
          index: this.textBlock,
          content_block: { type: 'text', text: '' },
        }),
      );
    }
    out.push(
      message('content_block_delta', {
        index: this.textBlock,
        delta: { type: 'text_delta', text },
      }),
    );
  }

  private closeText(out: SseMessage[]): void {
    if (this.textBlock === undefined) return;
    out.push(message('content_block_stop', { index: this.textBlock }));
    this.textBlock = undefined;
  }

  private toolDelta(event: ToolCallDeltaEvent, out: SseMessage[]): void {
    let block = this.toolsByUpstream.get(event.index);
    if (!block) {
      block = this.openTool(event.id ?? `call_${event.index}`, event.name ?? '', out);
      this.toolsByUpstream.set(event.index, block);
    }
    this.json(block, event.argumentsDelta, out);
  }

  private toolDone(call: ToolCall, out: SseMessage[]): void {
    const block =
      this.tools.find((b) => b.open && b.providerId === call.id) ??
      this.tools.find((b) => b.open) ??
      this.openTool(call.id, call.name, out);
    // the client parses the joined JSON: nothing streamed yet → the input as a JSON object (an
    // empty input is '{}'); else what the pieces still lack
    if (block.json === '') this.json(block, JSON.stringify(toolInput(call)), out);
    else if (call.arguments.startsWith(block.json)) {
      this.json(block, call.arguments.slice(block.json.length), out);
    }
    block.open = false;
    out.push(message('content_block_stop', { index: block.index }));
  }

  private openTool(providerId: string, name: string, out: SseMessage[]): ToolBlock {
    this.closeText(out);
    const block = { index: this.blocks++, providerId, json: '', open: true };
    this.tools.push(block);
    out.push(
      message('content_block_start', {
        index: block.index,
        content_block: {
          type: 'tool_use',
          id: this.ids.encode(providerId, this.answeredBy().origin),
          name,
          input: {},
        },
      }),
    );
    return block;
  }

  private json(block: ToolBlock, partial: string, out: SseMessage[]): void {
    if (!partial) return;
    block.json += partial;
    out.push(
      message('content_block_delta', {
        index: block.index,
        delta: { type: 'input_json_delta', partial_json: partial },
      }),
    );
  }

  private finish(response: ChatResponse, out: SseMessage[]): void {
    this.closeText(out);
    for (const block of this.tools) {
      if (!block.open) continue;
      block.open = false;
      out.push(message('content_block_stop', { index: block.index }));
    }
    const usage = toAnthropicUsage(response.tokenUsage);
    out.push(
      message('message_delta', {
        delta: { stop_reason: toStopReason(response), stop_sequence: null },
        usage: { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens },
      }),
    );
    out.push(message('message_stop', {}));
  }
}

function message(type: string, fields: object): SseMessage {
  return { event: type, data: { type, ...fields } };
}
