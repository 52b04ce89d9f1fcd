import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PanelBoundary } from '../../../components/panel-boundary';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { Link } from '../../../lib/app-link';
import { useAsOf } from '../../../lib/as-of';
import { siteListQueries } from '../../../lib/site-list-queries';
import { formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { NO_SITE_FILTERS } from '../../../lib/site-filters';
import { exposureQueries } from '../api/exposure-queries';
import { useRiskIndex } from '../../../lib/risk-index';
import { useExposureView } from '../hooks/use-exposure-view';
import { sitesSpreadsheetPath } from '../utils/exposure-view';
import { ExposureByTier } from './exposure-by-tier';
import { ExposureFilters } from './exposure-filters';
import { ExposureMoved } from './exposure-moved';
import { ExposureTrend } from './exposure-trend';
import { RiskiestSites } from './riskiest-sites';

/**
 * `/exposure`'s figures for the view in the URL: by tier, what moved, the riskiest sites and the
 * index's trend, each panel failing on its own. Filters keep the last answer on screen while
 * the next one loads. Until the first answer, one loading frame stands for all of it and for
 * `after` (the route's import panel): drawn around a frame, they moved as the answer arrived.
 */
export function ExposureOverview({ after }: { after?: ReactNode }) {
  const [view, setView] = useExposureView();
  const asOf = useAsOf();
  const [index] = useRiskIndex();
  const query = useQuery({
    ...exposureQueries.summary(view.filters, view.weight, asOf, index),
    placeholderData: keepPreviousData,
  });
  // Every site, for the country and tag choices (the map reads the same cache entry).
  const sites = useQuery(siteListQueries.list(NO_SITE_FILTERS));
  const answer = query.data?.data;
  const { search } = useLocation();

  // The sites too: the country and tag choices are drawn from them.
  if (query.isPending || sites.isPending) {
    return <Skeleton label={t('exposurePage.loading')} lines={6} />;
  }
  return (
    <>
      <div className="exposure-tools">
        <ExposureFilters
          view={view}
          tiers={answer?.by_tier.map((t) => t.tier) ?? []}
          sites={sites.data?.data.sites}
          onChange={setView}
        />
        <p className="exposure-export">
          <a href={sitesSpreadsheetPath(view.filters)} download>
            {asOf === null ? t('exposurePage.download') : t('exposurePage.downloadLatest')}
          </a>{' '}
          · {/* The brief of this very view: the same URL parameters. */}
          <Link to={`/exposure/brief${search}`}>{t('exposurePage.briefLink')}</Link>
          {answer?.as_of ? (
            <span className="muted">
              {' '}
              {t('exposurePage.numbersOf', { date: formatUtcDateTime(answer.as_of) })}
            </span>
          ) : null}
        </p>
      </div>
      {query.isError && !answer ? (
        <QueryError
          what={t('exposurePage.panel')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : answer ? (
        <div className="two-columns exposure-grid" aria-busy={query.isPlaceholderData}>
          <PanelBoundary name={t('exposurePage.panelByTier')}>
            <ExposureByTier answer={answer} />
          </PanelBoundary>
          <PanelBoundary name={t('exposurePage.panelMoved')}>
            <ExposureMoved
              answer={answer}
              period={view.period}
              onPeriod={(period) => setView({ period })}
            />
          </PanelBoundary>
          <PanelBoundary name={t('exposurePage.panelRiskiest')}>
            <RiskiestSites answer={answer} />
          </PanelBoundary>
          <PanelBoundary name={t('exposurePage.panelTrend')}>
            <ExposureTrend answer={answer} />
          </PanelBoundary>
        </div>
      ) : null}
      {after}
    </>
  );
}
