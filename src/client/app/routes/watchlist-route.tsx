import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Link } from '../../lib/app-link';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { AlertList } from '../../features/alerts/components/alert-list';
import { countrySummaryQueries } from '../../features/overview/api/country-summary-queries';
import { watchlistQueries } from '../../features/watchlists/api/watchlist-queries';
import { WatchlistCountries } from '../../features/watchlists/components/watchlist-countries';
import { WatchlistRulesSummary } from '../../features/watchlists/components/watchlist-rules-summary';
import { WatchlistSettings } from '../../features/watchlists/components/watchlist-settings';
import { useCountryChoices } from '../use-country-choices';
import { useAsOf } from '../../lib/as-of';
import { useRiskIndex } from '../../lib/risk-index';
import { RiskIndexSwitch, teamNameOf } from '../../components/risk-index-switch';
import { ShareButton } from '../../components/share-button';
import { formatUtcDateTime } from '../../lib/format';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

/** `/watchlists/:id`: a shareable page of one list: numbers, trends, latest alerts, settings. */
export function WatchlistRoute() {
  const { id = '' } = useParams();
  const list = useQuery(watchlistQueries.detail(id));
  const asOf = useAsOf();
  // The numbers of the batch the page shows (`?as_of=`: from the store, never the upstream).
  const [index] = useRiskIndex();
  const countries = useQuery(countrySummaryQueries.list(asOf, index));
  const choices = useCountryChoices(true, asOf);
  if (list.isPending) return <Skeleton label={t('watchlists.loadingList')} lines={6} />;
  if (list.isError && !list.data) {
    return (
      <div className="page-message">
        <title>{pageTitle(t('alerts.watchlist'))}</title>
        <QueryError
          what={t('watchlists.theList')}
          error={list.error}
          onRetry={() => void list.refetch()}
        />
        <p className="back-link">
          <Link to="/watchlists">{t('watchlists.allLists')}</Link>
        </p>
      </div>
    );
  }
  const watchlist = list.data.data.watchlist;
  return (
    <div className="watchlist-page">
      <title>{pageTitle(watchlist.name, t('alerts.watchlist'))}</title>
      <p className="back-link no-print">
        <Link to="/watchlists">{t('watchlists.allLists')}</Link>
      </p>
      <div className="page-head">
        <h1 translate="no" dir="auto">
          {watchlist.name}
        </h1>
        <div className="page-head-actions no-print">
          <Link className="button-link" to={`/brief/${watchlist.id}`}>
            {t('country.brief')}
          </Link>
          <ShareButton />
        </div>
      </div>
      <WatchlistRulesSummary list={watchlist} />
      {asOf !== null && countries.data ? (
        <p className="panel-sub">
          {t('watchlists.numbersOf', { date: formatUtcDateTime(countries.data.data.as_of) })}
        </p>
      ) : null}
      <RiskIndexSwitch teamName={teamNameOf(countries.data?.data)} />
      <PanelBoundary name={t('watchlists.theCountries')}>
        <WatchlistCountries isos={watchlist.countries} countries={countries.data?.data.countries} />
      </PanelBoundary>
      <PanelBoundary name={t('watchlists.theLatestAlerts')}>
        <AlertList title={t('watchlists.latestAlerts')} watchlist={watchlist.id} limit={20} />
      </PanelBoundary>
      {/* "Our sites" is set up on /exposure (the server refuses it as a watchlist edit). */}
      {watchlist.site_alerts ? null : (
        <PanelBoundary name={t('watchlists.theSettings')}>
          <WatchlistSettings list={watchlist} choices={choices} />
        </PanelBoundary>
      )}
    </div>
  );
}
