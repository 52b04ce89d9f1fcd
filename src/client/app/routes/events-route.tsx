import { useQuery } from '@tanstack/react-query';
import { PanelBoundary } from '../../components/panel-boundary';
import { EventSearch } from '../../features/event-archive/components/event-search';
import { referenceQueries } from '../../features/reference/api/reference-queries';
import { displayName } from '../../lib/display-name';

/** `/events`: the archive of every country's events, searched by words, country and days. */
export function EventsRoute() {
  const reference = useQuery(referenceQueries.countries());
  // Sorted by the name shown (Russia under R, not "Russian Federation").
  const countries = [...(reference.data?.data.countries ?? [])].sort((a, b) =>
    displayName(a.iso, a.name).localeCompare(displayName(b.iso, b.name), 'en'),
  );
  return (
    <div className="events-page">
      <title>Events · Global Risk Dashboard</title>
      <h1>Events</h1>
      <PanelBoundary name="The event search">
        <EventSearch countries={countries} namesLoading={reference.isPending} />
      </PanelBoundary>
    </div>
  );
}
