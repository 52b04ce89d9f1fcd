import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { QueryError } from '../../../components/query-error';
import { TableHead } from '../../../components/data-table';
import { Skeleton } from '../../../components/skeleton';
import { FEED_CHOICES, type FeedTokenListed } from '../../../../shared/reach-api';
import { reachQueries, useMakeFeedToken, useRevoke } from '../api/reach-api';
import { t } from '../../../lib/i18n';
import { UseCells } from './reach-cells';

/** The form that makes a feed token: its name, the feeds it may read and its expiry. */
function FeedTokenForm({ make }: { make: ReturnType<typeof useMakeFeedToken> }) {
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
  return (
    <form onSubmit={submit} className="reach-form">
      <label>
        {t('admin.name')} <input name="name" required maxLength={100} />
      </label>
      <fieldset>
        <legend>{t('admin.feedsItMayRead')}</legend>
        {FEED_CHOICES.map((feed) => (
          <label key={feed}>
            <input
              type="checkbox"
              checked={feeds.includes(feed)}
              onChange={(e) =>
                setFeeds(e.target.checked ? [...feeds, feed] : feeds.filter((f) => f !== feed))
              }
            />
            {/* A feed's name is its URL's (/api/feeds/countries.csv): the same in every language. */}
            <code translate="no">{feed}</code>
          </label>
        ))}
      </fieldset>
      <label>
        {t('admin.expiresInDays')}{' '}
        <input name="days" type="number" min={1} max={365} defaultValue={90} />
      </label>
      <button type="submit" disabled={make.isPending}>
        {t('admin.makeFeedToken')}
      </button>
    </form>
  );
}

/** The tokens made, each with its use and a Revoke named for it; names as typed. */
function FeedTokensTable({
  tokens,
  revoke,
}: {
  tokens: readonly FeedTokenListed[];
  revoke: ReturnType<typeof useRevoke>;
}) {
  return (
    <table className="audit-table phone-cards">
      <TableHead
        columns={[
          { label: t('admin.name') },
          { label: t('admin.feeds') },
          { label: t('admin.expires') },
          { label: t('admin.lastUsed') },
          { label: t('admin.uses') },
          { label: <span className="visually-hidden">{t('admin.revoke')}</span> },
        ]}
      />
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <th scope="row" translate="no">
              {token.name}
            </th>
            <td data-label={t('admin.feeds')} translate="no">
              {token.feeds.join(', ')}
            </td>
            <UseCells
              item={token}
              words={{ lastUse: t('admin.lastUsed'), uses: t('admin.uses') }}
              revoking={revoke.isPending}
              onRevoke={(id) => revoke.mutate(id)}
            />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Feed tokens: made for named feeds (the secret shown once, here), listed, revoked. */
export function FeedTokensPanel() {
  const tokens = useQuery(reachQueries.feedTokens());
  const make = useMakeFeedToken();
  const revoke = useRevoke('feed-tokens');
  const secret = make.data?.data.secret;
  return (
    <section aria-labelledby="feed-tokens-heading">
      <h2 id="feed-tokens-heading">{t('admin.feedTokensHeading')}</h2>
      <FeedTokenForm make={make} />
      {make.isError ? <p role="alert">{make.error.message}</p> : null}
      {secret ? (
        <p role="status">
          {t('admin.copyNow')}
          <code translate="no">{secret}</code>
          {t('admin.useItAs')}
          <code translate="no">/api/feeds/countries.csv?token=…</code>
        </p>
      ) : null}
      {revoke.isError ? <p role="alert">{revoke.error.message}</p> : null}
      {tokens.isPending ? (
        <Skeleton label={t('admin.loadingFeedTokens')} />
      ) : tokens.isError ? (
        <QueryError error={tokens.error} what={t('admin.theFeedTokens')} />
      ) : tokens.data.data.tokens.length === 0 ? (
        <p>{t('admin.noFeedTokens')}</p>
      ) : (
        <FeedTokensTable tokens={tokens.data.data.tokens} revoke={revoke} />
      )}
    </section>
  );
}
