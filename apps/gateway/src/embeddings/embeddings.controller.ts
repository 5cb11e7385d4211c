import { Body, Controller, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  type EmbeddingModel,
  type EmbeddingResult,
  estimateTextTokens,
  ProviderException,
  routingTracer,
} from 'nest-model-router/core';
import { accessOf } from '../auth/key-access.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import { EmbeddingAccounting } from './embedding-accounting.js';
import { EmbeddingResolver } from './embedding-resolver.js';
import { WireBodyPipe } from '../http/wire-body.pipe.js';
import { embeddingsBody, type EmbeddingsRequest } from './embeddings-body.js';
import { toEmbeddingsResponse } from './to-embeddings-response.js';

/**
 * OpenAI's embeddings API over the gateway's embedding models and groups. Errors take the
 * chat path's way out: the exception filter answers them through the library's error table.
 * Each call counts against the key's limits and budgets and in the metrics (EmbeddingAccounting).
 */
@Controller('v1')
export class EmbeddingsController {
  constructor(
    private readonly resolver: EmbeddingResolver,
    private readonly accounting: EmbeddingAccounting,
  ) {}

  @Post('embeddings')
  async create(
    @Body(new WireBodyPipe(embeddingsBody)) body: EmbeddingsRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { request } = reply;
    const { name, model } = this.resolver.resolve(body.model, body.models, accessOf(request));
    this.accounting.admit(request, name);
    const texts = typeof body.input === 'string' ? [body.input] : body.input;
    const signal = abortOnDisconnect(reply.raw);
    let result: EmbeddingResult;
    try {
      const embed = () => this.embed(model, name, texts, signal, body.dimensions ?? undefined);
      // one call span over the attempts, in the caller's trace (its traceparent), when traced
      const tracer = routingTracer();
      result = await (tracer
        ? tracer.routedCall(request.headers, embed, () => ({ model: name }))
        : embed());
    } catch (error) {
      this.accounting.failed(name, error, signal);
      throw error;
    }
    const served = result.modelName ?? name;
    // a provider that reports no usage still counts against the key's tpm, at the estimate
    const inputTokens =
      result.usage?.inputTokens ?? texts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
    this.accounting.answered(request, name, served, inputTokens);
    await reply
      .status(200)
      // the configured name (a failover list's member), as on chat; the body keeps the provider's id
      .header('x-model-router-model', result.servedBy ?? name)
      .send(toEmbeddingsResponse(result, served, body.encoding_format ?? 'float'));
  }

  private async embed(
    model: EmbeddingModel,
    name: string,
    texts: string[],
    signal: AbortSignal,
    dimensions: number | undefined,
  ): Promise<EmbeddingResult> {
    const result = await model.embed(texts, {
      signal,
      ...(dimensions !== undefined ? { dimensions } : {}),
    });
    if (result.vectors.length !== texts.length) {
      // a model that answers for fewer texts would shift every vector onto the wrong input
      throw new ProviderException(
        `embedding model '${result.modelName ?? name}' returned ${result.vectors.length} vectors for ${texts.length} inputs`,
        { kind: 'unknown', provider: 'gateway', status: 502 },
      );
    }
    return result;
  }
}
