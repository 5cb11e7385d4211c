import { DecisionFeedbackException } from '../../core/decision/decision-feedback.js';
import type { DecisionModelChatModelRouter } from '../../core/decision/decision-model-chat-model-router.js';
import type { TeacherStats } from '../../core/decision/teacher.js';
import type {
  DecisionFeedbackOptions,
  LearnsFromFeedback,
} from '../../core/routing/feedback-router.js';
import { RoutingChatModel } from '../../core/routing/routing-chat-model.js';
import type { ModelRouterRegistry } from '../module/model-router-registry.js';

/** Every router of the module that takes feedback (decision routers, nested ones included). */
export function feedbackRouters(
  registry: ModelRouterRegistry,
): { router: string; learner: LearnsFromFeedback }[] {
  return registry.routerNames().flatMap((name) => {
    const model = registry.getRouter(name);
    if (!(model instanceof RoutingChatModel)) return [];
    return model.feedbackRouters().map((learner) => ({ router: name, learner }));
  });
}

/** Finds the router that made the decision and gives it the feedback. */
export async function feedbackToRouters(
  registry: ModelRouterRegistry,
  decisionId: string,
  route: string | undefined,
  options: DecisionFeedbackOptions,
): Promise<void> {
  const found =
    typeof decisionId === 'string'
      ? feedbackRouters(registry).find(({ learner }) => learner.hasDecision(decisionId))
      : undefined;
  if (!found) {
    throw new DecisionFeedbackException(
      'unknown-decision',
      'Unknown or expired decision id: feedback is taken for a while after a call, from the caller that made it',
    );
  }
  await found.learner.feedback(decisionId, route, options);
}

/** What each router learned, per route, for review and the status page. */
export function learnedExamplesOf(registry: ModelRouterRegistry): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { router, learner } of feedbackRouters(registry)) {
    const decision = learner as Partial<DecisionModelChatModelRouter>;
    if (typeof decision.learnedExamples !== 'function') continue;
    result[router] = {
      examples: decision.learnedExamples(),
      counts: decision.learnedCounts?.(),
      ...(decision.teacherStats?.() ? { teacher: decision.teacherStats() } : {}),
    };
  }
  return result;
}

/** Each decision router's teacher statistics (routers without a teacher are left out). */
export function teacherStatsOf(
  registry: ModelRouterRegistry,
): { router: string; stats: TeacherStats }[] {
  return feedbackRouters(registry).flatMap(({ router, learner }) => {
    const stats = (learner as Partial<DecisionModelChatModelRouter>).teacherStats?.();
    return stats ? [{ router, stats }] : [];
  });
}
