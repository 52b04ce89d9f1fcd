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

function DeliveryLog({ id }: { id: string }) {
  const log = useQuery({ ...watchlistQueries.deliveries(id), refetchInterval: 15_000 });
  if (log.isPending) return <p>Loading the delivery log…</p>;
  if (log.isError) return <p role="alert">{log.error.message}</p>;
  const entries = log.data.data.deliveries;
  if (entries.length === 0) return <p className="empty">Nothing sent yet.</p>;
  return (
    <TableRegion label="Delivery log">
      <table className="data-table delivery-log">
        <caption>Delivery log (newest first)</caption>
        <TableHead
          columns={[
            { label: 'Time (UTC)' },
            { label: 'Channel' },
            { label: 'Message' },
            { label: 'Attempt', className: 'num' },
            { label: 'Status', className: 'num' },
            { label: 'Duration', className: 'num' },
            { label: 'Outcome' },
          ]}
        />
        <tbody>
          {entries.map((e) => (
            <tr key={`${e.message_id}-${e.attempt}`}>
              <td>{e.at.slice(0, 19).replace('T', ' ')}</td>
              <td>{e.channel}</td>
              <td className="mono">{e.message_id}</td>
              <td className="num">{e.attempt}</td>
              <td className="num">{e.status ?? '—'}</td>
              <td className="num">{e.duration_ms} ms</td>
              <td>
                {e.error ?? 'delivered'}
                {e.state === 'pending' ? ' (will retry)' : ''}
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
        <h2 id="settings-title">Settings and delivery</h2>
        <p>This is a team list: only editors can change or delete it.</p>
      </section>
    );
  }
  return (
    <section className="panel watchlist-settings no-print" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings and delivery</h2>
      <WatchlistForm
        // A saved list comes back with a new version: the form starts again from what was stored.
        key={list.version}
        initial={list}
        choices={choices}
        withFormat
        withWebhook={editor}
        submitLabel="Save"
        onSave={(input) =>
          save.mutateAsync(input, {
            onSuccess: (result) => setSecret(result.data.webhook_secret ?? null),
          })
        }
      >
        {list.webhook && editor ? (
          <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
            Send test
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
          Delete list
        </button>
      </WatchlistForm>
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      {remove.isError ? <p role="alert">{remove.error.message}</p> : null}
      {test.isSuccess ? (
        <p role="status">Test message queued ({test.data.data.message_id}).</p>
      ) : null}
      {secret ? <SecretOnce secret={secret} /> : null}
      {list.webhook?.paused_at ? (
        <p className="notice" role="alert">
          Webhook paused since {list.webhook.paused_at.slice(0, 16).replace('T', ' ')} UTC.{' '}
          {list.webhook.paused_reason}
        </p>
      ) : null}
      <DeliveryLog id={list.id} />
    </section>
  );
}
