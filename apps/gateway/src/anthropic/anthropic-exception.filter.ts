import { Catch } from '@nestjs/common';
import { OpenAiExceptionFilter } from '../http/openai-exception.filter.js';
import type { WireError } from '../openai/openai-error.js';
import { fromWireError } from './anthropic-error.js';

/**
 * The Messages endpoint's errors in Anthropic's shape (`{ type: 'error', error: { type,
 * message } }`), so the Anthropic SDK raises its typed errors; status, headers, logging and
 * redaction as OpenAiExceptionFilter.
 */
@Catch()
export class AnthropicExceptionFilter extends OpenAiExceptionFilter {
  protected override shape(wire: WireError) {
    return fromWireError(wire);
  }
}
