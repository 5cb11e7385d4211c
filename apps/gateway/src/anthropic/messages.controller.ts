import { Body, Controller, Inject, Logger, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RoutingChatService } from 'nest-model-router';
import { answeredBy, settleAnswer } from '../http/answered-by.js';
import type { SecretRedactor } from '../http/config-secrets.js';
import { addressedCallOptions } from '../http/request-call-options.js';
import { GATEWAY_REDACTOR, GATEWAY_TOOL_CALL_IDS } from '../http/gateway-tokens.js';
import { ShutdownGrace } from '../http/shutdown-grace.js';
import { StreamBackpressure } from '../http/stream-backpressure.js';
import { streamReply } from '../http/stream-reply.js';
import { ModelResolver } from '../models/model-resolver.js';
import { idsOf, type ToolCallIds } from '../openai/tool-call-ids.js';
import { AnthropicExceptionFilter } from './anthropic-exception.filter.js';
import { WireBodyPipe } from '../http/wire-body.pipe.js';
import { MessageEventEncoder } from './message-event-encoder.js';
import { type AnthropicMessagesRequest, messagesBody } from './messages-body.js';
import { toChatRequest } from './to-chat-request.js';
import { messageId, toAnthropicMessage } from './to-message.js';

/**
 * Anthropic's Messages API inbound, so the Anthropic SDK works with `baseURL` set to the gateway:
 * routed, failed over and recorded as chat completions are; errors in Anthropic's shape. The
 * client's key may come as `x-api-key` (Anthropic's header) as well as `Authorization`.
 */
@Controller('v1')
@UseFilters(AnthropicExceptionFilter)
export class MessagesController {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly service: RoutingChatService,
    private readonly resolver: ModelResolver,
    private readonly shutdown: ShutdownGrace,
    private readonly backpressure: StreamBackpressure,
    @Inject(GATEWAY_TOOL_CALL_IDS) private readonly ids: ToolCallIds,
    @Inject(GATEWAY_REDACTOR) private readonly redactor: SecretRedactor,
  ) {}

  @Post('messages')
  async create(
    @Body(new WireBodyPipe(messagesBody)) body: AnthropicMessagesRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const addressed = addressedCallOptions(reply, this.resolver, body);
    const id = messageId();
    const request = toChatRequest(body, idsOf(this.ids, reply));
    // a body its schema passed maps to a well-formed ChatRequest: the service need not walk it
    const options = { ...addressed, checkedRequest: request };
    if (body.stream) {
      await streamReply(
        this.service,
        request,
        options,
        reply,
        (record) =>
          new MessageEventEncoder(id, () => answeredBy(record(), options), idsOf(this.ids, reply)),
        this.logger,
        this.shutdown,
        this.redactor,
        this.backpressure,
      );
      return;
    }
    const response = await this.service.chat(request, options);
    const { by } = settleAnswer(reply, this.resolver, options, response, body.model);
    await reply.status(200).send(toAnthropicMessage(id, response, by, idsOf(this.ids, reply)));
  }
}
