import { useQuery } from '@tanstack/react-query';
import { PanelBoundary } from '../../components/panel-boundary';
import { EventSearch } from '../../features/event-archive/components/event-search';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { displayName } from '../../lib/display-name';
import { watchlistQueries } from '../../features/watchlists/api/watchlist-queries';
import { activeFormatLocale } from '../../lib/format';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

/** `/events`: the archive of every country's events, searched by words, countries (or a region or watchlist) and days. */
export function EventsRoute() {
  const reference = useQuery(referenceQueries.countries());
  // The search can take a watchlist's countries; without lists (or the store) it offers none.
  const lists = useQuery(watchlistQueries.list());
  const watchlists = (lists.data?.data.watchlists ?? []).map((l) => ({ id: l.id, name: l.name }));
  // Sorted by the name shown (Russia under R, not "Russian Federation").
  const countries = [...(reference.data?.data.countries ?? [])].sort((a, b) =>
    displayName(a.iso, a.name).localeCompare(displayName(b.iso, b.name), activeFormatLocale()),
  );
  return (
    <div className="events-page">
      <title>{pageTitle(t('shell.events'))}</title>
      <h1>{t('shell.events')}</h1>
      <PanelBoundary name={t('events.searchPanel')}>
        <EventSearch
          countries={countries}
          watchlists={watchlists}
          namesLoading={reference.isPending}
        />
      </PanelBoundary>
    </div>
  );
}
