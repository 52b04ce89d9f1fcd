import { DEFAULT_STORE_LIMITS, type AlertsConfig, type HistoryConfig } from '../config.js';
import type { EmbedRouteOptions } from '../routes/embeds.js';
import { EmbedPages } from '../services/embeds/embed-pages.js';
import { Embeds } from '../services/embeds/embeds.js';
import type { FeedRouteOptions } from '../routes/feeds.js';
import { FeedAnswers } from '../services/feeds/feed-answers.js';
import { FeedTokens } from '../services/feeds/feed-tokens.js';
import { StoreQuestionLimiter } from '../store-question-limit.js';
import type { History } from './history.js';

/** Feeds and embeds (issue 34), built on the store: what their routes answer with. */
export interface Reach {
  feeds: FeedRouteOptions;
  embeds: EmbedRouteOptions;
}

/**
 * Reach needs the store (tokens, embeds and the batches they show live there). Feed reads are
 * limited per token with the store questions' own limits (STORE_QUESTIONS_PER_MINUTE).
 */
export function composeReach(
  settings: Pick<HistoryConfig, 'storeQuestions'> & Pick<AlertsConfig, 'linkBase'>,
  parts: { history: History; now: () => number },
): Reach {
  const { history, now } = parts;
  const db = history.store.db;
  const limiter = new StoreQuestionLimiter(
    { ...DEFAULT_STORE_LIMITS, ...settings.storeQuestions },
    now,
  );
  const answers = new FeedAnswers({
    db,
    asOf: history.asOf.answers,
    history: history.routes.history.answers,
    now,
  });
  const pages = new EmbedPages({ db, asOf: history.asOf.answers, now });
  return {
    feeds: { tokens: new FeedTokens(db, now), answers, limiter },
    embeds: {
      embeds: new Embeds(db, now),
      pages,
      linkBase: settings.linkBase,
      admit: history.admit,
    },
  };
}
