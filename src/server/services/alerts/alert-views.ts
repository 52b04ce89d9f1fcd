import type { Alert, AlertNumbers, Watchlist } from '../../../shared/alerts-api.js';
import type {
  Acknowledgement,
  Disposition,
  TriagedAlert,
} from '../../../shared/alert-triage-api.js';
import type { InboxRow } from '../../store/alert-triage.js';
import type { AlertRow } from '../../store/alerts.js';
import type { CountryRow } from '../../store/batches.js';
import type { WatchlistRow } from '../../store/watchlists.js';
import { teamIndexOf } from '../../../shared/team-index-api.js';

/** Store rows → API bodies. Ids are strings in the API (room for other id schemes later). */

/**
 * How far back the rules comparing two batches look for a country the previous batch lacks: a
 * week of batches (the live evaluator, jobs/alert-before.ts, and the backtest alike).
 */
export const BEFORE_LOOKBACK_MS = 7 * 24 * 3_600_000;

/** A country page: absolute when the operator set ALERT_LINK_BASE_URL (e-mail, webhooks). */
export function countryLink(iso: string, base: string | null): string {
  return `${base ?? ''}/country/${iso}`;
}

/**
 * A recorded country's numbers as an alert states them (before and after); with `teamWeights`
 * (issue 31) its team index too, for the team index rule.
 */
export function alertNumbers(
  row: CountryRow,
  teamWeights: Record<string, number> | null = null,
): AlertNumbers {
  const numbers = {
    as_of: row.asOf.toISOString(),
    risk: row.risk,
    tier: row.tier,
    active: row.active,
  };
  return teamWeights ? { ...numbers, team: teamIndexOf(row.categories, teamWeights) } : numbers;
}

export function alertView(row: AlertRow, listName: string, linkBase: string | null): Alert {
  return {
    id: String(row.id),
    watchlist_id: String(row.watchlistId),
    watchlist_name: listName,
    rule: row.ruleKey,
    kind: row.kind,
    iso: row.iso,
    country: row.country,
    message: row.message,
    // A method notice is about the list, not one country: What changed (the overview) says more.
    link: row.kind === 'method_change' ? `${linkBase ?? ''}/` : countryLink(row.iso, linkBase),
    batch_as_of: row.batchAsOf.toISOString(),
    before: row.before ?? null,
    after: row.after,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

export function watchlistView(row: WatchlistRow, unread: number, siteListId?: number): Watchlist {
  return {
    id: String(row.id),
    // The team list "Our sites" the site rule writes to (issue 33, point 12): its page says so.
    site_alerts: row.id === siteListId,
    name: row.name,
    countries: row.countries,
    rules: row.rules,
    scope: row.owner === null ? 'team' : 'user',
    owner: row.owner,
    webhook:
      row.webhookUrl === null
        ? null
        : {
            url: row.webhookUrl,
            format: row.webhookFormat,
            paused_at: row.webhookPausedAt?.toISOString() ?? null,
            paused_reason: row.webhookPausedReason,
          },
    email: row.email,
    language: row.language,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    unread_alerts: unread,
  };
}

export const versionEtag = (row: { version: number }): string => `"${row.version}"`;

/** An acknowledgement (current, or one of the history) as the API shows it. */
export function ackView(row: {
  disposition: Disposition;
  note: string | null;
  byName: string;
  at: Date;
  revision: number;
}): Acknowledgement {
  return {
    disposition: row.disposition,
    note: row.note,
    by: row.byName,
    at: row.at.toISOString(),
    revision: row.revision,
  };
}

/** An inbox row: the alert, the asker's read state, the team's acknowledgement. */
export function triagedAlertView(row: InboxRow, linkBase: string | null): TriagedAlert {
  return {
    ...alertView(row, row.watchlistName, linkBase),
    acknowledgement: row.ack === null ? null : ackView(row.ack),
  };
}
