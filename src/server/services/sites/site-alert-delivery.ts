import { siteAlertDeliveryInputSchema } from '../../../shared/sites-api.js';
import type { Database } from '../../store/connection.js';
import {
  ensureSiteAlertList,
  selectSiteAlertList,
  updateSiteAlertDelivery,
} from '../../store/sites-alerts.js';
import { countSites } from '../../store/sites.js';
import { countUnreadByList } from '../../store/alert-triage.js';
import type { WatchlistRow } from '../../store/watchlists.js';
import type { Watchlist } from '../../../shared/alerts-api.js';
import { refusedUrl } from '../alerts/address-policy.js';
import { watchlistView } from '../alerts/alert-views.js';
import { newWebhookSecret, type Viewer } from '../alerts/watchlists.js';
import { ApiProblem, editConflict, requireVersion, zodWords } from '../api-problem.js';

export const NO_SITES_YET =
  'There are no sites yet: the "Our sites" list and its delivery settings come with the first site';

export interface SiteAlertDeliveryDeps {
  db: Database;
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Saving lifts a webhook pause: what waited for it is due again. */
  onQueued: () => void;
}

/**
 * Where site alerts go: the inbox, under the team list "Our sites", and that list's webhook and
 * e-mail, set here with the same checks as a watchlist's (address policy, a `whsec_` secret shown
 * once, If-Match). The list has no countries or rules of its own, so it is not edited as one.
 */
export class SiteAlertDelivery {
  constructor(private readonly deps: SiteAlertDeliveryDeps) {}

  /**
   * The list exists when sites exist (issue 33, point 12): made with the first site
   * (site-service.ts), or here for sites written before that rule. Without sites, a 404 in words:
   * asking is never what makes it.
   */
  async row(): Promise<WatchlistRow> {
    const found = await selectSiteAlertList(this.deps.db);
    if (found) return found;
    if ((await countSites(this.deps.db)) === 0) {
      throw new ApiProblem(404, NO_SITES_YET);
    }
    return ensureSiteAlertList(this.deps.db);
  }

  /** The list as `viewer` sees it: the unread count is theirs, as in the inbox (issue 21). */
  async view(row: WatchlistRow, viewer: Viewer): Promise<Watchlist> {
    const unread = await countUnreadByList(this.deps.db, [row.id], viewer);
    return watchlistView(row, unread.get(row.id) ?? 0, row.id);
  }

  async update(
    ifMatch: string | undefined,
    body: unknown,
  ): Promise<{ row: WatchlistRow; secret: string | null }> {
    const current = await this.row();
    const version = requireVersion(ifMatch, current.version, 'site alert delivery');
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new ApiProblem(400, 'The body must be a JSON object with webhook_url and email');
    }
    const parsed = siteAlertDeliveryInputSchema.safeParse(body);
    if (!parsed.success) throw new ApiProblem(400, zodWords(parsed.error, 'not a valid setting'));
    const input = parsed.data;
    if (input.webhook_url) {
      const refused = refusedUrl(input.webhook_url, this.deps.allowPrivate);
      if (refused) throw new ApiProblem(400, refused);
    }
    // A webhook keeps its secret across edits; the first webhook gets one, shown once.
    const secret = input.webhook_url ? (current.webhookSecret ?? newWebhookSecret()) : null;
    const row = await updateSiteAlertDelivery(this.deps.db, current.id, version, {
      webhookUrl: input.webhook_url ?? null,
      webhookFormat: input.webhook_format ?? 'standard',
      webhookSecret: secret,
      email: input.email ?? null,
    });
    if (!row) throw editConflict('site alert delivery');
    if (current.webhookPausedAt) this.deps.onQueued();
    return { row, secret: secret !== null && current.webhookSecret === null ? secret : null };
  }
}
