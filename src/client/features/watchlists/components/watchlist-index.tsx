import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { Watchlist } from '../../../../shared/alerts-api';
import { Link } from '../../../lib/app-link';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { useCan } from '../../../lib/me-queries';
import { useCreateWatchlist } from '../api/watchlist-mutations';
import { watchlistQueries } from '../api/watchlist-queries';
import { SecretOnce } from './secret-once';
import { WatchlistForm, type CountryChoices } from './watchlist-form';
import { t } from '../../../lib/i18n';

/**
 * Every list the viewer can see, and a form to make one. `unreadOf` shows a list's unread count
 * (the route composes it from the alerts feature).
 */
export function WatchlistIndex({
  choices,
  unreadOf,
}: {
  choices: CountryChoices;
  unreadOf?: (list: Watchlist) => ReactNode;
}) {
  const lists = useQuery(watchlistQueries.list());
  const [secret, setSecret] = useState<string | null>(null);
  // The form stays for the next list; a new key empties it after each one made.
  const [made, setMade] = useState(0);
  const create = useCreateWatchlist();
  // A viewer's new lists are their own (team lists and webhooks need an editor).
  const editor = useCan('editor');
  // The form comes with the lists, not before them: lists arriving above it moved it (0.04).
  if (lists.isPending) {
    return (
      <section className="panel" aria-labelledby="lists-title">
        <h2 id="lists-title">{t('shell.watchlists')}</h2>
        <Skeleton label={t('watchlists.loading')} lines={3} />
      </section>
    );
  }
  return (
    <>
      <section className="panel" aria-labelledby="lists-title">
        <h2 id="lists-title">{t('shell.watchlists')}</h2>
        {lists.isError && !lists.data ? (
          <QueryError
            what={t('watchlists.panel')}
            error={lists.error}
            onRetry={() => void lists.refetch()}
          />
        ) : lists.data.data.watchlists.length === 0 ? (
          <p className="empty">{t('watchlists.none')}</p>
        ) : (
          <ListOfLists lists={lists.data.data.watchlists} unreadOf={unreadOf} />
        )}
      </section>
      <section className="panel" aria-labelledby="new-list-title">
        <h2 id="new-list-title">
          {editor ? t('watchlists.newList') : t('watchlists.newPersonal')}
        </h2>
        <WatchlistForm
          key={made}
          initial={null}
          choices={choices}
          withFormat={false}
          withWebhook={editor}
          submitLabel={t('watchlists.create')}
          onSave={(input) =>
            create.mutateAsync(editor ? input : { ...input, scope: 'user' }, {
              onSuccess: (result) => {
                setSecret(result.data.webhook_secret ?? null);
                setMade((n) => n + 1);
              },
            })
          }
        />
        {create.isSuccess ? (
          <p role="status">
            {t('watchlists.created')}{' '}
            <Link to={`/watchlists/${create.data.data.watchlist.id}`} translate="no" dir="auto">
              {create.data.data.watchlist.name}
            </Link>
            .
          </p>
        ) : null}
        {secret ? <SecretOnce secret={secret} /> : null}
      </section>
    </>
  );
}

/** Each list with its size, its unread count and whose it is. */
function ListOfLists({
  lists,
  unreadOf,
}: {
  lists: Watchlist[];
  unreadOf?: (list: Watchlist) => ReactNode;
}) {
  return (
    <ul className="watchlists">
      {lists.map((l) => (
        <li key={l.id}>
          <Link to={`/watchlists/${l.id}`} translate="no" dir="auto">
            {l.name}
          </Link>{' '}
          · {t('watchlists.countries', { count: l.countries.length })} ·{' '}
          {t('watchlists.rules', { count: l.rules.length })}
          {unreadOf ? <> · {unreadOf(l)}</> : null}
          {l.scope === 'user' ? ` · ${t('watchlists.onlyYou')}` : ''}
        </li>
      ))}
    </ul>
  );
}
