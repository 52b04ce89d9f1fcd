import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { Navigate, useLocation, useParams } from 'react-router';
import { Link } from '../../lib/app-link';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { ApiError } from '../../lib/api-client';
import { countryName, isAssignedIso3 } from '../../lib/country-names';
import { displayName } from '../../lib/display-name';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { StaleNote } from '../../components/stale-note';
import { useNow } from '../../lib/use-now';
import { ComparePicker } from '../../features/compare/components/compare-picker';
import { countryQueries } from '../../features/country/api/country-queries';
import {
  EventArchivePanel,
  type EventKeyed,
} from '../../features/event-archive/components/event-archive-panel';
import { CategoryHistoryPanel } from '../../features/history/components/category-history-panel';
import { CountryTrendPanel } from '../../features/history/components/country-trend-panel';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { CategoriesPanel } from '../../features/country/components/categories-panel';
import { CountryHeader } from '../../features/country/components/country-header';
import { WhyItMovedDisclosure } from '../../features/country/components/why-it-moved-panel';
import { useRecordedCountryChange } from '../../features/country/hooks/use-move-explanation';
import { NotesPanel } from '../../features/notes/components/notes-panel';
import { EventFeed } from '../../features/events/components/event-feed';
import { statusQueries } from '../../features/status/api/status-queries';
import { CountryExportLink } from '../../features/export/components/export-links';
import { CountryLocatorMap } from '../../features/map/components/country-locator-map';
import { FollowButton } from '../../features/watchlists/components/follow-button';
import { CountrySites } from '../../features/sites/components/country-sites';
import { useAsOf } from '../../lib/as-of';
import { useRiskIndex } from '../../lib/risk-index';
import { RiskIndexSwitch, teamNameOf, teamWeightsOf } from '../../components/risk-index-switch';
import { TeamFigures } from '../../features/country/components/team-figures';
import { PrintedPages } from '../../components/printed-pages';
import { PastBatchJump } from '../../features/as-of/components/as-of-bar';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

function BackLink() {
  const state: unknown = useLocation().state;
  const from =
    typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string'
      ? state.from
      : '/';
  return (
    <p className="back-link">
      <Link to={from}>{t('country.back')}</Link>
    </p>
  );
}

function CountryMessage({
  title,
  text,
  pageTitle: titleOfPage = title,
}: {
  title: string;
  text: string;
  pageTitle?: string;
}) {
  return (
    <div className="page-message">
      <title>{pageTitle(titleOfPage)}</title>
      <h1>{title}</h1>
      <p>{text}</p>
      <BackLink />
    </div>
  );
}

/** The recorded past of a country: its trend and its categories over time. */
function CountryTrends({ iso }: { iso: string }) {
  return (
    <div className="two-columns history-row">
      <PanelBoundary name={t('countryPage.panelTrend')}>
        <CountryTrendPanel iso={iso} />
      </PanelBoundary>
      {/* The categories' history needs the screen's width to read; paper gets the trend alone. */}
      <div className="no-print">
        <PanelBoundary name={t('countryPage.panelCategoryHistory')}>
          <CategoryHistoryPanel iso={iso} />
        </PanelBoundary>
      </div>
    </div>
  );
}

function EventArchive({ iso, inFeed }: { iso: string; inFeed?: readonly EventKeyed[] }) {
  return (
    <PanelBoundary name={t('countryPage.panelArchive')}>
      <EventArchivePanel iso={iso} inFeed={inFeed} />
    </PanelBoundary>
  );
}

/**
 * "Compare with…" subscribed to the country names itself: their list is often the page's last
 * answer, and read by the page it re-rendered every panel in one task (246 ms at 4x CPU).
 */
function CountryComparePicker({ iso }: { iso: string }) {
  const reference = useQuery(referenceQueries.countries());
  return <ComparePicker current={[iso]} reference={reference.data?.data.countries} />;
}

/** `/country/:iso`: a deep link that loads on its own; the code is checked before any request. */
export function CountryRoute() {
  const { iso: raw = '' } = useParams();
  const location = useLocation();
  if (!isIso3(raw)) {
    return (
      <CountryMessage
        title={t('country.invalidIso')}
        text={t('countryPage.notThreeLetters', { code: raw })}
      />
    );
  }
  const iso = normaliseIso3(raw);
  if (iso !== raw) {
    return <Navigate replace to={{ pathname: `/country/${iso}`, search: location.search }} />;
  }
  return <CountryPage iso={iso} />;
}

/** What the country page reads: the country (of the batch shown), the status and the reference. */
function useCountryPageData(iso: string) {
  const now = useNow();
  const shownAsOf = useAsOf();
  const [index] = useRiskIndex();
  const query = useQuery(countryQueries.detail(iso, shownAsOf, index));
  // During an outage a first load can take the BFF's whole retry budget: say why at once.
  const serviceDown = useQuery(statusQueries.current()).data?.data.upstream.health === 'down';
  // Asked for as the page starts, read by the picker alone (CountryComparePicker).
  usePrefetchQuery(referenceQueries.countries());
  // Follow and brief need the history store (watchlists and alerts live there).
  const keepsHistory = Boolean(useQuery(statusQueries.current()).data?.data.history);
  return { now, shownAsOf, query, serviceDown, keepsHistory };
}

type CountryPageData = ReturnType<typeof useCountryPageData>;
type CountryAnswer = NonNullable<CountryPageData['query']['data']>;

function CountryPage({ iso }: { iso: string }) {
  const page = useCountryPageData(iso);
  const { query } = page;
  // Named before the data arrives (and when it never does): "Iceland", not "ISL".
  const name = displayName(iso, countryName(iso) ?? iso);

  if (query.isPending) {
    return <CountryLoading name={name} serviceDown={page.serviceDown} />;
  }
  if (query.isError && !query.data) {
    return (
      <CountryFailed
        iso={iso}
        name={name}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <CountryView iso={iso} answer={query.data} page={page} />;
}

function CountryLoading({ name, serviceDown }: { name: string; serviceDown: boolean }) {
  return (
    <div className="country-page">
      <title>{pageTitle(name)}</title>
      <BackLink />
      {serviceDown ? (
        <p className="panel-error" role="alert">
          {t('countryPage.serviceDown', { name })}
        </p>
      ) : null}
      <Skeleton label={t('countryPage.loading', { name })} lines={6} />
    </div>
  );
}

/** No answer to show: not a country, not in the data (its past may be), or a failure. */
function CountryFailed({
  iso,
  name,
  error,
  onRetry,
}: {
  iso: string;
  name: string;
  error: Error;
  onRetry: () => void;
}) {
  const status = error instanceof ApiError ? error.status : 0;
  // Asked first, judged after: the data may hold codes outside ISO 3166 (Kosovo's XKX).
  if (status === 404 && !isAssignedIso3(iso)) {
    return (
      <CountryMessage
        title={t('countryPage.notACode', { iso })}
        text={t('countryPage.notACodeText', { iso })}
      />
    );
  }
  if (status === 404) {
    // A country that left the data may still have a recorded past.
    return (
      <>
        <CountryMessage
          title={t('countryPage.noCurrentData', { name })}
          text={t('countryPage.notInData', { name })}
          pageTitle={name}
        />
        <div className="country-page">
          <CountryTrends iso={iso} />
          {/* "Skip to the events" lands on the recorded ones: there are no current events. */}
          <div id="country-events" tabIndex={-1}>
            <EventArchive iso={iso} />
          </div>
        </div>
      </>
    );
  }
  if (status === 400)
    return <CountryMessage title={t('country.invalidIso')} text={error.message} />;
  return (
    <div className="country-page">
      <title>{pageTitle(name)}</title>
      <BackLink />
      {/* The team view can be refused (no weights set yet): the provider's stays one click away. */}
      <RiskIndexSwitch teamName={null} />
      <QueryError what={t('countryPage.dataOf', { name })} error={error} onRetry={onRetry} />
    </div>
  );
}

function CountryView({
  iso,
  answer,
  page,
}: {
  iso: string;
  answer: CountryAnswer;
  page: CountryPageData;
}) {
  const { now, shownAsOf, query, keepsHistory } = page;
  const { country, as_of: asOf } = answer.data;
  const recorded = useRecordedCountryChange(country.iso, shownAsOf, asOf, keepsHistory);
  return (
    <div className="country-page">
      <title>{pageTitle(`${displayName(country.iso, country.name)} (${country.iso})`)}</title>
      {/* The batch time and page numbers on every printed page (issue 33, point 9). */}
      <PrintedPages asOf={asOf} />
      <BackLink />
      <StaleNote
        fetched={answer}
        refreshError={query.isRefetchError ? query.error : null}
        now={now}
      />
      {/* The country and its score first, what one can do with it after: on a phone the actions
          above the header put the country's name 366 px down the screen. */}
      <div className="two-columns wide-first">
        <PanelBoundary name={t('countryPage.panelSummary')}>
          {/* One cell of the two columns: the switch and the team's figures under the header. */}
          <div>
            <CountryHeader
              country={country}
              asOf={asOf}
              now={now}
              recordedDelta={recorded.delta}
              methodChanges={recorded.methodChanges}
              changeArriving={recorded.arriving}
              why={
                keepsHistory ? (
                  <PanelBoundary name={t('why.heading')}>
                    <WhyItMovedDisclosure
                      iso={country.iso}
                      name={displayName(country.iso, country.name)}
                      asOf={shownAsOf}
                    />
                  </PanelBoundary>
                ) : null
              }
            />
            <RiskIndexSwitch teamName={teamNameOf(answer.data)} />
            <TeamFigures country={country} teamName={teamNameOf(answer.data)} />
          </div>
        </PanelBoundary>
        <PanelBoundary name={t('countryPage.panelLocator')}>
          <CountryLocatorMap
            iso={country.iso}
            name={displayName(country.iso, country.name)}
            lat={country.lat}
            lng={country.lng}
            tier={country.tier}
          />
        </PanelBoundary>
      </div>
      <div className="country-actions no-print">
        <CountryComparePicker iso={iso} />
        {keepsHistory ? (
          <>
            <FollowButton iso={country.iso} name={country.name} />
            <Link to={`/brief?iso=${country.iso}`}>{t('country.brief')}</Link>
          </>
        ) : null}
      </div>
      {keepsHistory ? <PastBatchJump /> : null}
      <CountryExportLink iso={country.iso} name={displayName(country.iso, country.name)} />
      <CountryTrends iso={iso} />
      <div className="two-columns">
        <PanelBoundary name={t('countryPage.panelCategories')}>
          <CategoriesPanel
            categories={country.categories}
            ourWeights={teamWeightsOf(answer.data)}
          />
        </PanelBoundary>
        <PanelBoundary name={t('countryPage.panelEvents')}>
          <EventFeed events={country.events} now={now} />
        </PanelBoundary>
      </div>
      {/* Below the country's own panels: it arrives after the first render with a height only
          its answer knows, and above them it pushed the trends down (layout-shift.test.ts). */}
      {keepsHistory ? (
        <PanelBoundary name={t('notes.heading')}>
          <NotesPanel iso={country.iso} asOf={shownAsOf} />
        </PanelBoundary>
      ) : null}
      {/* Screen-only: on paper the page is two sheets (issue 33, point 9); the feed above carries
          the newest events, and sites and the searchable archive are for the screen. */}
      <div className="no-print">
        <PanelBoundary name={t('countryPage.panelSites')}>
          <CountrySites iso={country.iso} enabled={keepsHistory} />
        </PanelBoundary>
        <EventArchive iso={iso} inFeed={country.events ?? undefined} />
      </div>
    </div>
  );
}
