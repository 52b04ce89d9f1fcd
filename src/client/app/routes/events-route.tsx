import { useQuery } from '@tanstack/react-query';
import { PanelBoundary } from '../../components/panel-boundary';
import { EventSearch } from '../../features/event-archive/components/event-search';
import { referenceQueries } from '../../features/reference/api/reference-queries';

/** `/events`: the archive of every country's events, searched by words, country and days. */
export function EventsRoute() {
  const reference = useQuery(referenceQueries.countries());
  const countries = [...(reference.data?.data.countries ?? [])].sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
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
