import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { createWatchlist, watchlistQueries } from '../api/watchlist-queries';

/** Every list the viewer can see, and a form to make one. */
export function WatchlistIndex() {
  const queryClient = useQueryClient();
  const lists = useQuery(watchlistQueries.list());
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const text = (key: string) => String(form.get(key) ?? '').trim();
      return createWatchlist({
        name: text('name'),
        countries: text('countries')
          .split(/[\s,]+/)
          .filter(Boolean),
        webhook_url: text('webhook_url') || null,
        email: text('email') || null,
      });
    },
    onSuccess: (result) => setSecret(result.data.webhook_secret ?? null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(new FormData(event.currentTarget));
  };
  return (
    <>
      <section className="panel" aria-labelledby="lists-title">
        <h2 id="lists-title">Watchlists</h2>
        {lists.isPending ? (
          <Skeleton label="Loading watchlists" lines={3} />
        ) : lists.isError && !lists.data ? (
          <QueryError
            what="The watchlists"
            error={lists.error}
            onRetry={() => void lists.refetch()}
          />
        ) : lists.data.data.watchlists.length === 0 ? (
          <p className="empty">No watchlists yet: follow a country, or make a list below.</p>
        ) : (
          <ul className="watchlists">
            {lists.data.data.watchlists.map((l) => (
              <li key={l.id}>
                <Link to={`/watchlists/${l.id}`}>{l.name}</Link> · {l.countries.length} countries
                {l.unread_alerts > 0 ? ` · ${l.unread_alerts} unread alerts` : ''}
                {l.scope === 'user' ? ' · only you' : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="new-list-title">
        <h2 id="new-list-title">New watchlist</h2>
        <form onSubmit={onSubmit} className="settings-form">
          <label>
            Name
            <input name="name" maxLength={80} required />
          </label>
          <label>
            Countries (ISO codes, e.g. MLI, NER, BFA)
            <input name="countries" required />
          </label>
          <label>
            Webhook URL (optional, https)
            <input name="webhook_url" type="url" />
          </label>
          <label>
            E-mail digest to (optional)
            <input name="email" type="email" />
          </label>
          <div className="form-actions">
            <button type="submit" disabled={create.isPending}>
              Create
            </button>
          </div>
        </form>
        {create.isError ? <p role="alert">{create.error.message}</p> : null}
        {create.isSuccess ? (
          <p role="status">
            Created{' '}
            <Link to={`/watchlists/${create.data.data.watchlist.id}`}>
              {create.data.data.watchlist.name}
            </Link>
            .
          </p>
        ) : null}
        {secret ? (
          <div className="secret-once" role="status">
            <p>
              Webhook signing secret. Copy it now: it is shown <strong>once</strong> and never
              again.
            </p>
            <code>{secret}</code>
          </div>
        ) : null}
      </section>
    </>
  );
}
