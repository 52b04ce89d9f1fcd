import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Watchlist, WebhookFormat } from '../../../../shared/alerts-api';
import {
  deleteWatchlist,
  inputOf,
  saveWatchlist,
  sendTestWebhook,
  watchlistQueries,
} from '../api/watchlist-queries';
import { TableHead } from '../../../components/data-table';

function DeliveryLog({ id }: { id: string }) {
  const log = useQuery({ ...watchlistQueries.deliveries(id), refetchInterval: 15_000 });
  if (log.isPending) return <p>Loading the delivery log…</p>;
  if (log.isError) return <p role="alert">{log.error.message}</p>;
  const entries = log.data.data.deliveries;
  if (entries.length === 0) return <p className="empty">Nothing sent yet.</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Delivery log" tabIndex={0}>
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
    </div>
  );
}

/** Name, countries, webhook (URL, format, test) and e-mail of a list, with its delivery log. */
export function WatchlistSettings({ list }: { list: Watchlist }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (form: FormData) => {
      const text = (key: string) => String(form.get(key) ?? '').trim();
      return saveWatchlist(list, {
        ...inputOf(list),
        name: text('name'),
        countries: text('countries')
          .split(/[\s,]+/)
          .filter(Boolean),
        webhook_url: text('webhook_url') || null,
        webhook_format: (text('webhook_format') || 'standard') as WebhookFormat,
        email: text('email') || null,
      });
    },
    onSuccess: (result) => setSecret(result.data.webhook_secret ?? null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: watchlistQueries.all() }),
  });
  const test = useMutation({
    mutationFn: () => sendTestWebhook(list),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: watchlistQueries.deliveries(list.id).queryKey }),
  });
  const remove = useMutation({
    mutationFn: () => deleteWatchlist(list),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: watchlistQueries.all() });
      void navigate('/watchlists');
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(new FormData(event.currentTarget));
  };
  return (
    <section className="panel watchlist-settings no-print" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings and delivery</h2>
      <form onSubmit={onSubmit} className="settings-form" key={list.version}>
        <label>
          Name
          <input name="name" defaultValue={list.name} maxLength={80} required />
        </label>
        <label>
          Countries (ISO codes)
          <input name="countries" defaultValue={list.countries.join(', ')} required />
        </label>
        <label>
          Webhook URL (https)
          <input name="webhook_url" type="url" defaultValue={list.webhook?.url ?? ''} />
        </label>
        <label>
          Webhook format
          <select name="webhook_format" defaultValue={list.webhook?.format ?? 'standard'}>
            <option value="standard">JSON (Standard Webhooks)</option>
            <option value="slack">Slack-compatible</option>
          </select>
        </label>
        <label>
          E-mail digest to
          <input name="email" type="email" defaultValue={list.email ?? ''} />
        </label>
        <div className="form-actions">
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
          {list.webhook ? (
            <button type="button" disabled={test.isPending} onClick={() => test.mutate()}>
              Send test
            </button>
          ) : null}
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Delete list
          </button>
        </div>
      </form>
      {save.isError ? <p role="alert">{save.error.message}</p> : null}
      {remove.isError ? <p role="alert">{remove.error.message}</p> : null}
      {test.isSuccess ? (
        <p role="status">Test message queued ({test.data.data.message_id}).</p>
      ) : null}
      {secret ? (
        <div className="secret-once" role="status">
          <p>
            Webhook signing secret. Copy it now: it is shown <strong>once</strong> and never again.
          </p>
          <code>{secret}</code>
        </div>
      ) : null}
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
