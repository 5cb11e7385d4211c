import { Body, Controller, Inject, Logger, Post, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { JsonBodyValidationPipe, RoutingChatService } from 'nest-model-router';
import { answeredBy, settleAnswer } from '../http/answered-by.js';
import type { SecretRedactor } from '../http/config-secrets.js';
import { addressedCallOptions } from '../http/request-call-options.js';
import { GATEWAY_REDACTOR, GATEWAY_TOOL_CALL_IDS } from '../http/gateway-tokens.js';
import { ShutdownGrace } from '../http/shutdown-grace.js';
import { StreamBackpressure } from '../http/stream-backpressure.js';
import { streamReply } from '../http/stream-reply.js';
import { ModelResolver } from '../models/model-resolver.js';
import type { ToolCallIds } from '../openai/tool-call-ids.js';
import { AnthropicExceptionFilter } from './anthropic-exception.filter.js';
import type { AnthropicMessagesRequest } from './anthropic-wire-types.js';
import { MessageEventEncoder } from './message-event-encoder.js';
import { acceptsMessages } from './messages-schema.js';
import { MessagesRequestDto } from './messages-request.dto.js';
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
    @Body(new JsonBodyValidationPipe(MessagesRequestDto, {}, acceptsMessages))
    dto: MessagesRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const body = dto as unknown as AnthropicMessagesRequest;
    const options = addressedCallOptions(reply, this.resolver, body);
    const id = messageId();
    const request = toChatRequest(body, this.ids);
    if (body.stream) {
      await streamReply(
        this.service,
        request,
        options,
        reply,
        (record) => new MessageEventEncoder(id, () => answeredBy(record(), options), this.ids),
        this.logger,
        this.shutdown,
        this.redactor,
        this.backpressure,
      );
      return;
    }
    const response = await this.service.chat(request, options);
    const { by } = settleAnswer(reply, this.resolver, options, response, body.model);
    await reply.status(200).send(toAnthropicMessage(id, response, by, this.ids));
  }
}
