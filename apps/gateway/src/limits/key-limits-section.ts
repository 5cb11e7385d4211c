import type { StatusSection } from 'nest-model-router';
import type { AuthConfig } from '../config/gateway-sections.js';
import type { KeyThrottlerStorage } from './key-throttler-storage.js';

/** One client key's minute on the status: requests and tokens against its `rpm` / `tpm`. */
export interface KeyLimitStatus {
  name: string;
  rpm: { used: number; limit: number } | null;
  tpm: { used: number; limit: number } | null;
}

/**
 * The status section `keys`: each client key that has an `rpm` or `tpm`, with this minute's use
 * as the throttler counts it (every replica's, with Redis). Names only, never a key.
 */
export function keyLimitsSection(auth: AuthConfig, limits: KeyThrottlerStorage): StatusSection {
  // names and limits only: the section keeps no key
  const limited = (auth.keys ?? [])
    .filter((key) => key.rpm !== undefined || key.tpm !== undefined)
    .map(({ name, rpm, tpm }) => ({ name, rpm, tpm }));
  return {
    name: 'keys',
    collect: (): KeyLimitStatus[] =>
      limited.map((key) => {
        const used = limits.usage(key.name);
        return {
          name: key.name,
          rpm: key.rpm !== undefined ? { used: used.requests, limit: key.rpm } : null,
          tpm: key.tpm !== undefined ? { used: used.tokens, limit: key.tpm } : null,
        };
      }),
  };
}
