import { z } from 'zod';

/** Decision ids are 22 URL-safe characters; a little room for ids of routers of one's own. */
const MAX_DECISION_ID_LENGTH = 128;
const MAX_ROUTE_NAME_LENGTH = 256;

/** `POST /router/feedback`: its one description (type, check, wording; see WireBodyPipe). */
export const feedbackBody = z.strictObject({
  /** The answer's `x-model-router-decision` header (or `chat_model_decision_id` attribute). */
  decision: z
    .string()
    .min(1)
    .max(MAX_DECISION_ID_LENGTH, {
      error: `must be a decision id of at most ${MAX_DECISION_ID_LENGTH} characters (the x-model-router-decision header)`,
    }),
  /** The route the decision should have chosen; optional with `quality: 'bad'`. */
  route: z.string().min(1).max(MAX_ROUTE_NAME_LENGTH).optional(),
  /** `bad`: the answer was not good enough (similar inputs go to a more capable route). */
  quality: z.enum(['good', 'bad']).optional(),
});

export type FeedbackBody = z.output<typeof feedbackBody>;
