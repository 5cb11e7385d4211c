import 'reflect-metadata';
import {
  Body,
  Controller,
  Get,
  type INestApplication,
  Injectable,
  Post,
  Query,
  Sse,
  ValidationPipe,
} from '@nestjs/common';
import { map, type Observable, tap } from 'rxjs';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { RoutingChatModel } from '../../../../src/core/routing/routing-chat-model.js';
import { ChatModelRoutingResult } from '../../../../src/core/routing/chat-model-routing-result.js';
import { FailoverStrategy } from '../../../../src/core/strategies/failover-strategy.js';
import { ModelRouter } from '../../../../src/core/group/model-router.js';
import { userMessageText } from '../../../../src/core/chat/messages.js';
import { ChatRequestDto } from '../../../../src/nest/dto/chat-request.dto.js';
import { ModelRouterHealthIndicator } from '../../../../src/nest/health/model-router-health.indicator.js';
import { ModelRouterHealthModule } from '../../../../src/nest/health/model-router-health.module.js';
import { UseRouter } from '../../../../src/nest/http/use-router.decorator.js';
import { ModelRoutingInterceptor } from '../../../../src/nest/http/model-routing.interceptor.js';
import { ModelRouterExceptionFilter } from '../../../../src/nest/http/model-router-exception.filter.js';
import { ModelRouterModule } from '../../../../src/nest/module/model-router.module.js';
import { RoutingChatService } from '../../../../src/nest/service/routing-chat.service.js';
import type { ModelRouterEvent } from '../../../../src/nest/events/model-router-event-payloads.js';
import { RedactEmailsInterceptor } from '../../../../src/nest/interceptors/redact-emails.interceptor.js';
import { ChatInterceptorProvider } from '../../../../src/nest/interceptors/chat-interceptor-provider.decorator.js';
import type {
  ChatCallHandler,
  ChatInterceptor,
} from '../../../../src/nest/interceptors/chat-interceptor.js';
import type { ChatInterceptorContext } from '../../../../src/nest/interceptors/chat-interceptor-context.js';
import type { ChatStreamEvent } from '../../../../src/core/chat/chat-model.js';
import { SwitchableModel, TickerModel } from './flaky-model.js';

export const COOLDOWN_MS = 60_000;

/** Every model-router event the app emitted, in order. */
@Injectable()
export class EventLog {
  readonly events: { name: string; payload: ModelRouterEvent }[] = [];

  @OnEvent('model-router.**')
  record(payload: ModelRouterEvent): void {
    this.events.push({ name: payload.constructor.name, payload });
  }

  names(): string[] {
    return this.events.map((event) => event.name);
  }
}

/** A user interceptor found by discovery: records what each call was served by. */
@ChatInterceptorProvider()
export class AuditInterceptor implements ChatInterceptor {
  readonly entries: Record<string, unknown>[] = [];

  intercept(context: ChatInterceptorContext, next: ChatCallHandler): Observable<ChatStreamEvent> {
    return next.handle().pipe(
      tap({
        complete: () =>
          this.entries.push({
            router: context.routerName,
            route: context.route,
            model: context.model,
            mode: context.mode,
            sawRedactedRequest: JSON.stringify(context.request).includes('[email]'),
          }),
      }),
    );
  }
}

@Controller()
@UseRouter('support')
class ChatController {
  constructor(
    private readonly chat: RoutingChatService,
    private readonly health: HealthCheckService,
    private readonly indicator: ModelRouterHealthIndicator,
  ) {}

  /** Served by the class's router ('support'). */
  @Post('chat')
  async answer(@Body() body: ChatRequestDto) {
    const response = await this.chat.chat(
      body.toChatRequest(),
      body.router ? { router: body.router } : {},
    );
    return { text: response.aiMessage.text, model: response.modelName };
  }

  /** The handler's router wins over the class's. */
  @Post('sales')
  @UseRouter('sales')
  async sales(@Body() body: ChatRequestDto) {
    const response = await this.chat.chat(body.toChatRequest());
    return { text: response.aiMessage.text };
  }

  /** Server-sent events of a stream; a client that goes away unsubscribes. */
  @Sse('ticks')
  @UseRouter('ticker')
  ticks(@Query('q') q: string): Observable<{ data: ChatStreamEvent }> {
    return this.chat
      .stream({ messages: [{ role: 'user', content: q ?? '' }] })
      .pipe(map((event) => ({ data: event })));
  }

  @Get('health')
  @HealthCheck()
  check() {
    return this.health.check([() => this.indicator.isHealthy()]);
  }
}

export interface RoutingApp {
  app: INestApplication;
  url: string;
  models: {
    primary: SwitchableModel;
    backup: SwitchableModel;
    deep: SwitchableModel;
    seller: SwitchableModel;
    ticker: TickerModel;
  };
  audit: AuditInterceptor;
  clock: { now: number };
  events: EventLog;
  close(): Promise<void>;
}

/**
 * A Nest app over real HTTP on 127.0.0.1: router 'support' routes messages mentioning "design"
 * to 'complex' (model deep) and the rest to 'simple', a failover group [primary, backup] on an
 * injected clock; router 'sales' is a group [seller] directly; router 'ticker' streams until aborted. Chat
 * interceptors: RedactEmailsInterceptor (options) and AuditInterceptor (discovered). Health at GET /health.
 */
export async function startRoutingApp(adapter: 'express' | 'fastify'): Promise<RoutingApp> {
  const clock = { now: Date.UTC(2030, 0, 1, 9, 0, 0) };
  const now = () => clock.now;
  const models = {
    primary: new SwitchableModel('primary'),
    backup: new SwitchableModel('backup'),
    deep: new SwitchableModel('deep'),
    seller: new SwitchableModel('seller'),
    ticker: new TickerModel(),
  };
  const support = new RoutingChatModel({
    routes: [
      {
        name: 'simple',
        description: 'short questions',
        model: new ModelRouter({
          routes: [
            { name: 'primary', model: models.primary },
            { name: 'backup', model: models.backup },
          ],
          routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS }),
        }),
      },
      {
        name: 'complex',
        description: 'design work',
        model: new ModelRouter({
          routes: [{ name: 'deep', model: models.deep }],
          routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS }),
        }),
      },
    ],
    router: ({ chatRequest }) => {
      const last = chatRequest.messages.at(-1);
      const text = last?.role === 'user' ? userMessageText(last) : '';
      return /design/i.test(text)
        ? ChatModelRoutingResult.route('complex', { probabilities: { complex: 0.9, simple: 0.1 } })
        : ChatModelRoutingResult.defaultRoute();
    },
    defaultRoute: 'simple',
  });
  const sales = new ModelRouter({
    routes: [{ name: 'seller', model: models.seller }],
    routingStrategy: new FailoverStrategy({ cooldownMs: COOLDOWN_MS }),
  });

  const moduleRef = await Test.createTestingModule({
    imports: [
      EventEmitterModule.forRoot({ wildcard: true }),
      ModelRouterModule.forRoot({
        routers: { support, sales, ticker: models.ticker },
        defaultRouter: 'support',
        clock: now,
        interceptors: [RedactEmailsInterceptor],
      }),
      ModelRouterHealthModule,
    ],
    controllers: [ChatController],
    providers: [EventLog, AuditInterceptor],
  }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
  // also registered globally: with @UseRouter it runs twice per request and must stay correct
  app.useGlobalInterceptors(app.get(ModelRoutingInterceptor));
  app.useGlobalFilters(new ModelRouterExceptionFilter(app.getHttpAdapter()));
  await app.init();
  if (adapter === 'fastify') await app.getHttpAdapter().getInstance().ready();
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    app,
    url,
    models,
    clock,
    events: app.get(EventLog),
    audit: app.get(AuditInterceptor),
    close: () => app.close(),
  };
}
