/** What a model can do beyond plain chat; routers filter candidate routes by it. */
export const Capability = {
  RESPONSE_FORMAT_JSON_SCHEMA: 'RESPONSE_FORMAT_JSON_SCHEMA',
  /** The model continues a trailing assistant message (prefill); used for stream continuation. */
  ASSISTANT_PREFILL: 'ASSISTANT_PREFILL',
} as const;

export type Capability = (typeof Capability)[keyof typeof Capability];
