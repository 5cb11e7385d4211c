import { BadRequestException, Body, Controller, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ChatRequestDto, JsonBodyValidationPipe, RoutingChatService } from 'nest-model-router';
import { accessOf } from '../auth/key-access.js';
import { requestCallOptions } from '../http/request-call-options.js';
import { modelName } from '../http/wire-schema.js';
import { ModelResolver } from '../models/model-resolver.js';

/**
 * The Nest module's own API over HTTP: a ChatRequest (ChatRequestDto) in, the ChatResponse out,
 * through RoutingChatService with the router named in the body (default: the default router).
 * The request's routing scope (requestCallOptions) takes `x-model-router-session` as the call's
 * session and writes the `x-model-router-route` / `-model` headers.
 */
@Controller()
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
    // a router name as the other surfaces take `model`: the 404 would quote it whole
    const router = body.router === undefined ? undefined : modelName.safeParse(body.router);
    if (router?.success === false) {
      throw new BadRequestException({
        message: `Invalid request body: router ${router.error.issues[0]?.message ?? 'is not valid'}`,
        param: 'router',
      });
    }
    const options = requestCallOptions(reply, () => {
      this.resolver.assertRouter(body.router, accessOf(reply.request));
      return body.router !== undefined ? { router: body.router } : {};
    });
    // ChatRequestDto, the body's one description, checked it: the service need not walk it again
    const request = ChatRequestDto.toChatRequest(body);
    const response = await this.service.chat(request, { ...options, checkedRequest: request });
    await reply.status(200).send(response);
  }
}
