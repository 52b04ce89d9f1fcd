import {
  ACKS_PER_ALERT_MAX,
  DISPOSITIONS,
  INBOX_STATES,
  acknowledgeInputSchema,
  type Disposition,
  type InboxState,
  type TriagedAlert,
} from '../../../shared/alert-triage-api.js';
import {
  countUnreadFor,
  markReadFor,
  selectAckHistory,
  selectAlertList,
  selectInbox,
  writeAck,
  type Reader,
} from '../../store/alert-triage.js';
import { markAlertsRead } from '../../store/alerts.js';
import type { Database } from '../../store/connection.js';
import { selectWatchlists } from '../../store/watchlists.js';
import { ackView, triagedAlertView } from './alert-views.js';
import { ApiProblem, type Viewer } from './watchlists.js';

const DEFAULT_LIMIT = 50;
const ID = /^[1-9]\d{0,14}$/;

/** Who acknowledges: the name shown to the team, and the person (null for a token). */
export interface Actor {
  name: string;
  subject: string | null;
}

/**
 * The in-app inbox: the alerts of every list the viewer can see. Read state is each person's
 * own (token holders share one, the alert's); the acknowledgement is the team's.
 */
export class AlertInbox {
  constructor(
    private readonly db: Database,
    private readonly linkBase: string | null,
    private readonly now: () => number,
  ) {}

  async #listIds(viewer: Viewer, only: string | undefined): Promise<number[]> {
    const ids = (await selectWatchlists(this.db, viewer)).map((l) => l.id);
    if (only === undefined) return ids;
    if (!ID.test(only)) {
      throw new ApiProblem(400, 'watchlist must be a watchlist id such as 3');
    }
    if (!ids.includes(Number(only))) throw new ApiProblem(404, `No watchlist with id ${only}`);
    return [Number(only)];
  }

  /** `?state=` (or the older `?unread=1`), checked against each other. */
  #state(query: Map<string, string>): InboxState | null {
    const unreadRaw = query.get('unread');
    if (unreadRaw !== undefined && unreadRaw !== '1' && unreadRaw !== '0') {
      throw new ApiProblem(400, 'unread must be 1 or 0');
    }
    const raw = query.get('state');
    if (raw !== undefined && !(INBOX_STATES as readonly string[]).includes(raw)) {
      throw new ApiProblem(400, `state must be one of ${INBOX_STATES.join(', ')}`);
    }
    const state = (raw as InboxState | undefined) ?? null;
    if (unreadRaw === '1') {
      if (state !== null && state !== 'unread') {
        throw new ApiProblem(400, 'unread=1 and state=' + state + ' ask for different alerts');
      }
      return 'unread';
    }
    return state;
  }

  async list(
    query: Map<string, string>,
    viewer: Viewer,
  ): Promise<{ alerts: TriagedAlert[]; unread: number; next_cursor: string | null }> {
    const state = this.#state(query);
    const limitRaw = query.get('limit');
    if (
      limitRaw !== undefined &&
      (!/^\d{1,3}$/.test(limitRaw) || +limitRaw < 1 || +limitRaw > 200)
    ) {
      throw new ApiProblem(400, 'limit must be a whole number from 1 to 200');
    }
    const cursor = query.get('cursor');
    if (cursor !== undefined && !ID.test(cursor)) {
      throw new ApiProblem(400, 'cursor must be the next_cursor of a previous page');
    }
    const iso = query.get('iso');
    if (iso !== undefined && !/^[A-Za-z]{3}$/.test(iso)) {
      throw new ApiProblem(400, 'iso must be an ISO 3166-1 alpha-3 code such as MLI');
    }
    const disposition = query.get('disposition');
    if (disposition !== undefined && !(DISPOSITIONS as readonly string[]).includes(disposition)) {
      throw new ApiProblem(400, `disposition must be one of ${DISPOSITIONS.join(', ')}`);
    }
    if (disposition !== undefined && state === 'unacknowledged') {
      throw new ApiProblem(400, 'an unacknowledged alert has no disposition: drop one of them');
    }
    const ids = await this.#listIds(viewer, query.get('watchlist'));
    const limit = limitRaw === undefined ? DEFAULT_LIMIT : Number(limitRaw);
    const reader: Reader = viewer;
    const rows = await selectInbox(this.db, {
      watchlistIds: ids,
      reader,
      state,
      iso: iso?.toUpperCase() ?? null,
      disposition: (disposition as Disposition | undefined) ?? null,
      before: cursor === undefined ? null : Number(cursor),
      limit,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      alerts: page.map((r) => triagedAlertView(r, this.linkBase)),
      unread: await countUnreadFor(this.db, ids, reader),
      next_cursor: rows.length > limit && last ? String(last.id) : null,
    };
  }

  async unread(viewer: Viewer): Promise<number> {
    return countUnreadFor(this.db, await this.#listIds(viewer, undefined), viewer);
  }

  /** Marks read for the viewer alone; token holders mark the alert's shared read state. */
  async markRead(ids: number[] | null, viewer: Viewer): Promise<number> {
    const lists = await this.#listIds(viewer, undefined);
    if (viewer === null) return markAlertsRead(this.db, lists, ids);
    return markReadFor(this.db, lists, viewer, ids, new Date(this.now()));
  }

  async #visibleAlert(rawId: string, viewer: Viewer): Promise<number> {
    if (!ID.test(rawId)) throw new ApiProblem(400, 'The alert id must be a positive whole number');
    const list = await selectAlertList(this.db, Number(rawId));
    const visible = list !== null && (await this.#listIds(viewer, undefined)).includes(list);
    if (!visible) throw new ApiProblem(404, `No alert with id ${rawId}`);
    return Number(rawId);
  }

  /** Acknowledges (or changes the acknowledgement of) an alert for the team. */
  async acknowledge(
    rawId: string,
    body: unknown,
    viewer: Viewer,
    actor: Actor,
  ): Promise<TriagedAlert> {
    const id = await this.#visibleAlert(rawId, viewer);
    const parsed = acknowledgeInputSchema.safeParse(body);
    if (!parsed.success) {
      throw new ApiProblem(400, parsed.error.issues[0]?.message ?? 'Invalid body');
    }
    const input = parsed.data;
    const outcome = await writeAck(this.db, {
      alertId: id,
      disposition: input.disposition,
      note: input.note === undefined || input.note === '' ? null : input.note,
      byName: actor.name.slice(0, 200),
      bySubject: actor.subject,
      at: new Date(this.now()),
      replaces: input.replaces ?? null,
      maxRevisions: ACKS_PER_ALERT_MAX,
    });
    if (!outcome.ok) {
      const current = outcome.current;
      if (outcome.reason === 'too_many') {
        throw new ApiProblem(
          409,
          `This alert's acknowledgement was changed ${ACKS_PER_ALERT_MAX} times, the most it may be`,
        );
      }
      throw new ApiProblem(
        409,
        current === null
          ? 'This alert has no acknowledgement to change: acknowledge it without "replaces"'
          : `${current.byName} acknowledged this alert at ${current.at.toISOString()} ` +
              `(revision ${current.revision}): reload, then change it with "replaces": ${current.revision}`,
      );
    }
    const [row] = await selectInbox(this.db, {
      watchlistIds: [(await selectAlertList(this.db, id)) ?? 0],
      reader: viewer,
      state: null,
      iso: null,
      disposition: null,
      before: id + 1,
      limit: 1,
    });
    if (!row) throw new ApiProblem(404, `No alert with id ${rawId}`);
    return triagedAlertView(row, this.linkBase);
  }

  async acknowledgements(rawId: string, viewer: Viewer) {
    const id = await this.#visibleAlert(rawId, viewer);
    return (await selectAckHistory(this.db, id)).map(ackView);
  }
}
