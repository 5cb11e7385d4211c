import { Controller, Get, NotFoundException, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf } from './request-key.js';

/** What `GET /v1/key` answers: the caller's own key, never another's nor any secret. */
export interface WireKey {
  object: 'key';
  name: string;
  admin: boolean;
  /** `null`: every router (or configured model); `providerModels` `false`: none. */
  routers: string[] | null;
  models: string[] | null;
  providerModels: boolean | string[];
  limits: { rpm: number | null; tpm: number | null };
  budget: { limitUsd: number; period: string } | null;
}

/** The key a request authenticated with: its name, scope and limits. */
@Controller('v1')
export class KeyController {
  @Get('key')
  key(@Req() request: FastifyRequest): WireKey {
    const key = keyOf(request);
    if (!key) {
      throw new NotFoundException(
        'This gateway has no auth section, so requests carry no key; see README "Running the gateway for a team".',
      );
    }
    const client = key.client ?? {};
    return {
      object: 'key',
      name: key.name,
      admin: key.admin,
      routers: client.routers ?? null,
      models: client.models ?? null,
      providerModels: key.admin ? true : (client.providerModels ?? false),
      limits: { rpm: client.rpm ?? null, tpm: client.tpm ?? null },
      budget: client.budget
        ? { limitUsd: client.budget.limitUsd, period: client.budget.period }
        : null,
    };
  }
}
