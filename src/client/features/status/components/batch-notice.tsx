import { useQuery } from '@tanstack/react-query';
import { LinkToLatest as Link } from '../../../lib/app-link';
import { t } from '../../../lib/i18n';
import { formatUtcTime } from '../../../lib/format';
import { changesQueries } from '../api/changes-queries';
import type { BatchArrival } from '../hooks/use-batch-watch';

/**
 * Says in words that the page moved to a new batch ("Updated to the 10:00 UTC batch: 3 tier
 * changes"), with a link to the overview's "What changed" panel when the BFF can compare
 * batches. Without the history routes (404) it announces the batch alone.
 */
export function BatchNotice({ arrival }: { arrival: BatchArrival | null }) {
  const changes = useQuery({
    ...changesQueries.sincePrevious(arrival?.asOf ?? ''),
    enabled: arrival !== null,
  });
  const count = changes.data?.tierChanges;
  // The live region exists before anything is said in it, so screen readers announce the text.
  return (
    <div className={arrival ? 'batch-notice' : undefined} role="status">
      {arrival ? (
        <p>
          {typeof count === 'number'
            ? t('batchStatus.updatedWithChanges', { time: formatUtcTime(arrival.asOf), count })
            : t('batchStatus.updated', { time: formatUtcTime(arrival.asOf) })}
          {typeof count === 'number' ? (
            <>
              {' '}
              <Link to="/#what-changed">{t('changes.heading')}</Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
