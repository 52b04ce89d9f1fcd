import type { HistoryCoverage } from '../../../../shared/history-api';
import { formatUtcDateTime } from '../../../lib/format';

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
    return <p className="history-since">No batch recorded yet.</p>;
  }
  const since = firstSeen ?? coverage.since;
  const count = points ?? coverage.batches;
  const batches = `${count} ${count === 1 ? 'batch' : 'batches'}`;
  return (
    <p className="history-since">
      History since {formatUtcDateTime(since)} ({batches} recorded)
      {coverage.demo_seeded ? (
        <>
          {' '}
          · <span className="badge badge-demo">Demo history</span> earlier points were generated,
          not observed
        </>
      ) : null}
    </p>
  );
}
