import { useQuery } from '@tanstack/react-query';
import { LinkToLatest as Link } from '../../../lib/app-link';
import { formatUtcTime } from '../../../lib/format';
import { changesQueries } from '../api/changes-queries';
import type { BatchArrival } from '../hooks/use-batch-watch';

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

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
          Updated to the {formatUtcTime(arrival.asOf)} batch
          {typeof count === 'number' ? `: ${plural(count, 'tier change', 'tier changes')}` : ''}.
          {typeof count === 'number' ? (
            <>
              {' '}
              <Link to="/#what-changed">What changed</Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
