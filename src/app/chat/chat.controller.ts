import { Body, Controller, Post, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { MODEL_ATTRIBUTE } from '../../core/group/model-attribute.js';
import { ChatRequestDto } from '../../nest/dto/chat-request.dto.js';
import {
  MODEL_HEADER,
  ModelRoutingInterceptor,
  ROUTE_HEADER,
} from '../../nest/http/model-routing.interceptor.js';
import { toHeaderValue } from '../../nest/http/header-value.js';
import { GatewayCallScope, runInGatewayCall } from '../call/gateway-call-scope.js';
import { GatewayChatService } from '../call/gateway-chat.service.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import { JsonBodyValidationPipe } from '../http/json-body-validation.pipe.js';
import { ModelResolver } from '../models/model-resolver.js';

/**
 * The Nest module's own API over HTTP: a ChatRequest (ChatRequestDto) in, the ChatResponse out,
 * through RoutingChatService with the router named in the body (default: the default router).
 */
@Controller()
@UseInterceptors(ModelRoutingInterceptor) // x-model-router-session → the call's session
export class ChatController {
  constructor(
    private readonly service: GatewayChatService,
    private readonly resolver: ModelResolver,
  ) {}

  @Post('chat')
  async chat(
    @Body(new JsonBodyValidationPipe(ChatRequestDto)) body: ChatRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.resolver.assertRouter(body.router);
    const scope = new GatewayCallScope();
    const response = await runInGatewayCall(scope, () =>
      this.service.chat(ChatRequestDto.toChatRequest(body), {
        ...(body.router !== undefined ? { router: body.router } : {}),
        signal: abortOnDisconnect(reply.raw),
      }),
    );
    const model = response.aiMessage.attributes?.[MODEL_ATTRIBUTE] ?? scope.model;
    await reply
      .status(200)
      .headers({
        ...(scope.route ? { [ROUTE_HEADER]: toHeaderValue(scope.route) } : {}),
        ...(typeof model === 'string' ? { [MODEL_HEADER]: toHeaderValue(model) } : {}),
      })
      .send(response);
  }
}
