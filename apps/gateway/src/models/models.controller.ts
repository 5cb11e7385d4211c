import { BadRequestException, Controller, Get, Param, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { accessOf } from '../auth/key-access.js';
import { EmbeddingResolver } from '../embeddings/embedding-resolver.js';
import { modelName } from '../http/wire-schema.js';
import { ModelResolver } from './model-resolver.js';

type ModelKind = 'router' | 'model' | 'embedding';

interface WireModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  /** Not OpenAI's: a router or a model for chat, or an embedding model of `/v1/embeddings`. */
  kind: ModelKind;
}

/** OpenAI's models API: the routers, models and embedding models the caller's key may use. */
@Controller('v1')
export class ModelsController {
  constructor(
    private readonly resolver: ModelResolver,
    private readonly embeddings: EmbeddingResolver,
  ) {}

  /** What the caller's key may use (everything without `auth`): chat's names, then embeddings'. */
  @Get('models')
  models(@Req() request: FastifyRequest): { object: 'list'; data: WireModel[] } {
    const access = accessOf(request);
    const embeddings = this.embeddings
      .list(access)
      .map((id) => ({ id, kind: 'embedding' as const }));
    return {
      object: 'list',
      data: [...this.resolver.list(access), ...embeddings].map(toWireModel),
    };
  }

  /** Any name `model` takes, `provider/model-id` included (its slash encoded as `%2F` or not). */
  @Get('models/:id')
  model(@Param('id') id: string, @Req() request: FastifyRequest): WireModel {
    // the names `model` takes in a body, no other: `provider/*` has no length limit of Fastify's
    const checked = modelName.safeParse(id);
    if (!checked.success) {
      throw new BadRequestException({
        message: `The model id in the URL ${checked.error.issues[0]?.message ?? 'is not valid'}`,
        param: 'model',
      });
    }
    const access = accessOf(request);
    if (this.embeddings.describes(id, access)) return toWireModel({ id, kind: 'embedding' });
    return toWireModel(this.resolver.describe(id, access));
  }

  @Get('models/:provider/*')
  providerModel(
    @Param('provider') provider: string,
    @Param('*') modelId: string,
    @Req() request: FastifyRequest,
  ): WireModel {
    return this.model(`${provider}/${modelId}`, request);
  }
}

function toWireModel({ id, kind }: { id: string; kind: ModelKind }): WireModel {
  return { id, object: 'model', created: 0, owned_by: 'nest-model-router', kind };
}
