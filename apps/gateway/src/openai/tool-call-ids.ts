/**
 * OpenAI clients send tool-loop messages back without our attributes, so the gateway carries the
 * route (and model) that made a tool call inside the tool call's id: `mr-<hex>-<provider id>`.
 * Stateless, so a tool round that lands on another replica still finds its route. Providers only
 * ever see their own ids: the prefix is removed before a request leaves the gateway.
 */
export interface ToolCallOrigin {
  route?: string;
  model?: string;
}

const PREFIX = 'mr-';

export function encodeToolCallId(providerId: string, origin: ToolCallOrigin): string {
  if (!origin.route && !origin.model) return providerId;
  const payload = `${origin.route ?? ''}\u0000${origin.model ?? ''}`;
  return `${PREFIX}${Buffer.from(payload, 'utf8').toString('hex')}-${providerId}`;
}

export function decodeToolCallId(id: string): { providerId: string; origin?: ToolCallOrigin } {
  if (!id.startsWith(PREFIX)) return { providerId: id };
  const end = id.indexOf('-', PREFIX.length);
  const hex = id.slice(PREFIX.length, end);
  if (end < 0 || hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) {
    return { providerId: id };
  }
  const [route, model] = Buffer.from(hex, 'hex').toString('utf8').split('\u0000');
  return {
    providerId: id.slice(end + 1),
    origin: { ...(route ? { route } : {}), ...(model ? { model } : {}) },
  };
}
