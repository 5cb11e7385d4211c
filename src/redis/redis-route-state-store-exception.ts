import { ModelRouterException } from '../core/errors/exceptions.js';

/**
 * The Redis state store could not do what was asked (start when Redis is required, bad
 * arguments). Its message names the Redis URL only with the password redacted, and it never
 * carries the client's error as `cause` (ioredis errors can hold the AUTH arguments).
 */
export class RedisRouteStateStoreException extends ModelRouterException {}
