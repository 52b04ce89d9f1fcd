import type { HistoryCoverage } from '../../../../shared/history-api';
import { formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/**
 * Where the recorded history starts and whether it is real. In live mode history begins with the
 * first batch the BFF saw; demo mode seeds 90 days of generated batches, which must say so.
 */
export function HistorySince({
  coverage,
  firstSeen,
  points,
}: {
  coverage: HistoryCoverage;
  /** For a country: the first batch it appeared in, when later than the store's start. */
  firstSeen?: string | null;
  /** For a country: how many batches it is in (the store may hold more). */
  points?: number;
}) {
  if (coverage.since === null) {
    return <p className="history-since">{t('trend.noBatchYet')}</p>;
  }
  const since = firstSeen ?? coverage.since;
  const count = points ?? coverage.batches;
  return (
    <p className="history-since">
      {t('trend.since', { date: formatUtcDateTime(since), count })}
      {coverage.demo_seeded ? (
        <>
          {' '}
          · <span className="badge badge-demo">{t('trend.demoHistory')}</span>
          {t('trend.demoEarlier')}
        </>
      ) : null}
    </p>
  );
}
