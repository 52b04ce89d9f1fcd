import type { StatusResponse } from './bff-api.js';
import { previousBatchDue } from './freshness.js';
import type { en } from './i18n/en.js';

/**
 * What the status banner says, shared by the SPA (features/status/components/status-banner.tsx)
 * and the server's first frame (services/rendering/frame-shell.ts): the frame of a page whose
 * batch is overdue or whose data service fails says so from its first paint, in the SPA's words
 * and place (issue 32: never a stale page presented as current, nothing moving at the handover).
 */

/** The catalogue's messages these lines are made of. */
export type StatusKey = `batchStatus.${keyof typeof en.batchStatus}`;

/** How the lines are written: the page's catalogue and its time formats, as plain text. */
export interface StatusWords {
  t(key: StatusKey, values?: Record<string, string>): string;
  /** "13 Nov 2026, 03:00 UTC" */
  dateTime(iso: string): string;
  /** "10:00 UTC" */
  time(iso: string): string;
  /** "2 h ago", "in 5 h" */
  relative(iso: string, now: number): string;
}

/**
 * The documented batch time that has passed without its data arriving: the most recent due time
 * when the newest data (`asOf`) is older than it, else null. "Next batch due 03:00 tomorrow"
 * at 10:04 with 03:00 data would hide that the 10:00 batch never came.
 */
export function overdueBatchAt(asOf: string | null | undefined, now: number): string | null {
  if (!asOf) return null;
  const dataTime = Date.parse(asOf);
  if (Number.isNaN(dataTime)) return null;
  const due = previousBatchDue(now);
  return dataTime < due ? new Date(due).toISOString() : null;
}

/** Failures whose cause a person can act on or wait for: the BFF's own sentence says which. */
const SAID_BY_THE_BFF = new Set(['key_rejected', 'no_api_access', 'rate_limited']);

/**
 * What failed, in a few plain words. An outage's own sentence from the BFF is written for
 * operators (the service's name, its status code, "cached data is shown meanwhile", which the
 * line then says again with the date): on a phone it made the one line six lines long.
 */
function outageSentence(upstream: StatusResponse['upstream'], words: StatusWords): string {
  const cls = upstream.last_error?.class;
  const saidByTheBff =
    upstream.health !== 'down' || (cls !== undefined && SAID_BY_THE_BFF.has(cls));
  if (saidByTheBff && upstream.message) return upstream.message;
  if (upstream.health !== 'down') return words.t('batchStatus.answeringErrors');
  return words.t(
    cls === 'malformed_response' ? 'batchStatus.unreadable' : 'batchStatus.unreachable',
  );
}

/**
 * The banner's lines, as plain text (each caller escapes it its own way): when the data service
 * is unhealthy, a batch is overdue, the store fails or the quota is blocked; none when all is
 * well (an always-on "all good" banner only teaches people to ignore banners). `overdue` is
 * `overdueBatchAt(status.as_of, now)`, given by a caller that shows it elsewhere too (the
 * server's frame, in its header).
 */
export function statusLines(
  status: StatusResponse,
  now: number,
  words: StatusWords,
  overdue: string | null = overdueBatchAt(status.as_of, now),
): string[] {
  const lines: string[] = [];
  const { upstream, quota } = status;
  if (upstream.health !== 'ok') {
    const base = outageSentence(upstream, words);
    // The one line of an outage: what failed and from when the data on screen is (panels do
    // not repeat it). Nothing is promised for data not loaded yet.
    lines.push(
      status.as_of
        ? `${base} ${words.t('batchStatus.showingLast', { date: words.dateTime(status.as_of), relative: words.relative(status.as_of, now) })}`
        : `${base} ${words.t('batchStatus.noDataYet')}`,
    );
  }
  if (overdue && lines.length > 0) {
    // During an outage the overdue batch joins its line: one line on a phone, not two boxes
    // that both say from when the data is.
    lines[0] += ` ${words.t('batchStatus.overdue', { time: words.time(overdue) })}`;
  } else if (overdue && status.as_of) {
    lines.push(
      words.t('batchStatus.overdueSince', {
        time: words.time(overdue),
        due: words.relative(overdue, now),
        date: words.dateTime(status.as_of),
        relative: words.relative(status.as_of, now),
      }),
    );
  }
  // The embedded store failing means new batches and edits are not kept: say so, in its words.
  if (status.store?.health === 'failing') {
    lines.push(status.store.message ?? words.t('batchStatus.storeFailing'));
  }
  const until = quota.blocked_until;
  if (until && Date.parse(until) > now) {
    lines.push(
      words.t('batchStatus.quotaUsedUp', {
        time: words.time(until),
        relative: words.relative(until, now),
      }),
    );
  }
  return lines;
}
