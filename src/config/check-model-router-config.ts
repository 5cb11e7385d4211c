import { validateTargetShare } from '../core/decision/target-share.js';
import type { z } from 'zod';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { scrubCredentials } from '../core/observability/scrub-credentials.js';
import { checkRouteStateConfig } from '../redis/route-state-store-config.js';
import { checkBalance, checkBudgets, checkModelProfile } from './cost-config.js';
import { NAME_FAULTS, problemIssue, unknownName } from './config-wording.js';
import { joinPath } from './invalid-model-router-config.exception.js';

/**
 * The refinement of the configuration schema: what shapes cannot say. Every name a section uses
 * is declared (models of routes, providers of models, the default route and router), names are
 * unique, and each router is either decision-routed or a group. It runs on a file with shape
 * problems too, so it reads every value as unknown.
 */
export function checkModelRouterConfig(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return; // the shape check reports it
  const problems: string[] = [];
  const providers = namesOf(value.providers, 'providers', problems);
  const models = namesOf(value.models, 'models', problems);
  // a section that is not a mapping is reported once, not by every name that refers to it
  const declared = isRecord(value.models) ? models : undefined;
  const routers = namesOf(value.routers, 'routers', problems);
  if (isRecord(value.routers) && routers.length === 0) {
    problems.push(NAME_FAULTS.noRouter);
  }
  for (const name of models) {
    checkModel(name, (value.models as Record<string, unknown>)[name], providers, problems);
  }
  for (const name of routers) {
    const path = joinPath('routers', name);
    const router = (value.routers as Record<string, unknown>)[name];
    if (isRecord(router)) checkRouter(router, path, declared, problems);
    if (models.includes(name)) problems.push(NAME_FAULTS.routerAndModel(name));
  }
  if (
    isName(value.defaultRouter) &&
    isRecord(value.routers) &&
    !routers.includes(value.defaultRouter)
  ) {
    problems.push(`defaultRouter: ${unknownName('router', value.defaultRouter, routers)}`);
  }
  if (value.state !== undefined) checkState(value.state, problems);
  if (value.budgets !== undefined) checkBudgets(value.budgets, problems);
  for (const problem of problems) ctx.addIssue(problemIssue(problem));
}

function checkModel(name: string, model: unknown, providers: string[], problems: string[]): void {
  if (!isRecord(model)) return;
  const path = joinPath('models', name);
  if (model.type === undefined && model.provider === undefined) {
    problems.push(`${path}.type: required (or name a provider whose type the model takes)`);
  }
  if (isName(model.provider) && !providers.includes(model.provider)) {
    problems.push(`${path}.provider: ${unknownName('provider', model.provider, providers)}`);
  }
  checkModelProfile(name, model, problems);
}

function checkRouter(
  router: Record<string, unknown>,
  path: string,
  models: string[] | undefined,
  problems: string[],
): void {
  const isGroup = router.model !== undefined || router.models !== undefined;
  if (router.routes !== undefined && isGroup) {
    problems.push(
      `${path}: give either routes (a decision-routed router) or model/models (a model group), not both`,
    );
    return;
  }
  if (router.routes === undefined) {
    if (!isGroup) {
      problems.push(`${path}: needs routes (decision routing) or model/models (a group)`);
    }
    if (router.decision !== undefined) {
      problems.push(`${path}.decision: only a router with routes takes a decision model`);
    }
    if (router.defaultRoute !== undefined) {
      problems.push(`${path}.defaultRoute: only a router with routes has a default route`);
    }
    if (router.targetShare !== undefined) {
      problems.push(`${path}.targetShare: only a router with routes has route shares`);
    }
    checkGroup(router, path, models, problems);
    return;
  }
  if (!Array.isArray(router.routes)) return; // the shape check reports it
  if (router.routes.length === 0) problems.push(`${path}.routes: at least one route is required`);
  const seen = new Set<string>();
  router.routes.forEach((route: unknown, index) => {
    const routePath = joinPath(joinPath(path, 'routes'), index);
    if (!isRecord(route)) return;
    if (typeof route.name === 'string') {
      if (seen.has(route.name)) {
        problems.push(`${routePath}.name: more than one route named '${route.name}'`);
      }
      seen.add(route.name);
    }
    checkDescription(route.description, routePath, problems);
    if (route.model === undefined && route.models === undefined) {
      problems.push(`${routePath}: needs model or models`);
    }
    checkGroup(route, routePath, models, problems);
  });
  if (isName(router.defaultRoute) && !seen.has(router.defaultRoute)) {
    problems.push(`${path}.defaultRoute: ${unknownName('route', router.defaultRoute, [...seen])}`);
  }
  if (router.targetShare !== undefined) {
    try {
      validateTargetShare(router.targetShare, [...seen], `${path}.targetShare`);
    } catch (error) {
      problems.push((error as Error).message.replace(/\.$/, ''));
    }
  }
}

function checkGroup(
  group: Record<string, unknown>,
  path: string,
  models: string[] | undefined,
  problems: string[],
): void {
  checkBalance(group, path, problems);
  if (group.model !== undefined && group.models !== undefined) {
    problems.push(`${path}: give model or models, not both`);
    return;
  }
  if (models && isName(group.model) && !models.includes(group.model)) {
    problems.push(`${path}.model: ${unknownName('model', group.model, models)}`);
  }
  if (!Array.isArray(group.models)) return;
  if (group.models.length === 0) problems.push(`${path}.models: at least one model is required`);
  const seen = new Set<string>();
  group.models.forEach((name: unknown, index) => {
    if (!isName(name)) return;
    const at = joinPath(joinPath(path, 'models'), index);
    if (models && !models.includes(name))
      problems.push(`${at}: ${unknownName('model', name, models)}`);
    if (seen.has(name)) problems.push(`${at}: model '${name}' is listed twice`);
    seen.add(name);
  });
}

function checkDescription(description: unknown, path: string, problems: string[]): void {
  if (description === undefined) return;
  const list = Array.isArray(description) ? description : [description];
  if (list.length === 0) problems.push(`${path}.description: must not be an empty list`);
  list.forEach((text: unknown, index) => {
    const at = Array.isArray(description)
      ? joinPath(joinPath(path, 'description'), index)
      : joinPath(path, 'description');
    if (typeof text !== 'string' || text.trim() === '') {
      problems.push(`${at}: must be a non-blank string`);
    }
  });
}

function checkState(state: unknown, problems: string[]): void {
  try {
    checkRouteStateConfig(state, 'state');
  } catch (error) {
    if (!(error instanceof InvalidConfigurationException)) throw error;
    problems.push(scrubCredentials(error.message).replace(/^(state[\w.[\]]*) /, '$1: '));
  }
}

/** The names of a section's entries; a blank name is a problem of the section. */
function namesOf(section: unknown, path: string, problems: string[]): string[] {
  if (!isRecord(section)) return [];
  const names = Object.keys(section);
  if (names.some((name) => name.trim() === '')) problems.push(NAME_FAULTS.blank(path));
  return names.filter((name) => name.trim() !== '');
}

/** A non-empty string: an empty one is reported by the shape check alone. */
function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
