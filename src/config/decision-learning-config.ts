import type { DecisionModel } from '../core/decision/decision-model.js';
import type { DecisionModelChatModelRouterOptions } from '../core/decision/decision-model-chat-model-router.js';
import { InvalidConfigurationException } from '../core/errors/exceptions.js';
import { readLearnedExamples } from './learned-examples-file.js';
import type { DecisionConfig } from './model-router-config.js';

/** The `decision:` keys of a router's learning, passed to the router, not to its model. */
export const LEARNING_KEYS = [
  'teacher',
  'teachBelow',
  'learned',
  'capabilityOrder',
  'maxTeacherShare',
];

/**
 * A decision router's learning options from its `decision:` section: `teacher` (a decision model
 * config of its own, built by `buildTeacher`), `teachBelow`, `maxTeacherShare`, the `learned`
 * JSON Lines file, and `capabilityOrder`.
 */
export function learningOptions(
  decision: DecisionConfig,
  buildTeacher: (config: Record<string, unknown>) => DecisionModel,
): Partial<DecisionModelChatModelRouterOptions> {
  const { teacher, teachBelow, maxTeacherShare, learned, capabilityOrder } = decision;
  for (const [field, value] of Object.entries({ teachBelow, maxTeacherShare })) {
    if (value !== undefined && teacher === undefined) {
      throw new InvalidConfigurationException(
        `decision.${field}: set decision.teacher too (the decision model asked when unsure)`,
      );
    }
  }
  if (teacher !== undefined && 'teacher' in teacher) {
    throw new InvalidConfigurationException('decision.teacher.teacher: a teacher has no teacher');
  }
  return {
    ...(teacher !== undefined ? { teacher: withField(() => buildTeacher(teacher)) } : {}),
    ...(teachBelow !== undefined ? { teachBelow } : {}),
    ...(maxTeacherShare !== undefined ? { maxTeacherShare } : {}),
    ...(learned !== undefined ? { learned: readLearnedExamples(learned, 'decision.learned') } : {}),
    ...(capabilityOrder !== undefined ? { capabilityOrder } : {}),
  };
}

/** The teacher's own errors name it: `decision.teacher.…`. */
function withField<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof InvalidConfigurationException)) throw error;
    throw new InvalidConfigurationException(
      error.message.replace(/^decision(\.|: )/, (_, sep: string) => `decision.teacher${sep}`),
    );
  }
}
