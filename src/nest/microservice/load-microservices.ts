import { InvalidConfigurationException } from '../../core/errors/exceptions.js';

/**
 * The parts of `@nestjs/microservices` the server side uses, declared structurally: no type of
 * that optional peer dependency appears in a declaration file of this package.
 */
export interface MicroservicesApi {
  MessagePattern(pattern: string): MethodDecorator;
  Payload(): ParameterDecorator;
  Ctx(): ParameterDecorator;
  RpcException: new (error: object) => Error;
}

/**
 * Loads `@nestjs/microservices`, an optional peer dependency: `undefined` when it is not
 * installed, so that importing the package root never needs it.
 */
export async function loadMicroservices(
  importer: () => Promise<unknown> = () => import('@nestjs/microservices'),
): Promise<MicroservicesApi | undefined> {
  let loaded: unknown;
  try {
    loaded = await importer();
  } catch {
    return undefined;
  }
  const api = loaded as Partial<MicroservicesApi>;
  return typeof api.MessagePattern === 'function' &&
    typeof api.Payload === 'function' &&
    typeof api.Ctx === 'function' &&
    typeof api.RpcException === 'function'
    ? (api as MicroservicesApi)
    : undefined;
}

/** Loaded once, when this module is first imported (a top-level await that never rejects). */
export const microservices: MicroservicesApi | undefined = await loadMicroservices();

/** The API, or a start-up error that says which package to install. */
export function requireMicroservices(): MicroservicesApi {
  return microservicesOrFail(microservices);
}

export function microservicesOrFail(api: MicroservicesApi | undefined): MicroservicesApi {
  if (!api) {
    throw new InvalidConfigurationException(
      'ModelRouterMicroserviceModule needs the @nestjs/microservices package (an optional peer ' +
        'dependency); install it with `npm install @nestjs/microservices@^12`',
    );
  }
  return api;
}

/**
 * `@MessagePattern(pattern)` when the package is installed; else a decorator that does nothing
 * (the module then refuses to start, through requireMicroservices).
 */
export function messagePattern(pattern: string): MethodDecorator {
  return microservices ? microservices.MessagePattern(pattern) : () => undefined;
}

/** `@Payload()` when the package is installed (with `@Ctx()`, Nest passes data and context). */
export function payload(): ParameterDecorator {
  return microservices ? microservices.Payload() : () => undefined;
}

/** `@Ctx()`: the transport's context (TCP: the client's socket, whose closing aborts its calls). */
export function context(): ParameterDecorator {
  return microservices ? microservices.Ctx() : () => undefined;
}
