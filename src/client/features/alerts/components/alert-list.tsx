import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import type { Alert } from '../../../../shared/alerts-api';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { useMarkAlertsRead } from '../api/alert-mutations';
import { alertQueries } from '../api/alert-queries';

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function AlertItem({ alert, onRead, busy }: { alert: Alert; onRead: () => void; busy: boolean }) {
  const unread = alert.read_at === null;
  return (
    <li className={`alert-item${unread ? ' is-unread' : ''}`}>
      <p className="alert-head">
        <Link to={`/country/${encodeURIComponent(alert.iso)}`}>
          {alert.country} ({alert.iso})
        </Link>
        <span className="alert-meta">
          {' '}
          · batch {when(alert.batch_as_of)} · {alert.watchlist_name}
        </span>
      </p>
      <p className="alert-message">{alert.message}</p>
      {unread ? (
        <button type="button" className="link-button" disabled={busy} onClick={onRead}>
          Mark read
          <span className="visually-hidden">: {alert.country}</span>
        </button>
      ) : (
        <span className="alert-read">Read</span>
      )}
    </li>
  );
}

/** Alerts, newest first, each saying why and linking to its country; mark one or all read. */
export function AlertList({
  watchlist,
  unreadOnly = false,
  limit,
  title,
}: {
  watchlist?: string;
  unreadOnly?: boolean;
  limit?: number;
  title: string;
}) {
  const query = useQuery(alertQueries.list({ unreadOnly, watchlist, limit }));
  const mark = useMarkAlertsRead();
  if (query.isPending) return <Skeleton label="Loading alerts" lines={4} />;
  if (query.isError && !query.data) {
    return (
      <QueryError what="The alerts" error={query.error} onRetry={() => void query.refetch()} />
    );
  }
  const { alerts, unread } = query.data.data;
  return (
    <section className="panel alert-list" aria-label={title}>
      <div className="panel-head">
        <h2>{title}</h2>
        <p className="alert-count">{unread} unread</p>
        {unread > 0 && !watchlist ? (
          <button type="button" disabled={mark.isPending} onClick={() => mark.mutate('all')}>
            Mark all read
          </button>
        ) : null}
      </div>
      {mark.isError ? <p role="alert">{mark.error.message}</p> : null}
      {alerts.length === 0 ? (
        <p className="empty">
          No alerts yet. They appear when a followed country moves (|Δ active| ≥ 10 by default) in a
          new batch.
        </p>
      ) : (
        <ul className="alerts">
          {alerts.map((alert) => (
            <AlertItem
              key={alert.id}
              alert={alert}
              busy={mark.isPending}
              onRead={() => mark.mutate([alert.id])}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
