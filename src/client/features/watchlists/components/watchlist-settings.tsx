import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useAppNavigate } from '../../../lib/app-link';
import type { Watchlist } from '../../../../shared/alerts-api';
import {
  useDeleteWatchlist,
  useSaveWatchlist,
  useSendTestWebhook,
} from '../api/watchlist-mutations';
import { watchlistQueries } from '../api/watchlist-queries';
import { useCan } from '../../../lib/me-queries';
import { WatchlistForm, type CountryChoices } from './watchlist-form';
import { TableHead, TableRegion } from '../../../components/data-table';
import { SecretOnce } from './secret-once';
import { t } from '../../../lib/i18n';
import { utcMinute } from '../../../lib/ltr-text';

const CHANNEL_WORDS = {
  webhook: 'watchlists.channelWebhook',
  email: 'watchlists.channelEmail',
} as const;

function DeliveryLog({ id }: { id: string }) {
  const log = useQuery({ ...watchlistQueries.deliveries(id), refetchInterval: 15_000 });
  if (log.isPending) return <p>{t('watchlists.logLoading')}</p>;
  if (log.isError) return <p role="alert">{log.error.message}</p>;
  const entries = log.data.data.deliveries;
  if (entries.length === 0) return <p className="empty">{t('watchlists.logEmpty')}</p>;
  return (
    <TableRegion label={t('watchlists.log')}>
      <table className="data-table delivery-log">
        <caption>{t('watchlists.logCaption')}</caption>
        <TableHead
          columns={[
            { label: t('watchlists.logTime') },
            { label: t('watchlists.logChannel') },
            { label: t('watchlists.logMessage') },
            { label: t('watchlists.logAttempt'), className: 'num' },
            { label: t('watchlists.logStatus'), className: 'num' },
            { label: t('watchlists.logDuration'), className: 'num' },
            { label: t('watchlists.logOutcome') },
          ]}
        />
        <tbody>
          {entries.map((e) => (
            <tr key={`${e.message_id}-${e.attempt}`}>
              <td>{e.at.slice(0, 19).replace('T', ' ')}</td>
              <td>{t(CHANNEL_WORDS[e.channel])}</td>
              <td className="mono">{e.message_id}</td>
              <td className="num">{e.attempt}</td>
              <td className="num">{e.status ?? '—'}</td>
              <td className="num">{t('watchlists.milliseconds', { ms: e.duration_ms })}</td>
              <td>
                {/* A failure in the words of the server's outbox (English, as it logs them). */}
                {e.error ?? t('watchlists.delivered')}
                {e.state === 'pending' ? t('watchlists.willRetry') : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/**
 * Name, countries, alert rules, webhook (URL, format, test) and e-mail of a list, with its
 * delivery log. Saving replaces the list with If-Match: an edit made elsewhere first is reported
 * (412), never overwritten.
 */
export function WatchlistSettings({ list, choices }: { list: Watchlist; choices: CountryChoices }) {
  const navigate = useAppNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const save = useSaveWatchlist(list);
  const test = useSendTestWebhook(list);
  const remove = useDeleteWatchlist(list);
  const editor = useCan('editor');
  if (list.scope === 'team' && !editor) {
    return (
      <section className="panel watchlist-settings no-print" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('watchlists.settings')}</h2>
        <p>{t('watchlists.teamOnly')}</p>
      </section>
    );
  }
  return (
    <section className="panel watchlist-settings no-print" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('watchlists.settings')}</h2>
      <WatchlistForm
        // A saved list comes back with a new version: the form starts again from what was stored.
        key={list.version}
        initial={list}
        choices={choices}
        withFormat
        withWebhook={editor}
        submitLabel={t('watchlists.save')}
        onSave={(input) =>
          save.mutateAsync(input, {
            onSuccess: (result) => setSecret(result.data.webhook_secret ?? null),
          })
        }
      >
        {list.webhook && editor ? (
          <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
            {t('watchlists.sendTest')}
          </button>
        ) : null}
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, { onSuccess: () => void navigate('/watchlists') })
          }
        >
          {t('watchlists.deleteList')}
        </button>
      </WatchlistForm>
      {save.isSuccess ? <p role="status">{t('watchlists.saved')}</p> : null}
      {remove.isError ? <p role="alert">{remove.error.message}</p> : null}
      {test.isSuccess ? (
        <p role="status">{t('watchlists.testQueued', { id: test.data.data.message_id })}</p>
      ) : null}
      {secret ? <SecretOnce secret={secret} /> : null}
      {list.webhook?.paused_at ? (
        <p className="notice" role="alert">
          {t('watchlists.paused', { time: utcMinute(list.webhook.paused_at) })}{' '}
          {list.webhook.paused_reason}
        </p>
      ) : null}
      <DeliveryLog id={list.id} />
    </section>
  );
}
