import { randomUUID } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  Inject,
  Logger,
  Param,
  Post,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ChatResponse } from '../../core/chat/response.js';
import type { Clock } from '../../core/clock.js';
import { ROUTE_ATTRIBUTE } from '../../core/routing/route-attribute.js';
import { MODEL_ATTRIBUTE } from '../../core/group/model-attribute.js';
import {
  MODEL_HEADER,
  ModelRoutingInterceptor,
  ROUTE_HEADER,
} from '../../nest/http/model-routing.interceptor.js';
import { toHeaderValue } from '../../nest/http/header-value.js';
import { GatewayCallScope, runInGatewayCall } from '../call/gateway-call-scope.js';
import { GatewayChatService, type GatewayChatOptions } from '../call/gateway-chat.service.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import { GATEWAY_CLOCK } from '../http/gateway-tokens.js';
import { JsonBodyValidationPipe } from '../http/json-body-validation.pipe.js';
import { logSafe } from '../../core/observability/log-safe.js';
import { ModelResolver } from '../models/model-resolver.js';
import { ChatCompletionRequestDto } from './chat-completion-request.dto.js';
import { toWireError } from './openai-error.js';
import { SseWriter } from './sse-writer.js';
import { ChunkEncoder, toChatCompletion, type AnsweredBy } from './to-chat-completion.js';
import { toChatRequest } from './to-chat-request.js';
import type { WireChatCompletionRequest } from './wire-types.js';

/** OpenAI's chat completions API over the module's routers and models. */
@Controller('v1')
export class ChatCompletionsController {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly service: GatewayChatService,
    private readonly resolver: ModelResolver,
    @Inject(GATEWAY_CLOCK) private readonly clock: Clock,
  ) {}

  @Get('models')
  models(): { object: 'list'; data: WireModel[] } {
    return { object: 'list', data: this.resolver.list().map(toWireModel) };
  }

  /** Any name `model` takes, `provider/model-id` included (its slash encoded as `%2F` or not). */
  @Get('models/:id')
  model(@Param('id') id: string): WireModel {
    return toWireModel(this.resolver.describe(id));
  }

  @Get('models/:provider/*')
  providerModel(@Param('provider') provider: string, @Param('*') modelId: string): WireModel {
    return this.model(`${provider}/${modelId}`);
  }

  /** ModelRoutingInterceptor makes the `x-model-router-session` header the call's session. */
  @Post('chat/completions')
  @UseInterceptors(ModelRoutingInterceptor)
  async create(
    @Body(new JsonBodyValidationPipe(ChatCompletionRequestDto)) body: ChatCompletionRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const wire = body as unknown as WireChatCompletionRequest;
    const options: GatewayChatOptions = {
      ...this.resolver.resolve(wire.model, wire.models),
      signal: abortOnDisconnect(reply.raw),
    };
    const scope = new GatewayCallScope();
    const created = Math.floor(this.clock() / 1000);
    if (wire.stream) {
      await this.stream(wire, options, scope, created, reply);
      return;
    }
    const request = toChatRequest(wire);
    const response = await runInGatewayCall(scope, () => this.service.chat(request, options));
    const answeredBy = this.answeredBy(scope, options, response);
    await reply
      .status(200)
      .headers(this.routingHeaders(scope.route, answeredBy.model))
      .send(toChatCompletion(response, answeredBy, created));
  }

  /**
   * Headers go out with the first event, when the route is known: an error before that (bad
   * model, every model cooling down) is still an ordinary JSON error with its status. After
   * that, a failure ends the stream with an error event and without `[DONE]`.
   */
  private stream(
    wire: WireChatCompletionRequest,
    options: GatewayChatOptions,
    scope: GatewayCallScope,
    created: number,
    reply: FastifyReply,
  ): Promise<void> {
    const request = toChatRequest(wire);
    const sse = new SseWriter(reply.raw);
    const encoder = new ChunkEncoder(`chatcmpl-${randomUUID().replaceAll('-', '')}`, created, () =>
      this.answeredBy(scope, options),
    );
    return new Promise<void>((resolve, reject) => {
      let started = false;
      let ended = false;
      const fail = (error: unknown): void => {
        ended = true;
        if (!started) {
          reject(error);
          return;
        }
        // the client left (its disconnect aborted the call): no one to tell, nothing failed
        if (!sse.open) {
          resolve();
          return;
        }
        const wireError = toWireError(error);
        // the client sees the error event; operators see it here (messages carry no keys)
        this.logger.warn(logSafe(`stream ended early: ${wireError.body.error.message}`));
        sse.fail(wireError.body);
        resolve();
      };
      const subscription = runInGatewayCall(scope, () =>
        this.service.stream(request, options).subscribe({
          next: (event) => {
            if (ended) return;
            try {
              if (!started) {
                // headers first: if they cannot be written, the reply is still Nest's to send
                sse.start(this.routingHeaders(scope.route, this.answeredBy(scope, options).model));
                reply.hijack();
                started = true;
              }
              for (const chunk of encoder.encode(event)) sse.data(chunk);
            } catch (error) {
              // thrown from here, rxjs would rethrow it on a timer and crash the process
              fail(error);
              queueMicrotask(() => subscription.unsubscribe());
            }
          },
          error: (error: unknown) => {
            if (!ended) fail(error);
          },
          complete: () => {
            if (ended) return;
            sse.done();
            resolve();
          },
        }),
      );
      reply.raw.once('close', () => {
        subscription.unsubscribe();
        resolve();
      });
    });
  }

  /** The model that answered (or is answering) and what tool call ids should carry. */
  private answeredBy(
    scope: GatewayCallScope,
    options: GatewayChatOptions,
    response?: ChatResponse,
  ): AnsweredBy {
    const attributes = response?.aiMessage.attributes ?? {};
    const groupModel = stringOr(attributes[MODEL_ATTRIBUTE], scope.model);
    const route = stringOr(attributes[ROUTE_ATTRIBUTE], scope.route);
    const model =
      groupModel ?? options.model ?? options.target?.name ?? response?.modelName ?? options.router;
    return {
      model: model ?? 'unknown',
      origin: { ...(route ? { route } : {}), ...(groupModel ? { model: groupModel } : {}) },
    };
  }

  private routingHeaders(route: string | undefined, model: string): Record<string, string> {
    return {
      ...(route ? { [ROUTE_HEADER]: toHeaderValue(route) } : {}),
      [MODEL_HEADER]: toHeaderValue(model),
    };
  }
}

interface WireModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** Not OpenAI's: whether the name is a router or a model of the gateway. */
  kind: 'router' | 'model';
}

function toWireModel({ id, kind }: { id: string; kind: 'router' | 'model' }): WireModel {
  return { id, object: 'model', created: 0, owned_by: 'nest-model-router', kind };
}

function stringOr(value: unknown, fallback: string | undefined): string | undefined {
  return typeof value === 'string' ? value : fallback;
}
