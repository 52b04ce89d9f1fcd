import type { AlertsConfig } from '../config.js';
import type { EmbedRouteOptions } from '../routes/embeds.js';
import { EmbedPages } from '../services/embeds/embed-pages.js';
import { Embeds } from '../services/embeds/embeds.js';
import type { FeedRouteOptions } from '../routes/feeds.js';
import { FeedAnswers } from '../services/feeds/feed-answers.js';
import { FeedTokens } from '../services/feeds/feed-tokens.js';
import type { History } from './history.js';

/** Feeds and embeds (issue 34), built on the store: what their routes answer with. */
export interface Reach {
  feeds: FeedRouteOptions;
  embeds: EmbedRouteOptions;
}

/**
 * Reach needs the store (tokens, embeds and the batches they show live there). Feed reads are
 * limited per token with the store questions' own limits (STORE_QUESTIONS_PER_MINUTE), in a
 * limiter of their own.
 */
export function composeReach(
  settings: Pick<AlertsConfig, 'linkBase'>,
  parts: { history: History; now: () => number },
): Reach {
  const { history, now } = parts;
  const db = history.store.db;
  const limiter = history.newQuestionLimiter();
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
