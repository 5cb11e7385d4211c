import { Controller, Get, NotFoundException, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { KeyBudgets } from '../limits/key-budgets.js';
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
  /** Spend in the current period (from the library's budgets, shared by replicas). */
  budget: {
    limitUsd: number;
    period: string;
    spentUsd: number;
    resetsAt: string;
    state: 'ok' | 'warning' | 'exceeded';
  } | null;
}

/** The key a request authenticated with: its name, scope, limits and spend. */
@Controller('v1')
export class KeyController {
  constructor(private readonly budgets: KeyBudgets) {}

  @Get('key')
  key(@Req() request: FastifyRequest): WireKey {
    const key = keyOf(request);
    if (!key) {
      throw new NotFoundException(
        'This gateway has no auth section, so requests carry no key; see docs/gateway.md, "Running the gateway for a team".',
      );
    }
    const client = key.client ?? {};
    const spend = this.budgets.status(key.name);
    return {
      object: 'key',
      name: key.name,
      admin: key.admin,
      routers: client.routers ?? null,
      models: client.models ?? null,
      providerModels: key.admin ? true : (client.providerModels ?? false),
      limits: { rpm: client.rpm ?? null, tpm: client.tpm ?? null },
      budget:
        client.budget && spend
          ? {
              limitUsd: client.budget.limitUsd,
              period: client.budget.period,
              spentUsd: spend.spentUsd,
              resetsAt: spend.resetsAt,
              state: spend.state,
            }
          : null,
    };
  }
}
