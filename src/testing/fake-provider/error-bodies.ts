export interface ErrorContext {
  model: string;
  /** The key the client sent; a real provider echoes it back in 401 messages. */
  presentedKey?: string;
}

export interface DialectError {
  status: number;
  body: unknown;
}

/** OpenAI's error JSON for a status, shaped like the real API's. */
export function openAiStatusError(status: number, ctx: ErrorContext): DialectError {
  const [message, type, code] = openAiDetails(status, ctx);
  return { status, body: { error: { message, type, param: null, code } } };
}

function openAiDetails(status: number, ctx: ErrorContext): [string, string, string | null] {
  switch (status) {
    case 400:
      return ['Invalid request (fake provider fault).', 'invalid_request_error', null];
    case 401:
      return [
        `Incorrect API key provided: ${ctx.presentedKey ?? '(none)'}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      ];
    case 403:
      return [
        `You are not allowed to use model '${ctx.model}'.`,
        'invalid_request_error',
        'model_not_allowed',
      ];
    case 404:
      return [
        `The model '${ctx.model}' does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      ];
    case 429:
      return [
        `Rate limit reached for ${ctx.model}. Please try again later.`,
        'requests',
        'rate_limit_exceeded',
      ];
    default:
      return status >= 500
        ? [
            'The server had an error while processing your request. Sorry about that!',
            'server_error',
            null,
          ]
        : [
            `Request failed with status ${status} (fake provider fault).`,
            'invalid_request_error',
            null,
          ];
  }
}

export function openAiContextLengthError(): DialectError {
  return {
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  };
}

/** Azure OpenAI's shape for a prompt blocked by its content filter. */
export function openAiContentFilterError(): DialectError {
  return {
    status: 400,
    body: {
      error: {
        message:
          'The response was filtered due to the prompt triggering content management policy. Please modify your prompt and retry.',
        type: null,
        param: 'prompt',
        code: 'content_filter',
        status: 400,
        innererror: { code: 'ResponsibleAIPolicyViolation' },
      },
    },
  };
}

/** Anthropic's error JSON: `{ type: 'error', error: { type, message } }`. */
export function anthropicStatusError(status: number, ctx: ErrorContext): DialectError {
  const [type, message] = anthropicDetails(status, ctx);
  return { status, body: anthropicBody(type, message) };
}

function anthropicDetails(status: number, ctx: ErrorContext): [string, string] {
  switch (status) {
    case 400:
      return ['invalid_request_error', 'Invalid request (fake provider fault).'];
    case 401:
      return ['authentication_error', `invalid x-api-key: ${ctx.presentedKey ?? '(none)'}`];
    case 403:
      return [
        'permission_error',
        `Your API key does not have permission to use model ${ctx.model}.`,
      ];
    case 404:
      return ['not_found_error', `model: ${ctx.model}`];
    case 413:
      return ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'];
    case 429:
      return ['rate_limit_error', 'Number of requests has exceeded your rate limit.'];
    case 503:
    case 529:
      return ['overloaded_error', 'Overloaded'];
    default:
      return status >= 500
        ? ['api_error', 'Internal server error']
        : ['invalid_request_error', `Request failed with status ${status} (fake provider fault).`];
  }
}

export function anthropicBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

export function anthropicContextLengthError(): DialectError {
  return {
    status: 400,
    body: anthropicBody(
      'invalid_request_error',
      'prompt is too long: 210000 tokens > 200000 maximum',
    ),
  };
}

export function anthropicContentFilterError(): DialectError {
  return {
    status: 400,
    body: anthropicBody('invalid_request_error', 'Output blocked by content filtering policy'),
  };
}
