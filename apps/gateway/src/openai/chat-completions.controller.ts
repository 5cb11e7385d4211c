import { Body, Controller, Inject, Logger, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  type ChatRequest,
  type Clock,
  RoutingChatService,
  type RoutingChatOptions,
} from 'nest-model-router';
import { answeredBy, settleAnswer } from '../http/answered-by.js';
import { DONE } from '../http/event-stream.js';
import { addressedCallOptions } from '../http/request-call-options.js';
import { streamReply } from '../http/stream-reply.js';
import type { SecretRedactor } from '../http/config-secrets.js';
import { GATEWAY_CLOCK, GATEWAY_REDACTOR, GATEWAY_TOOL_CALL_IDS } from '../http/gateway-tokens.js';
import { ShutdownGrace } from '../http/shutdown-grace.js';
import { StreamBackpressure } from '../http/stream-backpressure.js';
import { ModelResolver } from '../models/model-resolver.js';
import { WireBodyPipe } from '../http/wire-body.pipe.js';
import { chatCompletionBody, type WireChatCompletionRequest } from './chat-completion-body.js';
import { ChunkEncoder, completionId, toChatCompletion } from './to-chat-completion.js';
import { toChatRequest } from './to-chat-request.js';
import { idsOf, type ToolCallIds } from './tool-call-ids.js';

/** OpenAI's chat completions API over the module's routers and models. */
@Controller('v1')
export class ChatCompletionsController {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly service: RoutingChatService,
    private readonly resolver: ModelResolver,
    @Inject(GATEWAY_CLOCK) private readonly clock: Clock,
    private readonly shutdown: ShutdownGrace,
    private readonly backpressure: StreamBackpressure,
    @Inject(GATEWAY_TOOL_CALL_IDS) private readonly ids: ToolCallIds,
    @Inject(GATEWAY_REDACTOR) private readonly redactor: SecretRedactor,
  ) {}

  /**
   * The request's routing scope (requestCallOptions) makes the `x-model-router-session` header
   * the call's session and writes the `x-model-router-route` / `-model` headers from its record.
   */
  @Post('chat/completions')
  async create(
    @Body(new WireBodyPipe(chatCompletionBody)) wire: WireChatCompletionRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const created = Math.floor(this.clock() / 1000);
    const request = toChatRequest(wire, idsOf(this.ids, reply));
    // the body passed its schema, whose type the mapping turns into a well-formed ChatRequest:
    // the service is told so, and does not walk the messages again
    const options = {
      ...addressedCallOptions(reply, this.resolver, wire),
      checkedRequest: request,
    };
    if (wire.stream) {
      await this.stream(
        request,
        options,
        created,
        reply,
        wire.stream_options?.include_usage === true,
      );
      return;
    }
    const response = await this.service.chat(request, options);
    const { by, cost } = settleAnswer(reply, this.resolver, options, response, wire.model);
    await reply
      .status(200)
      .send(toChatCompletion(response, by, created, cost, idsOf(this.ids, reply)));
  }

  /**
   * OpenAI's chunks as unnamed SSE events: a failure after the first one ends the stream with an
   * error event and without `[DONE]` (see streamReply).
   */
  private stream(
    request: ChatRequest,
    options: RoutingChatOptions,
    created: number,
    reply: FastifyReply,
    includeUsage: boolean,
  ): Promise<void> {
    return streamReply(
      this.service,
      request,
      options,
      reply,
      (record) => {
        // a stream's headers leave before its cost is known: the cost goes in the last chunk's usage
        const chunks = new ChunkEncoder(
          completionId(),
          created,
          () => answeredBy(record(), options),
          (response) => this.resolver.costOf(answeredBy(record(), options).origin.model, response),
          includeUsage,
          idsOf(this.ids, reply),
        );
        return {
          encode: (event) => chunks.encodeJson(event).map((data) => ({ data, raw: true })),
          fail: (error) => [{ data: error.body }],
          done: () => [DONE],
        };
      },
      this.logger,
      this.shutdown,
      this.redactor,
      this.backpressure,
    );
  }
}
