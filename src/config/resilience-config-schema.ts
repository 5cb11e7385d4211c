import { z } from 'zod';
import { RetryPolicy } from '../core/resilience/retry-policy.js';
import { duration } from './duration-field.js';

/**
 * A model's `resilience:` (ResilienceOptions): its `…Ms` settings read as durations, so
 * `timeouts: { attemptMs: 30s }` is 30 000 ms; the other settings are ResilientChatModel's to
 * check. A timeout of `~` (null) is none.
 */
const timeoutsSchema = z.looseObject({
  attemptMs: duration().nullable().optional(),
  firstTokenMs: duration().nullable().optional(),
  idleMs: duration().nullable().optional(),
  deadlineMs: duration().nullable().optional(),
});

const retrySettingsSchema = z.looseObject({
  baseDelayMs: duration({ zero: true }).optional(),
  maxDelayMs: duration({ zero: true }).optional(),
  maxRetryAfterMs: duration({ zero: true }).optional(),
});

const adaptiveDeadlineSchema = z.looseObject({
  floorMs: duration().optional(),
  ceilingMs: duration().optional(),
});

export const resilienceConfigSchema = z.union(
  [
    z.literal(false),
    z.looseObject({
      timeouts: timeoutsSchema.optional(),
      // a RetryPolicy given in code is shared as it is
      retry: z.union([z.instanceof(RetryPolicy), retrySettingsSchema]).optional(),
      adaptive: z
        .looseObject({
          firstToken: adaptiveDeadlineSchema.optional(),
          idle: adaptiveDeadlineSchema.optional(),
          answer: adaptiveDeadlineSchema.optional(),
        })
        .optional(),
    }),
  ],
  { error: 'must be an object of resilience options, or false' },
);
