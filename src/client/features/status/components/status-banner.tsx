import type { StatusResponse } from '../../../../shared/bff-api';
import { formatUtcDateTime, formatUtcTime, formatRelative } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { overdueBatchAt } from '../utils/batch-schedule';

/** Whether the banner is saying the data service fails (and from when the data is). */
export function outageShown(status: StatusResponse | undefined): boolean {
  return status !== undefined && status.upstream.health !== 'ok';
}

/** Failures whose cause a person can act on or wait for: the BFF's own sentence says which. */
const SAID_BY_THE_BFF = new Set(['key_rejected', 'no_api_access', 'rate_limited']);

/**
 * What failed, in a few plain words. An outage's own sentence from the BFF is written for
 * operators (the service's name, its status code, "cached data is shown meanwhile", which the
 * line then says again with the date): on a phone it made the one line six lines long.
 */
function outageSentence(upstream: StatusResponse['upstream']): string {
  const cls = upstream.last_error?.class;
  const saidByTheBff =
    upstream.health !== 'down' || (cls !== undefined && SAID_BY_THE_BFF.has(cls));
  if (saidByTheBff && upstream.message) return upstream.message;
  if (upstream.health !== 'down') return t('batchStatus.answeringErrors');
  return cls === 'malformed_response' ? t('batchStatus.unreadable') : t('batchStatus.unreachable');
}

/**
 * A plain sentence when the data service is unhealthy, a batch is overdue or the quota is
 * blocked; nothing when all
 * is well (an always-on "all good" banner only teaches people to ignore banners).
 */
export function StatusBanner({ status, now }: { status: StatusResponse | undefined; now: number }) {
  if (!status) return null;
  const lines: string[] = [];
  const { upstream, quota } = status;
  if (upstream.health !== 'ok') {
    const base = outageSentence(upstream);
    // The one line of an outage: what failed and from when the data on screen is (panels do
    // not repeat it: see outageShown). Nothing is promised for data not loaded yet.
    lines.push(
      status.as_of
        ? `${base} ${t('batchStatus.showingLast', { date: formatUtcDateTime(status.as_of), relative: formatRelative(status.as_of, now) })}`
        : `${base} ${t('batchStatus.noDataYet')}`,
    );
  }
  const overdue = overdueBatchAt(status.as_of, now);
  if (overdue && lines.length > 0) {
    // During an outage the overdue batch joins its line: one line on a phone, not two boxes
    // that both say from when the data is.
    lines[0] += ` ${t('batchStatus.overdue', { time: formatUtcTime(overdue) })}`;
  } else if (overdue) {
    lines.push(
      t('batchStatus.overdueSince', {
        time: formatUtcTime(overdue),
        due: formatRelative(overdue, now),
        date: formatUtcDateTime(status.as_of),
        relative: formatRelative(status.as_of, now),
      }),
    );
  }
  // The embedded store failing means new batches and edits are not kept: say so, in its words.
  if (status.store?.health === 'failing') {
    lines.push(status.store.message ?? t('batchStatus.storeFailing'));
  }
  if (quota.blocked_until) {
    const until = quota.blocked_until;
    if (Date.parse(until) > now) {
      lines.push(
        t('batchStatus.quotaUsedUp', {
          time: formatUtcTime(until),
          relative: formatRelative(until, now),
        }),
      );
    }
  }
  if (lines.length === 0) return null;
  return (
    <div className={`status-banner status-${upstream.health}`} role="status">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
