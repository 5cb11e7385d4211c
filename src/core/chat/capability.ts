import type { ChatModel } from './chat-model.js';
import type { ChatRequest } from './request.js';

/** What a model can do beyond plain chat; routers filter candidate routes by it. */
export const Capability = {
  RESPONSE_FORMAT_JSON_SCHEMA: 'RESPONSE_FORMAT_JSON_SCHEMA',
  /** The model continues a trailing assistant message (prefill); used for stream continuation. */
  ASSISTANT_PREFILL: 'ASSISTANT_PREFILL',
} as const;

export type Capability = (typeof Capability)[keyof typeof Capability];

const NONE: ReadonlySet<Capability> = new Set();

/**
 * What a model declares it can do. Tolerant of hand-written models: an array instead of a Set
 * (the type says Set, JavaScript callers may not), and a `supportedCapabilities` that throws
 * declares nothing rather than failing the routing around it.
 */
export function capabilitiesOf(model: ChatModel): ReadonlySet<Capability> {
  if (typeof model.supportedCapabilities !== 'function') return NONE;
  try {
    return new Set(model.supportedCapabilities() ?? []);
  } catch {
    return NONE;
  }
}

/** Only a JSON response format with a schema needs a capability that not every model has. */
export function requiredCapabilities(request: ChatRequest): ReadonlySet<Capability> {
  const format = request.parameters?.responseFormat;
  return format?.type === 'json' && format.jsonSchema
    ? new Set([Capability.RESPONSE_FORMAT_JSON_SCHEMA])
    : NONE;
}

export function supportsAll(model: ChatModel, required: ReadonlySet<Capability>): boolean {
  if (required.size === 0) return true;
  const supported = capabilitiesOf(model);
  return [...required].every((capability) => supported.has(capability));
}
