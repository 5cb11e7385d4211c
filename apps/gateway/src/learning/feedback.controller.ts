import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Post,
  Req,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RoutingChatService } from 'nest-model-router';
import { DecisionFeedbackException } from 'nest-model-router/core';
import { keyOf } from '../auth/request-key.js';
import type { HeadRefusal } from '../http/continue-gate.js';
import { WireBodyPipe } from '../http/wire-body.pipe.js';
import { feedbackBody, type FeedbackBody } from './feedback-body.js';
import { feedbackKeyOf, FeedbackLimits } from './feedback-limits.js';

/** Bounds of the feedback body: three short strings. */
const BODY_BOUNDS = { maxValues: 16, maxDepth: 2 };

/**
 * `POST /router/feedback { decision, route?, quality? }`: tells the decision router that made a
 * call which route it should have chosen (or that its answer was not good enough). Only the key
 * that made the call may, or an admin key; bounded per key and in total. `GET /router/learned`
 * (admin keys, or any caller without auth) lists what each router learned.
 */
@Controller('router')
export class FeedbackController {
  constructor(
    private readonly service: RoutingChatService,
    @Inject(FeedbackLimits) private readonly limits: FeedbackLimits,
  ) {}

  @Post('feedback')
  @HttpCode(204)
  async feedback(
    @Req() request: FastifyRequest,
    @Body(new WireBodyPipe(feedbackBody, BODY_BOUNDS)) body: FeedbackBody,
  ): Promise<void> {
    const key = keyOf(request);
    this.limits.take(feedbackKeyOf(key));
    try {
      await this.service.feedback(body.decision, body.route, {
        ...(body.quality ? { quality: body.quality } : {}),
        // without auth there is no caller to check: whoever holds the (unguessable) id
        ...(key ? { caller: key.name, trusted: key.admin } : {}),
      });
    } catch (error) {
      throw httpError(error);
    }
  }

  @Get('learned')
  learned(@Req() request: FastifyRequest): Record<string, unknown> {
    const key = keyOf(request);
    if (key && !key.admin) {
      // the same answer as /metrics gives a client key
      throw new ForbiddenException({
        message:
          'GET /router/learned needs an admin key (auth.adminKeys); this key is a client key.',
        type: 'permission_error',
        code: 'admin_key_required',
      });
    }
    return { object: 'router.learned', routers: this.service.learnedExamples() };
  }
}

function httpError(error: unknown): unknown {
  if (!(error instanceof DecisionFeedbackException)) return error;
  switch (error.reason) {
    case 'unknown-decision':
      return new NotFoundException({ message: error.message, param: 'decision' });
    case 'conflict':
      return new ConflictException({ message: error.message, param: 'route' });
    case 'share-exceeded':
      return new ForbiddenException({ message: error.message, param: 'route' });
    default:
      return new BadRequestException({
        message: error.message,
        param: error.reason === 'unknown-route' ? 'route' : 'quality',
      });
  }
}

/** The feedback limits' 429, known before the body is read. */
export function feedbackFlood(limits: FeedbackLimits): HeadRefusal {
  return (request) =>
    request.method === 'POST' && request.routeOptions?.url === '/router/feedback'
      ? limits.refusalOf(feedbackKeyOf(keyOf(request)))
      : undefined;
}
