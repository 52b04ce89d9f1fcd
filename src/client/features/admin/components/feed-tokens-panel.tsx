import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { FEED_CHOICES } from '../../../../shared/reach-api';
import { reachQueries, useMakeFeedToken, useRevoke } from '../api/reach-api';
import { UseCells } from './reach-cells';

/** Feed tokens: made for named feeds (the secret shown once, here), listed, revoked. */
export function FeedTokensPanel() {
  const tokens = useQuery(reachQueries.feedTokens());
  const make = useMakeFeedToken();
  const revoke = useRevoke('feed-tokens');
  const [feeds, setFeeds] = useState<string[]>(['countries']);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    make.mutate({
      name: String(form.get('name') ?? ''),
      feeds,
      expires_in_days: Number(form.get('days')),
    });
  };
  const secret = make.data?.data.secret;
  return (
    <section aria-labelledby="feed-tokens-heading">
      <h2 id="feed-tokens-heading">Feed tokens</h2>
      <form onSubmit={submit} className="reach-form">
        <label>
          Name <input name="name" required maxLength={100} />
        </label>
        <fieldset>
          <legend>Feeds it may read</legend>
          {FEED_CHOICES.map((feed) => (
            <label key={feed}>
              <input
                type="checkbox"
                checked={feeds.includes(feed)}
                onChange={(e) =>
                  setFeeds(e.target.checked ? [...feeds, feed] : feeds.filter((f) => f !== feed))
                }
              />
              {feed}
            </label>
          ))}
        </fieldset>
        <label>
          Expires in (days) <input name="days" type="number" min={1} max={365} defaultValue={90} />
        </label>
        <button type="submit" disabled={make.isPending}>
          Make feed token
        </button>
      </form>
      {make.isError ? <p role="alert">{make.error.message}</p> : null}
      {secret ? (
        <p role="status">
          Copy it now, it is not shown again: <code>{secret}</code>. Use it as{' '}
          <code>/api/feeds/countries.csv?token=…</code>
        </p>
      ) : null}
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {tokens.isPending ? (
        <Skeleton label="Loading the feed tokens" />
      ) : tokens.isError ? (
        <QueryError error={tokens.error} what="The feed tokens" />
      ) : tokens.data.data.tokens.length === 0 ? (
        <p>No feed token yet.</p>
      ) : (
        <table className="audit-table">
          <TableHead
            columns={[
              { label: 'Name' },
              { label: 'Feeds' },
              { label: 'Expires' },
              { label: 'Last used' },
              { label: 'Uses' },
              { label: <span className="visually-hidden">Revoke</span> },
            ]}
          />
          <tbody>
            {tokens.data.data.tokens.map((token) => (
              <tr key={token.id}>
                <th scope="row">{token.name}</th>
                <td data-label="Feeds">{token.feeds.join(', ')}</td>
                <UseCells
                  item={token}
                  words={{ lastUse: 'Last used', uses: 'Uses' }}
                  revoking={revoke.isPending}
                  onRevoke={(id) => revoke.mutate(id)}
                />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
