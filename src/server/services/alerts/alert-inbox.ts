import type { AlertListResponse } from '../../../shared/alerts-api.js';
import { countUnread, markAlertsRead, selectAlerts } from '../../store/alerts.js';
import type { Database } from '../../store/connection.js';
import { selectWatchlists } from '../../store/watchlists.js';
import { alertView } from './alert-views.js';
import { ApiProblem, type Viewer } from './watchlists.js';

const DEFAULT_LIMIT = 50;

/** The in-app inbox: the alerts of every list the viewer can see. Read state is per alert. */
export class AlertInbox {
  constructor(
    private readonly db: Database,
    private readonly linkBase: string | null,
  ) {}

  async #listIds(viewer: Viewer, only: string | undefined): Promise<number[]> {
    const ids = (await selectWatchlists(this.db, viewer)).map((l) => l.id);
    if (only === undefined) return ids;
    if (!/^[1-9]\d{0,14}$/.test(only)) {
      throw new ApiProblem(400, 'watchlist must be a watchlist id such as 3');
    }
    if (!ids.includes(Number(only))) throw new ApiProblem(404, `No watchlist with id ${only}`);
    return [Number(only)];
  }

  async list(query: Map<string, string>, viewer: Viewer): Promise<Omit<AlertListResponse, 'ok'>> {
    const unreadRaw = query.get('unread');
    if (unreadRaw !== undefined && unreadRaw !== '1' && unreadRaw !== '0') {
      throw new ApiProblem(400, 'unread must be 1 or 0');
    }
    const limitRaw = query.get('limit');
    if (
      limitRaw !== undefined &&
      (!/^\d{1,3}$/.test(limitRaw) || +limitRaw < 1 || +limitRaw > 200)
    ) {
      throw new ApiProblem(400, 'limit must be a whole number from 1 to 200');
    }
    const cursor = query.get('cursor');
    if (cursor !== undefined && !/^[1-9]\d{0,14}$/.test(cursor)) {
      throw new ApiProblem(400, 'cursor must be the next_cursor of a previous page');
    }
    const iso = query.get('iso');
    if (iso !== undefined && !/^[A-Za-z]{3}$/.test(iso)) {
      throw new ApiProblem(400, 'iso must be an ISO 3166-1 alpha-3 code such as MLI');
    }
    const ids = await this.#listIds(viewer, query.get('watchlist'));
    const limit = limitRaw === undefined ? DEFAULT_LIMIT : Number(limitRaw);
    const rows = await selectAlerts(this.db, {
      watchlistIds: ids,
      unreadOnly: unreadRaw === '1',
      iso: iso?.toUpperCase() ?? null,
      before: cursor === undefined ? null : Number(cursor),
      limit,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      alerts: page.map((r) => alertView(r, r.watchlistName, this.linkBase)),
      unread: await countUnread(this.db, ids),
      next_cursor: rows.length > limit && last ? String(last.id) : null,
    };
  }

  async unread(viewer: Viewer): Promise<number> {
    return countUnread(this.db, await this.#listIds(viewer, undefined));
  }

  async markRead(ids: number[] | null, viewer: Viewer): Promise<number> {
    return markAlertsRead(this.db, await this.#listIds(viewer, undefined), ids);
  }
}
