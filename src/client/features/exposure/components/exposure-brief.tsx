import { useQuery } from '@tanstack/react-query';
import type { ExposureResponse } from '../../../../shared/sites-api';
import { PrintedPages } from '../../../components/printed-pages';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { Sparkline } from '../../../components/sparkline';
import { useAsOf } from '../../../lib/as-of';
import { formatInteger, formatList, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { pageTitle } from '../../../lib/page-title';
import { tierWord } from '../../../lib/tier-words';
import type { SiteFilters } from '../../../lib/site-filters';
import { exposureQueries } from '../api/exposure-queries';
import { useExposureView } from '../hooks/use-exposure-view';
import { kindWord, siteCountryName } from '../utils/exposure-words';
import { ExposureByTier, indexLabel } from './exposure-by-tier';
import { MoveItem, PERIODS } from './exposure-moved';
import { RiskiestSites } from './riskiest-sites';

/**
 * The filters in words, in the page language: "All our sites", "Our sites in Critical and High
 * countries; of kind plant". The tag is the team's own word, as typed.
 */
export function filterWords(filters: SiteFilters): string {
  const parts: Array<string | null> = [
    filters.tiers.length > 0
      ? t('exposurePage.inTiers', { tiers: formatList(filters.tiers.map(tierWord)) })
      : null,
    filters.countries.length > 0
      ? t('exposurePage.inCountries', {
          countries: formatList(filters.countries.map(siteCountryName)),
        })
      : null,
    filters.kinds.length > 0
      ? t('exposurePage.ofKind', { kinds: formatList(filters.kinds.map(kindWord)) })
      : null,
    filters.tag !== null ? t('exposurePage.tagged', { tag: filters.tag }) : null,
  ];
  const said = parts.filter((part): part is string => part !== null);
  return said.length === 0
    ? t('exposurePage.allSites')
    : t('exposurePage.ourSites', { filters: said.join(t('exposurePage.filtersJoin')) });
}

const PERIOD_HEADINGS = {
  previous_batch: 'exposurePage.sincePrevious',
  day: 'exposurePage.in24Hours',
  week: 'exposurePage.in7Days',
} as const;

function MovedBlock({ answer }: { answer: ExposureResponse }) {
  return (
    <section className="brief-block" aria-labelledby="exposure-brief-moved">
      <h2 id="exposure-brief-moved">{t('exposurePage.movedHeading')}</h2>
      {PERIODS.map((period) => {
        const moved = answer.moved[period];
        return (
          <div key={period} className="brief-period">
            <h3>
              {t(PERIOD_HEADINGS[period])}
              {moved.since
                ? t('exposurePage.comparedWithDate', { date: formatUtcDateTime(moved.since) })
                : ''}
            </h3>
            {moved.since === null ? (
              <p className="empty">{t('exposurePage.noneThatLongAgo')}</p>
            ) : moved.countries.length === 0 ? (
              <p className="empty">{t('exposurePage.noneMoved')}</p>
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
  const title = t('exposurePage.briefTitle');
  if (query.isPending) return <Skeleton label={t('exposurePage.briefLoading')} lines={8} />;
  if (!answer) {
    return (
      <QueryError
        what={t('exposurePage.briefPanel')}
        error={query.error ?? new Error(t('exposurePage.noAnswer'))}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const trend = answer.index.trend;
  return (
    <article className="brief exposure-brief">
      <title>{pageTitle(title)}</title>
      <header className="brief-head">
        <h1>{title}</h1>
        <p>
          {answer.as_of
            ? t('problems.dataOfBatch', { date: formatUtcDateTime(answer.as_of) })
            : t('exposurePage.noRecordedBatch')}{' '}
          · {filterWords(view.filters)} · {indexLabel(answer.weight)}
        </p>
        <button type="button" className="no-print print-button" onClick={() => window.print()}>
          {t('brief.print')}
        </button>
      </header>
      <PrintedPages asOf={answer.as_of} />
      <ExposureByTier answer={answer} />
      <section className="brief-block" aria-labelledby="exposure-brief-index">
        <h2 id="exposure-brief-index">{t('exposurePage.trendHeading')}</h2>
        {trend.length < 2 ? (
          <p className="empty">
            {trend.length === 0 ? t('exposurePage.trendNone') : t('exposurePage.trendOne')}
          </p>
        ) : (
          <p className="brief-index">
            {t('exposurePage.trendBatches', {
              count: trend.length,
              batches: formatInteger(trend.length),
              date: formatUtcDateTime(trend[0]?.as_of),
            })}{' '}
            <Sparkline
              values={trend.map((point) => point.index)}
              label={t('exposurePage.trendHeading')}
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
