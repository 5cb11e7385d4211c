import OpenAI, { APIError } from 'openai';

/** What one call through the gateway gave its caller, as the official `openai` client saw it. */
export interface Outcome {
  ms: number;
  /** The HTTP status (200 for a stream that started, whatever happened later). */
  status?: number;
  /** The answer's text (for a stream: every delta received, even when it then failed). */
  text: string;
  /** Which model answered: `x-model-router-model`, else the body's `model`. */
  model?: string;
  /** The finish reason, when the answer said one. */
  finish?: string | null;
  /** The token counts a plain answer reported. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  /** The error the caller got (HTTP error, or an error event after the stream started). */
  error?: { status?: number; code?: string; type?: string; message: string; midStream: boolean };
  /** The client gave up waiting (`limitMs`): a hang. */
  hung: boolean;
  /** Every byte of error and header the caller saw, to look for secrets and stack traces. */
  seen: string;
}

export interface Ask {
  router: string;
  stream: boolean;
  prompt?: string;
  /** The client gives up after this long and reports a hang. */
  limitMs: number;
  /** The caller hangs up once a stream has brought this many characters. */
  abortAfterChars?: number;
  /** Extra request fields (e.g. `max_tokens`). */
  body?: Record<string, unknown>;
}

export const PROMPT = 'What is the capital of France?';

/** The FakeProvider's deterministic answer from upstream model `id` to PROMPT. */
export const fakeAnswer = (id: string, prompt = PROMPT) => `You said: ${prompt} (model ${id})`;

export function faultClient(baseURL: string): (ask: Ask) => Promise<Outcome> {
  const client = new OpenAI({ baseURL, apiKey: 'sk-caller-unused', maxRetries: 0 });
  return async (ask) => {
    const started = performance.now();
    const controller = new AbortController();
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      controller.abort();
    }, ask.limitMs);
    const outcome: Outcome = { ms: 0, text: '', hung: false, seen: '' };
    const messages = [{ role: 'user' as const, content: ask.prompt ?? PROMPT }];
    try {
      if (ask.stream) {
        const { data, response } = await client.chat.completions
          .create(
            { model: ask.router, messages, stream: true, ...ask.body },
            { signal: controller.signal, timeout: ask.limitMs },
          )
          .withResponse();
        outcome.status = response.status;
        outcome.seen += headerText(response.headers);
        outcome.model = response.headers.get('x-model-router-model') ?? undefined;
        for await (const chunk of data) {
          outcome.model ??= chunk.model;
          const choice = chunk.choices[0];
          outcome.text += choice?.delta?.content ?? '';
          if (choice?.finish_reason) outcome.finish = choice.finish_reason;
          if (ask.abortAfterChars !== undefined && outcome.text.length >= ask.abortAfterChars) {
            controller.abort();
            break;
          }
        }
      } else {
        const { data, response } = await client.chat.completions
          .create(
            { model: ask.router, messages, ...ask.body },
            { signal: controller.signal, timeout: ask.limitMs },
          )
          .withResponse();
        outcome.status = response.status;
        outcome.seen += headerText(response.headers);
        outcome.model = response.headers.get('x-model-router-model') ?? data.model;
        outcome.text = data.choices[0]?.message.content ?? '';
        outcome.finish = data.choices[0]?.finish_reason;
        if (data.usage) outcome.usage = data.usage;
      }
    } catch (error) {
      if (error instanceof APIError) {
        const body = (error.error ?? {}) as { code?: string; type?: string; message?: string };
        outcome.status ??= error.status;
        outcome.error = {
          ...(error.status === undefined ? {} : { status: error.status }),
          ...(body.code ? { code: body.code } : {}),
          ...(body.type ? { type: body.type } : {}),
          message: body.message ?? error.message,
          midStream: outcome.status === 200,
        };
        outcome.seen += JSON.stringify(error.error ?? null) + headerText(error.headers);
      } else if (!hung) {
        outcome.error = { message: String(error), midStream: outcome.status === 200 };
        outcome.seen += String(error);
      }
    } finally {
      clearTimeout(timer);
    }
    outcome.hung = hung;
    outcome.ms = performance.now() - started;
    return outcome;
  };
}

function headerText(headers: Headers | undefined): string {
  if (!headers) return '';
  return [...headers].map(([name, value]) => `${name}: ${value}`).join('\n');
}
