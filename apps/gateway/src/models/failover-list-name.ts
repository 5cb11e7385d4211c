const PREFIX = 'failover(';

/**
 * How events and the interceptor context name a per-request `models` failover list:
 * `failover(a,b,…)`, with the names the client sent.
 */
export function failoverListName(names: readonly string[]): string {
  return `${PREFIX}${names.join(',')})`;
}

export function isFailoverListName(name: string): boolean {
  return name.startsWith(PREFIX) && name.endsWith(')');
}
