import { hostileBodies, type HostileBody } from './hostile-bodies.js';

export interface HostileResult {
  sent: number;
  /** 4xx answers: the bodies are meant to be refused. */
  refused: number;
  /** 5xx answers: must be 0. */
  serverErrors: number;
  /** Not answered within the bound: must be 0. */
  hangs: number;
  largestAnswerBytes: number;
}

/**
 * One client that sends the fuzz corpus's hostile bodies one after another, round and round,
 * beside the load, until `stop()`: a caller's garbage must not slow, crash or confuse the others.
 */
export function startHostileClient(origin: string, boundMs: number, corpusSize = 2000) {
  // dropped on stop: the corpus (MBs of oversized arrays) is the bench's memory, not the gateway's
  let corpus: HostileBody[] = hostileBodies(corpusSize, 7);
  const result: HostileResult = {
    sent: 0,
    refused: 0,
    serverErrors: 0,
    hangs: 0,
    largestAnswerBytes: 0,
  };
  const state = { stopped: false };
  const running = (async () => {
    for (let i = 0; !state.stopped; i = (i + 1) % corpus.length) {
      const body = corpus[i]!;
      const signal = AbortSignal.timeout(boundMs);
      try {
        const response = await fetch(`${origin}${body.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body.raw,
          signal,
        });
        const bytes = (await response.arrayBuffer()).byteLength;
        result.largestAnswerBytes = Math.max(result.largestAnswerBytes, bytes);
        if (response.status >= 500) result.serverErrors++;
        else if (response.status >= 400) result.refused++;
      } catch {
        if (signal.aborted) result.hangs++;
        else result.serverErrors++;
      }
      result.sent++;
    }
  })();
  return {
    async stop(): Promise<HostileResult> {
      state.stopped = true;
      await running;
      corpus = [];
      return result;
    },
  };
}
