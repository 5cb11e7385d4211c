import type { ModuleRef } from '@nestjs/core';
import type { ModelRouterRegistry } from '../module/model-router-registry.js';
import { feedbackRouters } from '../service/decision-feedback.js';
import { RoutingChatService } from '../service/routing-chat.service.js';
import type { StatusSection } from './model-router-status.js';
import type { TeacherStats } from '../../core/decision/teacher.js';

/** A section's value, or nothing (left out of the report) when its feature is not in use. */
const present = <T>(list: readonly T[]): readonly T[] | undefined =>
  list.length > 0 ? list : undefined;

/**
 * The sections of the optional features, in every report where the feature is configured: the
 * response cache's hit rate, budget downgrades, decision routes' target shares, and what decision
 * routers learned (counts only: learned examples are callers' messages, never shown here) with
 * their teacher's share of the latest decisions.
 */
export function featureSections(
  registry: () => ModelRouterRegistry,
  moduleRef: ModuleRef,
): StatusSection[] {
  let service: RoutingChatService | undefined;
  const routingService = () =>
    (service ??= moduleRef.get(RoutingChatService, { strict: false }) as RoutingChatService);
  return [
    { name: 'cache', collect: () => registry().cacheStats() },
    { name: 'downgrades', collect: () => present(routingService().downgradeReport()) },
    { name: 'routeShares', collect: () => present(registry().routeShares()) },
    {
      name: 'learning',
      collect: () =>
        present(
          feedbackRouters(registry()).flatMap(({ router, learner }) => {
            const decision = learner as {
              learnedCounts?: () => Record<string, number>;
              teacherStats?: () => unknown;
            };
            if (typeof decision.learnedCounts !== 'function') return [];
            const teacher = decision.teacherStats?.() as TeacherStats | undefined;
            return [
              {
                name: router,
                learned: decision.learnedCounts(),
                ...(teacher ? { teacherShare: teacherShareText(teacher), teacher } : {}),
              },
            ];
          }),
        ),
    },
  ];
}

/** The teacher's share as the page shows it: "23 % of the last 100 decisions (at most 30 %)". */
export function teacherShareText(stats: TeacherStats): string {
  return (
    `${percent(stats.recentShare)} of the last ${stats.recent} decisions ` +
    `(at most ${percent(stats.maxShare)})`
  );
}

const percent = (share: number): string => `${Math.round(share * 100)} %`;
