import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { BriefPage } from '../../features/brief/components/brief-page';
import { watchlistQueries } from '../../features/watchlists/api/watchlist-queries';

/** `/brief/:watchlistId` and `/brief?iso=MLI,NER`: a print-ready brief. */
export function BriefRoute() {
  const { watchlistId } = useParams();
  const [search] = useSearchParams();
  const list = useQuery({
    ...watchlistQueries.detail(watchlistId ?? ''),
    enabled: watchlistId !== undefined,
  });
  if (watchlistId === undefined) {
    const isos = [
      ...new Set((search.get('iso') ?? '').split(',').filter(isIso3).map(normaliseIso3)),
    ].slice(0, 100);
    if (isos.length === 0) {
      return (
        <div className="page-message">
          <h1>Brief</h1>
          <p>Name the countries: /brief?iso=MLI,NER,BFA, or open a watchlist’s brief.</p>
        </div>
      );
    }
    return (
      <PanelBoundary name="The brief">
        <BriefPage title={`Brief: ${isos.join(', ')}`} isos={isos} />
      </PanelBoundary>
    );
  }
  if (list.isPending) return <Skeleton label="Loading the brief" lines={8} />;
  if (list.isError && !list.data) {
    return (
      <QueryError what="The watchlist" error={list.error} onRetry={() => void list.refetch()} />
    );
  }
  const watchlist = list.data.data.watchlist;
  return (
    <PanelBoundary name="The brief">
      <BriefPage title={watchlist.name} isos={watchlist.countries} />
    </PanelBoundary>
  );
}
