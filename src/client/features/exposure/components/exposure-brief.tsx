import { useQuery } from '@tanstack/react-query';
import type { ExposurePeriod, ExposureResponse } from '../../../../shared/sites-api';
import { tierLabel } from '../../../../shared/tiers';
import { PrintedPages } from '../../../components/printed-pages';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { Sparkline } from '../../../components/sparkline';
import { useAsOf } from '../../../lib/as-of';
import { countryName } from '../../../lib/country-names';
import { formatInteger, formatUtcDateTime } from '../../../lib/format';
import type { SiteFilters } from '../../../lib/site-filters';
import { exposureQueries } from '../api/exposure-queries';
import { useExposureView } from '../hooks/use-exposure-view';
import { ExposureByTier } from './exposure-by-tier';
import { MoveItem, PERIOD_LABELS } from './exposure-moved';
import { RiskiestSites } from './riskiest-sites';

/** The filters in words: "All our sites", "Our sites in Critical, High countries; of kind plant". */
export function filterWords(filters: SiteFilters): string {
  const parts = [
    filters.tiers.length > 0 ? `in ${filters.tiers.map(tierLabel).join(', ')} countries` : null,
    filters.countries.length > 0
      ? `in ${filters.countries.map((iso) => countryName(iso) ?? iso).join(', ')}`
      : null,
    filters.kinds.length > 0 ? `of kind ${filters.kinds.join(', ')}` : null,
    filters.tag !== null ? `tagged ${filters.tag}` : null,
  ].filter((part): part is string => part !== null);
  return parts.length === 0 ? 'All our sites' : `Our sites ${parts.join('; ')}`;
}

function MovedBlock({ answer }: { answer: ExposureResponse }) {
  return (
    <section className="brief-block" aria-labelledby="exposure-brief-moved">
      <h2 id="exposure-brief-moved">Where our sites&apos; countries moved</h2>
      {(Object.keys(PERIOD_LABELS) as ExposurePeriod[]).map((period) => {
        const moved = answer.moved[period];
        return (
          <div key={period} className="brief-period">
            <h3>
              {period === 'previous_batch'
                ? 'Since the previous batch'
                : `In ${PERIOD_LABELS[period]}`}
              {moved.since ? ` (compared with ${formatUtcDateTime(moved.since)})` : ''}
            </h3>
            {moved.since === null ? (
              <p className="empty">No batch recorded that long ago yet.</p>
            ) : moved.countries.length === 0 ? (
              <p className="empty">None of our sites&apos; countries moved.</p>
            ) : (
              <ul className="exposure-moves">
                {moved.countries.map((move) => (
                  <MoveItem key={move.iso} move={move} />
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}

/**
 * A print-ready exposure brief of the view in the URL (the same filters and weight as
 * `/exposure`): the headline figures and the index's trend, sites and people by tier, what moved
 * over each period, the riskiest sites. The batch time is on screen and on every printed page.
 */
export function ExposureBrief() {
  const [view] = useExposureView();
  const query = useQuery(exposureQueries.summary(view.filters, view.weight, useAsOf()));
  const answer = query.data?.data;
  const title = 'Exposure brief';
  if (query.isPending) return <Skeleton label="Loading the exposure brief" lines={8} />;
  if (!answer) {
    return (
      <QueryError
        what="The exposure brief"
        error={query.error ?? new Error('No answer')}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const trend = answer.index.trend;
  return (
    <article className="brief exposure-brief">
      <title>{`${title} · Global Risk Dashboard`}</title>
      <header className="brief-head">
        <h1>{title}</h1>
        <p>
          Data of the batch of{' '}
          {answer.as_of ? formatUtcDateTime(answer.as_of) : 'no recorded batch'} ·{' '}
          {filterWords(view.filters)} · index weighted by {answer.weight}
        </p>
        <button type="button" className="no-print print-button" onClick={() => window.print()}>
          Print / Save as PDF
        </button>
      </header>
      <PrintedPages asOf={answer.as_of} />
      <ExposureByTier answer={answer} />
      <section className="brief-block" aria-labelledby="exposure-brief-index">
        <h2 id="exposure-brief-index">Exposure index over the stored history</h2>
        {trend.length < 2 ? (
          <p className="empty">
            {trend.length === 0 ? 'No batch recorded yet' : 'One batch recorded so far'}: the trend
            starts with the next one.
          </p>
        ) : (
          <p className="brief-index">
            {formatInteger(trend.length)} batches, from {formatUtcDateTime(trend[0]?.as_of)}:{' '}
            <Sparkline
              values={trend.map((point) => point.index)}
              label="Exposure index over the stored history"
              width={320}
              height={48}
              scale
            />
          </p>
        )}
      </section>
      <MovedBlock answer={answer} />
      <RiskiestSites answer={answer} />
    </article>
  );
}
