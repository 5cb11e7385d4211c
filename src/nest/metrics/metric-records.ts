import type { CacheOutcome } from '../../core/chat/call-attributes.js';
import type { TokenUsage } from '../../core/chat/response.js';
import type { CallOutcome } from './metric-labels.js';

export interface FinishedCall {
  router: string | undefined;
  route: string | undefined;
  model: string | undefined;
  outcome: CallOutcome;
  durationMs: number;
  tokenUsage?: TokenUsage;
  /** USD of the call, when the serving model has pricing. */
  costUsd?: number;
  /** How the response cache took part, when the router is cached. */
  cache?: CacheOutcome;
  /** On a hit: what the cached answer cost when it was made. */
  cacheSavedUsd?: number;
}

/** An embeddings call (`EmbeddingModel.embed`): no router, route or output tokens. */
export interface FinishedEmbedding {
  /** The embedding model (or failover list) the call addressed. */
  model: string;
  outcome: CallOutcome;
  inputTokens?: number;
}

/** A decision route's target share and what it got (ModelRouterRegistry.routeShares). */
export interface RouteShareReading {
  router: string;
  route: string;
  target: number;
  achieved?: number;
}

/** How often a decision router's teacher was asked (its TeacherStats), read on scrape. */
export interface TeacherReading {
  router: string;
  decisions: number;
  taught: number;
  /** Of the latest (up to 100) decisions, how many, and how many the teacher was asked about. */
  recent: number;
  recentTaught: number;
}
