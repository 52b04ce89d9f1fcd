import { asOfCountriesResponseSchema } from '../../../shared/batches-api.js';
import { BadRequest } from '../../refusals.js';
import type { Database } from '../../store/connection.js';
import { teamListCountries } from '../../store/feed-rows.js';
import type { AsOfAnswers } from '../history/as-of-answers.js';
import { embedPage, type EmbedContent } from './embed-page.js';
import type { EmbedListing } from './embeds.js';
import { projectWorld, type MapShape } from './world-map-svg.js';

/** The dashboard's own page for each view, for the embed's link back. */
function dashboardPath(embed: EmbedListing): string {
  if (embed.view === 'country') return `/country/${encodeURIComponent(embed.subject ?? '')}`;
  if (embed.view === 'watchlist') return `/watchlists/${encodeURIComponent(embed.subject ?? '')}`;
  return '/';
}

/**
 * Embedded pages, server-rendered from what the BFF holds (the newest recorded batch in the
 * store: an embed never spends an upstream request). The map's outlines are projected once, on
 * the first map shown, and kept by this instance.
 */
export class EmbedPages {
  #shapes: MapShape[] | null = null;

  constructor(private readonly parts: { db: Database; asOf: AsOfAnswers; now: () => number }) {}

  /** The newest recorded batch's time, or null (the page's poll compares it). */
  async newestBatch(): Promise<string | null> {
    const batch = await this.#batch();
    return batch?.as_of ?? null;
  }

  async page(embed: EmbedListing, base: string): Promise<string> {
    const batch = await this.#batch();
    const content: EmbedContent = {
      embed,
      batch,
      deltas:
        batch && embed.view === 'index'
          ? await this.parts.asOf.recordedRiskDeltas(batch.as_of)
          : null,
      watchlist:
        embed.view === 'watchlist'
          ? await teamListCountries(this.parts.db, Number(embed.subject))
          : null,
      dashboardUrl: `${base}${dashboardPath(embed)}`,
    };
    return embedPage(content, () => (this.#shapes ??= projectWorld()));
  }

  async #batch() {
    try {
      return asOfCountriesResponseSchema.parse(
        await this.parts.asOf.countries(new Date(this.parts.now())),
      );
    } catch (error) {
      // Nothing recorded yet is a page that says so, not an error inside someone's intranet.
      if (error instanceof BadRequest) return null;
      throw error;
    }
  }
}
