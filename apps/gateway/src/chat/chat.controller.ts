import { Body, Controller, Post, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  ChatRequestDto,
  JsonBodyValidationPipe,
  ModelRoutingInterceptor,
  RoutingChatService,
} from 'nest-model-router';
import { accessOf } from '../auth/key-access.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import { ModelResolver } from '../models/model-resolver.js';

/**
 * The Nest module's own API over HTTP: a ChatRequest (ChatRequestDto) in, the ChatResponse out,
 * through RoutingChatService with the router named in the body (default: the default router).
 * ModelRoutingInterceptor takes `x-model-router-session` as the call's session and writes the
 * `x-model-router-route` / `-model` headers.
 */
@Controller()
@UseInterceptors(ModelRoutingInterceptor)
export class ChatController {
  constructor(
    private readonly service: RoutingChatService,
    private readonly resolver: ModelResolver,
  ) {}

  @Post('chat')
  async chat(
    @Body(new JsonBodyValidationPipe(ChatRequestDto)) body: ChatRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    this.resolver.assertRouter(body.router, accessOf(reply.request));
    const response = await this.service.chat(ChatRequestDto.toChatRequest(body), {
      ...(body.router !== undefined ? { router: body.router } : {}),
      signal: abortOnDisconnect(reply.raw),
    });
    await reply.status(200).send(response);
  }
}
