import type { OnApplicationShutdown } from '@nestjs/common';
import type { KeyThrottlerStorage } from './key-throttler-storage.js';

/** Closes the limits' Redis connection (if any) with the application. */
export class LimitsLifecycle implements OnApplicationShutdown {
  constructor(private readonly limits: KeyThrottlerStorage) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limits.counters.close?.();
  }
}
