import { siteAlertDeliveryInputSchema } from '../../../shared/sites-api.js';
import type { Database } from '../../store/connection.js';
import { ensureSiteAlertList, updateSiteAlertDelivery } from '../../store/sites-alerts.js';
import { countUnreadByList } from '../../store/alert-triage.js';
import type { WatchlistRow } from '../../store/watchlists.js';
import type { Watchlist } from '../../../shared/alerts-api.js';
import { refusedUrl } from '../alerts/address-policy.js';
import { watchlistView } from '../alerts/alert-views.js';
import { newWebhookSecret, type Viewer } from '../alerts/watchlists.js';
import { ApiProblem, editConflict, requireVersion, zodWords } from '../api-problem.js';

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

  async row(): Promise<WatchlistRow> {
    return ensureSiteAlertList(this.deps.db);
  }

  /** The list as `viewer` sees it: the unread count is theirs, as in the inbox (issue 21). */
  async view(row: WatchlistRow, viewer: Viewer): Promise<Watchlist> {
    const unread = await countUnreadByList(this.deps.db, [row.id], viewer);
    return watchlistView(row, unread.get(row.id) ?? 0);
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
