import { useContext } from 'react';
import { formatRelative, formatUtcDateTime } from '../lib/format';
import { OutageShown } from './outage-shown';
import type { Fetched } from '../lib/api-client';
import { retryHint } from './query-error';
import { plainWords } from '../lib/plain-words';
import { t } from '../lib/i18n';

interface StaleFields {
  as_of?: string | undefined;
  stale?: boolean | undefined;
  stale_reason?: string | undefined;
}

/**
 * Says when data on screen is older than it should be: either the BFF served it past its
 * freshness because the upstream failed (`stale: true`), or our own refresh just failed. Data
 * stays visible in both cases; this note is how the reader knows to discount it.
 */
export function StaleNote({
  fetched,
  refreshError,
  now,
}: {
  fetched: Fetched<StaleFields> | undefined;
  refreshError: Error | null;
  now: number;
}) {
  const outage = useContext(OutageShown);
  if (!fetched) return null;
  const bffStale = fetched.data.stale === true;
  if (!bffStale && !refreshError) return null;
  // The status banner already says the service fails and from when the data is.
  if (outage && !refreshError) return null;

  // Since when: the BFF's copy was fetched `Age` seconds before we received it.
  const since = new Date(fetched.receivedAt - (fetched.ageSeconds ?? 0) * 1000).toISOString();
  const reasons: string[] = [];
  if (bffStale) {
    const reason = fetched.data.stale_reason;
    reasons.push(
      reason
        ? t('problems.notRefreshedBecause', { reason: plainWords(reason) })
        : t('problems.notRefreshed'),
    );
  }
  if (refreshError) {
    reasons.push(t('problems.refreshFailed', { reason: plainWords(refreshError.message) }));
  }
  const hint = refreshError ? retryHint(refreshError, now) : null;

  // What ages is the data, not our copy of it: two-day-old data fetched four minutes ago must
  // not read as fresh, so the data's own time leads and the fetch time follows.
  const asOf = fetched.data.as_of;
  const lead = asOf
    ? t('problems.staleFrom', {
        date: formatUtcDateTime(asOf),
        relative: formatRelative(asOf, now),
      })
    : t('problems.staleSince', {
        date: formatUtcDateTime(since),
        relative: formatRelative(since, now),
      });
  const cause = reasons.join(t('problems.reasonsJoin'));
  const body = asOf
    ? t('problems.lastFetched', {
        cause: `${cause.charAt(0).toUpperCase()}${cause.slice(1)}`,
        date: formatUtcDateTime(since),
        relative: formatRelative(since, Math.max(now, Date.parse(since))),
      })
    : t('problems.causeOnly', { cause });
  return (
    <p className="stale-note" role="status">
      <strong>{lead}</strong> {body} {t('problems.lastGood')}
      {hint ? ` ${hint}` : ''}
    </p>
  );
}
