import {
  Body,
  Controller,
  Get,
  Inject,
  Logger,
  Param,
  Post,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type ChatInterceptorContext,
  type ChatRequest,
  type ChatResponse,
  type Clock,
  currentCall,
  JsonBodyValidationPipe,
  logSafe,
  ModelRoutingInterceptor,
  RoutingChatService,
  type RoutingChatOptions,
} from 'nest-model-router';
import { accessOf } from '../auth/key-access.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import type { SecretRedactor } from '../http/config-secrets.js';
import { GATEWAY_CLOCK, GATEWAY_REDACTOR, GATEWAY_TOOL_CALL_IDS } from '../http/gateway-tokens.js';
import { ShutdownGrace } from '../http/shutdown-grace.js';
import { ModelResolver } from '../models/model-resolver.js';
import { ChatCompletionRequestDto } from './chat-completion-request.dto.js';
import { toWireError } from './openai-error.js';
import { SseWriter } from './sse-writer.js';
import {
  ChunkEncoder,
  costHeader,
  completionId,
  toChatCompletion,
  type AnsweredBy,
} from './to-chat-completion.js';
import { toChatRequest } from './to-chat-request.js';
import type { ToolCallIds } from './tool-call-ids.js';
import type { WireChatCompletionRequest } from './wire-types.js';

/** OpenAI's chat completions API over the module's routers and models. */
@Controller('v1')
export class ChatCompletionsController {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly service: RoutingChatService,
    private readonly resolver: ModelResolver,
    @Inject(GATEWAY_CLOCK) private readonly clock: Clock,
    private readonly shutdown: ShutdownGrace,
    @Inject(GATEWAY_TOOL_CALL_IDS) private readonly ids: ToolCallIds,
    @Inject(GATEWAY_REDACTOR) private readonly redactor: SecretRedactor,
  ) {}

  /** What the caller's key may use (everything without `auth`). */
  @Get('models')
  models(@Req() request: FastifyRequest): { object: 'list'; data: WireModel[] } {
    return { object: 'list', data: this.resolver.list(accessOf(request)).map(toWireModel) };
  }

  /** Any name `model` takes, `provider/model-id` included (its slash encoded as `%2F` or not). */
  @Get('models/:id')
  model(@Param('id') id: string, @Req() request: FastifyRequest): WireModel {
    return toWireModel(this.resolver.describe(id, accessOf(request)));
  }

  @Get('models/:provider/*')
  providerModel(
    @Param('provider') provider: string,
    @Param('*') modelId: string,
    @Req() request: FastifyRequest,
  ): WireModel {
    return this.model(`${provider}/${modelId}`, request);
  }

  /**
   * ModelRoutingInterceptor makes the `x-model-router-session` header the call's session and
   * writes the `x-model-router-route` / `-model` headers from the call's record.
   */
  @Post('chat/completions')
  @UseInterceptors(ModelRoutingInterceptor)
  async create(
    @Body(new JsonBodyValidationPipe(ChatCompletionRequestDto)) body: ChatCompletionRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const wire = body as unknown as WireChatCompletionRequest;
    const options: RoutingChatOptions = {
      ...this.resolver.resolve(wire.model, wire.models, accessOf(reply.request)),
      signal: abortOnDisconnect(reply.raw),
    };
    const created = Math.floor(this.clock() / 1000);
    const request = toChatRequest(wire, this.ids);
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
    const by = answeredBy(currentCall(), options, response);
    const cost = this.resolver.costOf(by.origin.model ?? wire.model, response);
    if (cost !== undefined) reply.header('x-model-router-cost', costHeader(cost));
    await reply.status(200).send(toChatCompletion(response, by, created, cost, this.ids));
  }

  /**
   * Headers go out with the first event, when the route is known: an error before that (bad
   * model, every model cooling down) is still an ordinary JSON error with its status. After
   * that, a failure ends the stream with an error event and without `[DONE]`.
   */
  private stream(
    request: ChatRequest,
    options: RoutingChatOptions,
    created: number,
    reply: FastifyReply,
    includeUsage: boolean,
  ): Promise<void> {
    const sse = new SseWriter(reply.raw);
    // the call's record: the service attaches it to this request when the stream is subscribed
    let record: ChatInterceptorContext | undefined;
    // a stream's headers leave before its cost is known: the cost goes in the last chunk's usage
    const encoder = new ChunkEncoder(
      completionId(),
      created,
      () => answeredBy(record, options),
      (response) => this.resolver.costOf(answeredBy(record, options).origin.model, response),
      includeUsage,
      this.ids,
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
        const wireError = this.redactor.redactWire(toWireError(error));
        // the client sees the error event; operators see it here (messages carry no keys)
        this.logger.warn(logSafe(`stream ended early: ${wireError.body.error.message}`));
        sse.fail(wireError.body);
        resolve();
      };
      const subscription = this.service.stream(request, options).subscribe({
        next: (event) => {
          if (ended) return;
          try {
            if (!started) {
              // headers first (with those the interceptor set): if they cannot be written, the
              // reply is still Nest's to send
              sse.start(reply.getHeaders());
              reply.hijack();
              started = true;
              // a shutdown that outlasts its grace sends this stream an error event first
              reply.raw.once('close', this.shutdown.track(sse));
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
      });
      record = currentCall();
      reply.raw.once('close', () => {
        subscription.unsubscribe();
        resolve();
      });
    });
  }
}

/** The model that answered (or is answering) and what tool call ids should carry. */
function answeredBy(
  record: ChatInterceptorContext | undefined,
  options: RoutingChatOptions,
  response?: ChatResponse,
): AnsweredBy {
  const { route, model } = record?.servedBy() ?? {};
  return {
    model: model ?? response?.modelName ?? options.router ?? 'unknown',
    origin: { ...(route ? { route } : {}), ...(model ? { model } : {}) },
  };
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
