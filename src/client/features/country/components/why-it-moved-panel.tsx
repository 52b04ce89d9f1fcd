import { useQuery } from '@tanstack/react-query';
import { MoveExplanation } from '../../../components/move-explanation';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { ApiError } from '../../../lib/api-client';
import { countryQueries } from '../api/country-queries';

/**
 * "Why it moved": the batch shown (the latest, or `?as_of=`) against the batch before it. A
 * country with one recorded batch, or new in this one, has nothing to compare: said, not an error.
 */
export function WhyItMovedPanel({
  iso,
  name,
  asOf,
}: {
  iso: string;
  name: string;
  asOf: string | null;
}) {
  // The country's recorded batches (already asked by the trend panel) say whether there is an
  // earlier one: without it the explanation is not asked at all (no 400 on the page).
  const history = useQuery(countryQueries.history(iso));
  const recorded = history.data?.data.points.filter(
    (p) => asOf === null || Date.parse(p.as_of) <= Date.parse(asOf),
  ).length;
  const noEarlierBatch = recorded !== undefined && recorded < 2;
  const query = useQuery({
    ...countryQueries.explain(iso, null, asOf),
    enabled: !history.isPending && !noEarlierBatch,
  });
  const nothingToCompare =
    noEarlierBatch ||
    (query.error instanceof ApiError && (query.error.status === 400 || query.error.status === 404));
  return (
    <section className="panel why-panel" aria-labelledby="why-heading">
      <div className="panel-head">
        <h2 id="why-heading">Why it moved</h2>
      </div>
      {nothingToCompare && !query.data ? (
        <p className="empty">
          Nothing to compare yet: {name} is not in a recorded batch before this one.
        </p>
      ) : query.isPending ? (
        <Skeleton label={`Loading why ${name} moved`} lines={3} />
      ) : query.isError && !query.data ? (
        <QueryError
          what={`Why ${name} moved`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <MoveExplanation data={query.data.data} name={name} />
      )}
    </section>
  );
}
