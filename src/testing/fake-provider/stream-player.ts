import type { ServerResponse } from 'node:http';
import type { FaultBehaviour } from './faults.js';
import { isGone, writeFlushed } from './http-io.js';
import type { TimerRegistry } from './timer-registry.js';

/**
 * One SSE frame of a streamed answer. `token` frames carry content (text or tool-argument
 * pieces) and are what `cut-after-<n>` / `stall-after-<n>` count; `terminator` frames
 * (`data: [DONE]`, `message_stop`) are what `no-done` leaves out.
 */
export interface StreamFrame {
  data: string;
  /** `finish`: the frames that report the finish reason and usage. */
  kind: 'meta' | 'token' | 'finish' | 'terminator';
}

export interface StreamPlan {
  frames: StreamFrame[];
  /** The dialect's in-stream error frame, for `error-after-<n>`. */
  errorFrame: string;
  /** The dialect's unparseable frame, for `malformed-chunk`. */
  malformedFrame: string;
}

/**
 * Plays a streamed answer with a fault applied. Stream faults that count tokens act after
 * min(n, tokens) tokens, so the answer is never accidentally complete.
 */
export async function playStream(
  res: ServerResponse,
  plan: StreamPlan,
  fault: FaultBehaviour | undefined,
  timers: TimerRegistry,
  tokenDelayMs: number,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const tokenFrames = plan.frames.filter((frame) => frame.kind === 'token').length;
  const limit = countingLimit(fault, tokenFrames);
  let tokensSent = 0;
  for (const frame of plan.frames) {
    if (
      frame.kind === 'terminator' &&
      (fault?.type === 'no-done' || fault?.type === 'no-done-open')
    ) {
      continue;
    }
    // only reached with a limit of 0: stop before any content or finish
    if (limit !== undefined && frame.kind !== 'meta' && tokensSent >= limit) {
      return endEarly(res, plan, fault!);
    }
    if (frame.kind === 'token') {
      const delay =
        tokensSent === 0 && fault?.type === 'slow-first-token' ? fault.ms : tokenDelayMs;
      if (!(await timers.sleep(delay)) || isGone(res)) return;
    }
    if (!(await writeFlushed(res, frame.data))) return;
    if (frame.kind === 'token') {
      tokensSent++;
      if (tokensSent === limit) return endEarly(res, plan, fault!);
      if (tokensSent === 1 && fault?.type === 'malformed-chunk') {
        if (!(await writeFlushed(res, plan.malformedFrame))) return;
      }
    }
  }
  // no-done-open: everything said, the connection left open until the client or close() ends it
  if (fault?.type !== 'no-done-open') res.end();
}

function countingLimit(fault: FaultBehaviour | undefined, tokens: number): number | undefined {
  if (
    fault?.type === 'cut-after' ||
    fault?.type === 'stall-after' ||
    fault?.type === 'error-after'
  ) {
    return Math.min(fault.tokens, tokens);
  }
  return undefined;
}

async function endEarly(
  res: ServerResponse,
  plan: StreamPlan,
  fault: FaultBehaviour,
): Promise<void> {
  if (fault.type === 'cut-after') {
    res.socket?.destroy();
  } else if (fault.type === 'error-after') {
    if (await writeFlushed(res, plan.errorFrame)) res.end();
  }
  // stall-after: say nothing more and keep the connection open until the client or close() ends it
}
