import type { ToolCall, ToolCallDeltaEvent } from 'nest-model-router';
import type { WireToolCallDelta } from './wire-types.js';

interface StreamedCall {
  index: number;
  /** The provider's id (the wire id is it, encoded with the call's origin). */
  id: string;
  arguments: string;
  done: boolean;
}

/**
 * Numbers a stream's tool calls for the wire and keeps what each has sent, so the whole
 * `tool-call` event that follows the deltas adds only what they did not carry (nothing, as a
 * rule). A tool call that came without deltas is sent whole under the next index.
 */
export class ToolCallDeltas {
  private readonly byUpstreamIndex = new Map<number, StreamedCall>();
  private readonly calls: StreamedCall[] = [];

  constructor(private readonly wireId: (providerId: string) => string) {}

  delta(event: ToolCallDeltaEvent): WireToolCallDelta {
    const known = this.byUpstreamIndex.get(event.index);
    if (known) {
      known.arguments += event.argumentsDelta;
      return {
        index: known.index,
        function: { ...(event.name ? { name: event.name } : {}), arguments: event.argumentsDelta },
      };
    }
    const call = this.open(event.id ?? `call_${event.index}`, event.argumentsDelta);
    this.byUpstreamIndex.set(event.index, call);
    return {
      index: call.index,
      id: this.wireId(call.id),
      type: 'function',
      function: { name: event.name ?? '', arguments: event.argumentsDelta },
    };
  }

  /** What the wire still needs of a finished tool call; undefined when its deltas said it all. */
  complete(toolCall: ToolCall): WireToolCallDelta | undefined {
    const streamed =
      this.calls.find((call) => !call.done && call.id === toolCall.id) ??
      this.calls.find((call) => !call.done);
    if (!streamed) {
      const call = this.open(toolCall.id, toolCall.arguments);
      call.done = true;
      return {
        index: call.index,
        id: this.wireId(call.id),
        type: 'function',
        function: { name: toolCall.name, arguments: toolCall.arguments },
      };
    }
    streamed.done = true;
    // e.g. Anthropic's empty input, which the provider completes to '{}'
    const rest = toolCall.arguments.startsWith(streamed.arguments)
      ? toolCall.arguments.slice(streamed.arguments.length)
      : '';
    return rest ? { index: streamed.index, function: { arguments: rest } } : undefined;
  }

  private open(id: string, args: string): StreamedCall {
    const call = { index: this.calls.length, id, arguments: args, done: false };
    this.calls.push(call);
    return call;
  }
}
