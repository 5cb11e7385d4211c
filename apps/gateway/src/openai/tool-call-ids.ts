import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keyOf } from '../auth/request-key.js';

/**
 * OpenAI clients send tool-loop messages back without our attributes, so the gateway carries the
 * route (and model) that made a tool call inside the tool call's id:
 * `mr-<hex route\0model>-<hmac>-<provider id>`. Stateless, so a tool round that lands on another
 * replica still finds its route. The HMAC (SHA-256, 128 bits, over the origin and the provider
 * id) stops a client from forging an id to pick a route or model; an id whose signature does
 * not hold (forged, signed by another deployment or an earlier process, or given to another API
 * key: `forKey` mixes the key's name into the HMAC) is ignored and the round is routed as any
 * other. Providers only ever see their own ids.
 */
export interface ToolCallOrigin {
  route?: string;
  model?: string;
}

const PREFIX = 'mr-';
const MAC_HEX = 32;

export class ToolCallIds {
  private readonly secret: Buffer;
  /** Per configured key name: a bounded set (the configuration's keys). */
  private readonly perKey = new Map<string, ToolCallIds>();

  /**
   * `secret`: the deployment's (the same on every replica); absent: a random one for this
   * process, so ids signed before a restart or by another replica are ignored.
   */
  constructor(secret?: string | Buffer) {
    this.secret =
      typeof secret === 'string' && secret !== ''
        ? Buffer.from(secret, 'utf8')
        : Buffer.isBuffer(secret)
          ? secret
          : randomBytes(32);
  }

  /**
   * The ids of one API key (none: the gateway without `auth`): signed with a secret derived
   * from this one and the key's name, so an id another key received does not verify and is
   * ignored, and a key cannot steer its round to the route or model of another key's call.
   */
  forKey(keyName: string | undefined): ToolCallIds {
    if (keyName === undefined) return this;
    let ids = this.perKey.get(keyName);
    if (!ids) {
      const derived = createHmac('sha256', this.secret).update(`key\u0000${keyName}`).digest();
      this.perKey.set(keyName, (ids = new ToolCallIds(derived)));
    }
    return ids;
  }

  encode(providerId: string, origin: ToolCallOrigin): string {
    if (!origin.route && !origin.model) return providerId;
    const payload = Buffer.from(`${origin.route ?? ''}\u0000${origin.model ?? ''}`, 'utf8');
    const hex = payload.toString('hex');
    return `${PREFIX}${hex}-${this.mac(hex, providerId)}-${providerId}`;
  }

  decode(id: string): { providerId: string; origin?: ToolCallOrigin } {
    if (!id.startsWith(PREFIX)) return { providerId: id };
    const end = id.indexOf('-', PREFIX.length);
    const hex = id.slice(PREFIX.length, end);
    if (end < 0 || hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) {
      return { providerId: id };
    }
    const mac = id.slice(end + 1, end + 1 + MAC_HEX);
    const providerId = id.slice(end + 2 + MAC_HEX);
    if (!/^[0-9a-f]{32}$/.test(mac) || id[end + 1 + MAC_HEX] !== '-') return { providerId: id };
    // the provider id is restored either way, so both sides of the round still match
    if (!timingSafeEqual(Buffer.from(mac), Buffer.from(this.mac(hex, providerId)))) {
      return { providerId };
    }
    const [route, model] = Buffer.from(hex, 'hex').toString('utf8').split('\u0000');
    return {
      providerId,
      origin: { ...(route ? { route } : {}), ...(model ? { model } : {}) },
    };
  }

  private mac(hex: string, providerId: string): string {
    return createHmac('sha256', this.secret)
      .update(`${hex}\u0000${providerId}`)
      .digest('hex')
      .slice(0, MAC_HEX);
  }
}

/** The ids of the request's API key (`ids` itself without `auth`). */
export function idsOf(ids: ToolCallIds, reply: { request: object }): ToolCallIds {
  return ids.forKey(keyOf(reply.request)?.name);
}

/** This process's ids when the application is given no secret (tests, one-off mappings). */
export const processToolCallIds = new ToolCallIds();

export function encodeToolCallId(
  providerId: string,
  origin: ToolCallOrigin,
  ids: ToolCallIds = processToolCallIds,
): string {
  return ids.encode(providerId, origin);
}

export function decodeToolCallId(
  id: string,
  ids: ToolCallIds = processToolCallIds,
): { providerId: string; origin?: ToolCallOrigin } {
  return ids.decode(id);
}
