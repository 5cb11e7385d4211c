import { Body, Controller, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { JsonBodyValidationPipe, ProviderException } from 'nest-model-router';
import { accessOf } from '../auth/key-access.js';
import { abortOnDisconnect } from '../http/client-disconnect.js';
import { EmbeddingResolver } from './embedding-resolver.js';
import { EmbeddingsRequestDto } from './embeddings-request.dto.js';
import { toEmbeddingsResponse } from './to-embeddings-response.js';

/**
 * OpenAI's embeddings API over the gateway's embedding models and groups. Errors take the
 * chat path's way out: the exception filter answers them through the library's error table.
 */
@Controller('v1')
export class EmbeddingsController {
  constructor(private readonly resolver: EmbeddingResolver) {}

  @Post('embeddings')
  async create(
    @Body(new JsonBodyValidationPipe(EmbeddingsRequestDto)) body: EmbeddingsRequestDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { name, model } = this.resolver.resolve(body.model, body.models, accessOf(reply.request));
    const texts = typeof body.input === 'string' ? [body.input] : body.input;
    const result = await model.embed(texts, {
      signal: abortOnDisconnect(reply.raw),
      ...(body.dimensions !== undefined ? { dimensions: body.dimensions } : {}),
    });
    if (result.vectors.length !== texts.length) {
      // a model that answers for fewer texts would shift every vector onto the wrong input
      throw new ProviderException(
        `embedding model '${result.modelName ?? name}' returned ${result.vectors.length} vectors for ${texts.length} inputs`,
        { kind: 'unknown', provider: 'gateway', status: 502 },
      );
    }
    const served = result.modelName ?? name;
    await reply
      .status(200)
      .header('x-model-router-model', served)
      .send(toEmbeddingsResponse(result, served, body.encoding_format ?? 'float'));
  }
}
