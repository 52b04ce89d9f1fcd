import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { isIso3, normaliseIso3 } from '../../../shared/iso';
import { PanelBoundary } from '../../components/panel-boundary';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { BriefPage } from '../../features/brief/components/brief-page';
import { watchlistQueries } from '../../features/watchlists/api/watchlist-queries';
import { t } from '../../lib/i18n';
import { pageTitle } from '../../lib/page-title';

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
          <title>{pageTitle(t('brief.heading'))}</title>
          <h1>{t('brief.heading')}</h1>
          <p>
            {t('brief.nameCountries')}{' '}
            <code translate="no" dir="ltr">
              /brief?iso=MLI,NER,BFA
            </code>
            {t('brief.orWatchlist')}
          </p>
        </div>
      );
    }
    return (
      <PanelBoundary name={t('brief.panel')}>
        <BriefPage title={t('brief.titleOf', { isos: isos.join(', ') })} isos={isos} />
      </PanelBoundary>
    );
  }
  if (list.isPending) return <Skeleton label={t('brief.loading')} lines={8} />;
  if (list.isError && !list.data) {
    return (
      <QueryError
        what={t('brief.watchlist')}
        error={list.error}
        onRetry={() => void list.refetch()}
      />
    );
  }
  const watchlist = list.data.data.watchlist;
  return (
    <PanelBoundary name={t('brief.panel')}>
      {/* The list's name is the team's own: kept as typed (BriefPage marks its title so). */}
      <BriefPage title={watchlist.name} isos={watchlist.countries} ownTitle />
    </PanelBoundary>
  );
}
