import type {
  ChatResponse,
  ChatStreamEvent,
  ToolCall,
  ToolCallDeltaEvent,
} from 'nest-model-router';
import type { AnsweredBy } from '../http/answered-by.js';
import type { SseMessage } from '../http/event-stream.js';
import type { StreamEncoder } from '../http/stream-reply.js';
import type { WireError } from '../openai/openai-error.js';
import type { ToolCallIds } from '../openai/tool-call-ids.js';
import type { ResponsesOutputItem } from './responses-wire-types.js';
import { itemId, outputText, responseObject, type ResponseEcho } from './to-response.js';

type MessageItem = Extract<ResponsesOutputItem, { type: 'message' }>;
type CallItem = Extract<ResponsesOutputItem, { type: 'function_call' }>;

interface OpenCall {
  item: CallItem;
  index: number;
  providerId: string;
}

/**
 * Turns stream events into the Responses API's typed events, each with its `sequence_number`:
 * `response.created`, then per output item `output_item.added` … `output_item.done` with the
 * text or argument deltas between, and `response.completed` (or `.incomplete`) carrying the
 * whole response. Text opens a message item; a tool call closes it and opens a function call.
 */
export class ResponseEventEncoder implements StreamEncoder {
  private sequence = 0;
  private started = false;
  private readonly output: ResponsesOutputItem[] = [];
  private message?: { item: MessageItem; index: number; text: string };
  private readonly callsByUpstream = new Map<number, OpenCall>();
  private readonly calls: OpenCall[] = [];

  constructor(
    private readonly id: string,
    private readonly createdAt: number,
    private readonly echo: ResponseEcho,
    private readonly answeredBy: () => AnsweredBy,
    private readonly ids: ToolCallIds,
    private readonly costOf: (response: ChatResponse) => number | undefined = () => undefined,
  ) {}

  encode(event: ChatStreamEvent): SseMessage[] {
    // the Responses API tells usage in response.completed only
    if (event.type === 'input-usage') return [];
    const out: SseMessage[] = [];
    if (!this.started) {
      this.started = true;
      const response = this.inProgress();
      out.push(this.event('response.created', { response }));
      out.push(this.event('response.in_progress', { response }));
    }
    switch (event.type) {
      case 'text-delta':
        if (event.text) this.text(event.text, out);
        break;
      case 'tool-call-delta':
        this.callDelta(event, out);
        break;
      case 'tool-call':
        this.callDone(event.toolCall, out);
        break;
      case 'complete': {
        this.closeMessage(out);
        const response = responseObject(this.id, this.createdAt, this.model(), this.echo, {
          status: 'done',
          response: event.response,
          output: this.output,
          ...withCost(this.costOf(event.response)),
        });
        const type =
          response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
        out.push(this.event(type, { response }));
        break;
      }
      default:
        break; // an event type the gateway does not know: clients need nothing of it
    }
    return out;
  }

  /** An `error` event, then `response.failed`: the stream never reports success after it. */
  fail({ body }: WireError): SseMessage[] {
    const { message, code, param } = body.error;
    const failed = {
      ...this.inProgress(),
      status: 'failed' as const,
      output: this.output,
      error: { code: code ?? 'server_error', message },
    };
    return [
      this.event('error', { code: code ?? 'server_error', message, param }),
      this.event('response.failed', { response: failed }),
    ];
  }

  private text(delta: string, out: SseMessage[]): void {
    if (!this.message) {
      const item: MessageItem = {
        type: 'message',
        id: itemId('msg'),
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      this.message = { item, index: this.output.push(item) - 1, text: '' };
      out.push(
        this.event('response.output_item.added', { output_index: this.message.index, item }),
      );
      out.push(
        this.event('response.content_part.added', {
          ...this.textPosition(),
          part: outputText(''),
        }),
      );
    }
    this.message.text += delta;
    out.push(
      this.event('response.output_text.delta', { ...this.textPosition(), delta, logprobs: [] }),
    );
  }

  private closeMessage(out: SseMessage[]): void {
    if (!this.message) return;
    const { item, index, text } = this.message;
    this.message = undefined;
    const part = outputText(text);
    item.content = [part];
    item.status = 'completed';
    const position = { item_id: item.id, output_index: index, content_index: 0 };
    out.push(this.event('response.output_text.done', { ...position, text, logprobs: [] }));
    out.push(this.event('response.content_part.done', { ...position, part }));
    out.push(this.event('response.output_item.done', { output_index: index, item }));
  }

  private callDelta(event: ToolCallDeltaEvent, out: SseMessage[]): void {
    let call = this.callsByUpstream.get(event.index);
    if (!call) {
      call = this.openCall(event.id ?? `call_${event.index}`, event.name ?? '', out);
      this.callsByUpstream.set(event.index, call);
    }
    this.argumentsDelta(call, event.argumentsDelta, out);
  }

  private callDone(toolCall: ToolCall, out: SseMessage[]): void {
    const call =
      this.calls.find((c) => isOpen(c) && c.providerId === toolCall.id) ??
      this.calls.find(isOpen) ??
      this.openCall(toolCall.id, toolCall.name, out);
    const streamed = call.item.arguments;
    if (toolCall.arguments.startsWith(streamed)) {
      this.argumentsDelta(call, toolCall.arguments.slice(streamed.length), out);
    }
    call.item.arguments = toolCall.arguments;
    call.item.status = 'completed';
    out.push(
      this.event('response.function_call_arguments.done', {
        item_id: call.item.id,
        output_index: call.index,
        name: call.item.name,
        arguments: call.item.arguments,
      }),
    );
    out.push(
      this.event('response.output_item.done', { output_index: call.index, item: call.item }),
    );
  }

  private openCall(providerId: string, name: string, out: SseMessage[]): OpenCall {
    this.closeMessage(out);
    const item: CallItem = {
      type: 'function_call',
      id: itemId('fc'),
      call_id: this.ids.encode(providerId, this.answeredBy().origin),
      name,
      arguments: '',
      status: 'in_progress',
    };
    const call = { item, index: this.output.push(item) - 1, providerId };
    this.calls.push(call);
    out.push(
      this.event('response.output_item.added', { output_index: call.index, item: { ...item } }),
    );
    return call;
  }

  private argumentsDelta(call: OpenCall, delta: string, out: SseMessage[]): void {
    if (!delta) return;
    call.item.arguments += delta;
    out.push(
      this.event('response.function_call_arguments.delta', {
        item_id: call.item.id,
        output_index: call.index,
        delta,
      }),
    );
  }

  private textPosition() {
    return { item_id: this.message!.item.id, output_index: this.message!.index, content_index: 0 };
  }

  private inProgress() {
    return responseObject(this.id, this.createdAt, this.model(), this.echo, {
      status: 'in_progress',
    });
  }

  private model(): string {
    return this.answeredBy().model;
  }

  private event(type: string, fields: Record<string, unknown>): SseMessage {
    return { event: type, data: { type, sequence_number: this.sequence++, ...fields } };
  }
}

function isOpen(call: OpenCall): boolean {
  return call.item.status === 'in_progress';
}

function withCost(costUsd: number | undefined): { costUsd?: number } {
  return costUsd === undefined ? {} : { costUsd };
}
