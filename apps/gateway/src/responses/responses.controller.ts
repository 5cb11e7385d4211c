import { Body, Controller, Inject, Logger, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Clock, RoutingChatService } from 'nest-model-router';
import { answeredBy, settleAnswer } from '../http/answered-by.js';
import type { SecretRedactor } from '../http/config-secrets.js';
import { addressedCallOptions } from '../http/request-call-options.js';
import { GATEWAY_CLOCK, GATEWAY_REDACTOR, GATEWAY_TOOL_CALL_IDS } from '../http/gateway-tokens.js';
import { ShutdownGrace } from '../http/shutdown-grace.js';
import { StreamBackpressure } from '../http/stream-backpressure.js';
import { streamReply } from '../http/stream-reply.js';
import { ModelResolver } from '../models/model-resolver.js';
import { idsOf, type ToolCallIds } from '../openai/tool-call-ids.js';
import { ResponseEventEncoder } from './response-event-encoder.js';
import { WireBodyPipe } from '../http/wire-body.pipe.js';
import { responsesBody, type ResponsesRequest } from './responses-body.js';
import { toChatRequest } from './to-chat-request.js';
import { echoOf, itemId, outputItems, responseObject } from './to-response.js';

/**
 * OpenAI's Responses API, stateless: each request carries its whole conversation and is routed,
 * failed over and recorded exactly as a chat completion (RoutingChatService, ModelResolver,
 * the same call record and error table). Nothing is stored, so nothing can be retrieved.
 */
@Controller('v1')
export class ResponsesController {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly service: RoutingChatService,
    private readonly resolver: ModelResolver,
    private readonly shutdown: ShutdownGrace,
    private readonly backpressure: StreamBackpressure,
    @Inject(GATEWAY_TOOL_CALL_IDS) private readonly ids: ToolCallIds,
    @Inject(GATEWAY_REDACTOR) private readonly redactor: SecretRedactor,
    @Inject(GATEWAY_CLOCK) private readonly clock: Clock,
  ) {}

  @Post('responses')
  async create(
    @Body(new WireBodyPipe(responsesBody)) body: ResponsesRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const addressed = addressedCallOptions(reply, this.resolver, body);
    const id = itemId('resp');
    const createdAt = Math.floor(this.clock() / 1000);
    const echo = echoOf(body);
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
          new ResponseEventEncoder(
            id,
            createdAt,
            echo,
            () => answeredBy(record(), options),
            idsOf(this.ids, reply),
            // the headers left before the cost was known: it goes in the final usage
            (response) =>
              this.resolver.costOf(answeredBy(record(), options).origin.model, response),
          ),
        this.logger,
        this.shutdown,
        this.redactor,
        this.backpressure,
      );
      return;
    }
    const response = await this.service.chat(request, options);
    const { by, cost } = settleAnswer(reply, this.resolver, options, response, body.model);
    await reply.status(200).send(
      responseObject(id, createdAt, by.model, echo, {
        status: 'done',
        response,
        output: outputItems(response, by, idsOf(this.ids, reply)),
        ...(cost !== undefined ? { costUsd: cost } : {}),
      }),
    );
  }
}
