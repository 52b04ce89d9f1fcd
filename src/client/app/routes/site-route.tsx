import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { Link } from '../../lib/app-link';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { ApiError } from '../../lib/api-client';
import { bffQueries } from '../../lib/bff-queries';
import { useNow } from '../../lib/use-now';
import { EventFeed } from '../../features/events/components/event-feed';
import { CountryTrendPanel } from '../../features/history/components/country-trend-panel';
import { hotspotQueries } from '../../features/hotspots/api/hotspot-queries';
import { countrySummaryQueries } from '../../features/overview/api/country-summary-queries';
import { siteQueries } from '../../features/sites/api/site-queries';
import { SiteEditor } from '../../features/sites/components/site-editor';
import { SiteSummary } from '../../features/sites/components/site-summary';
import {
  NearestHotspots,
  NeighbourCountries,
} from '../../features/sites/components/site-surroundings';
import { MAX_HOTSPOT_LIMIT } from '../../../shared/page-data';
import { useCan } from '../../lib/me-queries';
import { useCountryChoices } from '../use-country-choices';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

function BackToExposure() {
  return (
    <p className="back-link">
      <Link to="/exposure">{t('sites.backToExposure')}</Link>
    </p>
  );
}

/** The site's page when there is none: deleted (404), or the answer failed. */
function NoSite({ id, error, retry }: { id: string; error: Error | null; retry: () => void }) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <div className="site-page">
      <title>{pageTitle(missing ? t('sites.noSuchSite') : t('sites.site'))}</title>
      {missing ? (
        <>
          <h1>{t('sites.noSuchSite')}</h1>
          <p>{t('sites.noSuchSiteText', { id })}</p>
        </>
      ) : (
        <QueryError
          what={t('sites.theSite')}
          error={error ?? new Error('No answer')}
          onRetry={retry}
        />
      )}
      <BackToExposure />
    </div>
  );
}

/** `/sites/:id`: one of our sites against its country's risk, the hotspots and its neighbours. */
export function SiteRoute() {
  const { id = '' } = useParams();
  const now = useNow();
  const query = useQuery(siteQueries.detail(id));
  const site = query.data?.data.site;
  const hotspots = useQuery(hotspotQueries.list({ tiers: [], limit: MAX_HOTSPOT_LIMIT }));
  const countries = useQuery(countrySummaryQueries.list());
  const figures = useMemo(
    () => (countries.data ? new Map(countries.data.data.countries.map((c) => [c.iso, c])) : null),
    [countries.data],
  );
  const country = useQuery({ ...bffQueries.country(site?.iso ?? ''), enabled: Boolean(site) });
  // The edit form's country picker: asked for only when the form is offered.
  const editor = useCan('editor');
  const choices = useCountryChoices(editor);

  // The site's panels are drawn once the country figures and hotspots are in (or failed) too:
  // drawn before, their rows changed height as names and tiers arrived and moved the page.
  if (query.isPending || countries.isPending || hotspots.isPending) {
    return (
      <div className="site-page">
        <title>{pageTitle(t('sites.site'))}</title>
        <BackToExposure />
        <Skeleton label={t('sites.loading')} lines={6} />
      </div>
    );
  }
  if (!site) return <NoSite id={id} error={query.error} retry={() => void query.refetch()} />;
  return (
    <div className="site-page">
      <title>{pageTitle(site.name)}</title>
      <BackToExposure />
      <h1 translate="no">{site.name}</h1>
      <div className="two-columns">
        <PanelBoundary name={t('sites.theSite')}>
          <SiteSummary
            site={site}
            asOf={query.data?.data.site.country ? countries.data?.data.as_of : null}
          />
        </PanelBoundary>
        <PanelBoundary name={t('sites.withinReach')}>
          <NeighbourCountries site={site} figures={figures} />
        </PanelBoundary>
      </div>
      <div className="two-columns history-row">
        <PanelBoundary name={t('sites.theTrend')}>
          <CountryTrendPanel iso={site.iso} />
        </PanelBoundary>
        <PanelBoundary name={t('sites.nearestHotspots')}>
          <NearestHotspots site={site} hotspots={hotspots.data?.data.hotspots} />
        </PanelBoundary>
      </div>
      {editor ? (
        <PanelBoundary name={t('sites.theEditForm')}>
          <SiteEditor key={site.id} site={site} choices={choices} />
        </PanelBoundary>
      ) : null}
      <PanelBoundary name={t('sites.theEventFeed')}>
        {country.isError && !country.data ? (
          <QueryError
            what={t('sites.countryEvents')}
            error={country.error}
            onRetry={() => void country.refetch()}
          />
        ) : (
          <EventFeed events={country.data?.data.country.events} now={now} />
        )}
      </PanelBoundary>
    </div>
  );
}
