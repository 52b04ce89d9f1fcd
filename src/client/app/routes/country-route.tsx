import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { ApiError } from '../../lib/api-client';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { StaleNote } from '../../components/stale-note';
import { useNow } from '../../lib/use-now';
import { countryQueries } from '../../features/country/api/country-queries';
import { CategoriesPanel } from '../../features/country/components/categories-panel';
import { CountryHeader } from '../../features/country/components/country-header';
import { EventFeed } from '../../features/events/components/event-feed';
import { CountryLocatorMap } from '../../features/map/components/country-locator-map';
import { statusQueries } from '../../features/status/api/status-queries';
import { FollowButton } from '../../features/watchlists/components/follow-button';

const NOT_IN_DATA = 'This country is not in the current data (low baseline or no recent news)';
const INVALID_ISO = 'Not a valid ISO country code';

function BackLink() {
  const state: unknown = useLocation().state;
  const from =
    typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string'
      ? state.from
      : '/';
  return (
    <p className="back-link">
      <Link to={from}>← Back to the overview</Link>
    </p>
  );
}

function CountryMessage({ title, text }: { title: string; text: string }) {
  return (
    <div className="page-message">
      <title>{`${title} · Global Risk Dashboard`}</title>
      <h1>{title}</h1>
      <p>{text}</p>
      <BackLink />
    </div>
  );
}

/** `/country/:iso`: a deep link that loads on its own; the code is checked before any request. */
export function CountryRoute() {
  const { iso: raw = '' } = useParams();
  const location = useLocation();
  if (!isIso3(raw)) {
    return (
      <CountryMessage
        title={INVALID_ISO}
        text={`“${raw}” is not a three-letter ISO 3166 code such as UKR or BRA.`}
      />
    );
  }
  const iso = normaliseIso3(raw);
  if (iso !== raw) {
    return <Navigate replace to={{ pathname: `/country/${iso}`, search: location.search }} />;
  }
  return <CountryPage iso={iso} />;
}

function CountryPage({ iso }: { iso: string }) {
  const now = useNow();
  const query = useQuery(countryQueries.detail(iso));
  // Follow and brief need the history store (watchlists and alerts live there).
  const keepsHistory = Boolean(useQuery(statusQueries.current()).data?.data.history);

  if (query.isPending) {
    return (
      <div className="country-page">
        <title>{`${iso} · Global Risk Dashboard`}</title>
        <BackLink />
        <Skeleton label={`Loading ${iso}`} lines={6} />
      </div>
    );
  }
  if (query.isError && !query.data) {
    const status = query.error instanceof ApiError ? query.error.status : 0;
    if (status === 404) {
      return <CountryMessage title={`${iso}: no current data`} text={`${NOT_IN_DATA}.`} />;
    }
    if (status === 400) return <CountryMessage title={INVALID_ISO} text={query.error.message} />;
    return (
      <div className="country-page">
        <title>{`${iso} · Global Risk Dashboard`}</title>
        <BackLink />
        <QueryError
          what={`The data of ${iso}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  }

  const { country, as_of: asOf } = query.data.data;
  return (
    <div className="country-page">
      <title>{`${country.name} (${country.iso}) · Global Risk Dashboard`}</title>
      <BackLink />
      {keepsHistory ? (
        <div className="country-actions no-print">
          <FollowButton iso={country.iso} name={country.name} />
          <Link to={`/brief?iso=${country.iso}`}>Brief (print)</Link>
        </div>
      ) : null}
      <StaleNote
        fetched={query.data}
        refreshError={query.isRefetchError ? query.error : null}
        now={now}
      />
      <div className="country-top">
        <PanelBoundary name="The country summary">
          <CountryHeader country={country} asOf={asOf} now={now} />
        </PanelBoundary>
        <PanelBoundary name="The location map">
          <CountryLocatorMap
            iso={country.iso}
            name={country.name}
            lat={country.lat}
            lng={country.lng}
            tier={country.tier}
          />
        </PanelBoundary>
      </div>
      <div className="country-panels">
        <PanelBoundary name="The categories chart">
          <CategoriesPanel categories={country.categories} />
        </PanelBoundary>
        <PanelBoundary name="The event feed">
          <EventFeed events={country.events} now={now} />
        </PanelBoundary>
      </div>
    </div>
  );
}
