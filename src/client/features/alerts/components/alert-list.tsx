import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../../../lib/app-link';
import type { TriagedAlert } from '../../../../shared/alert-triage-api';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { useMarkAlertsRead } from '../api/alert-mutations';
import { alertQueries, type InboxFilter } from '../api/alert-queries';
import { AcknowledgeForm, AcknowledgementLine } from './acknowledgement';
import { InboxFilters, useInboxFilter } from './inbox-filters';
import { t } from '../../../lib/i18n';
import { utcMinute } from '../../../lib/ltr-text';
import { displayName } from '../../../lib/display-name';
import { METHOD_NOTICE_ISO } from '../../../../shared/alerts-api';
import { alertReason } from '../utils/alert-reason';

/**
 * What an alert is about, and where it leads: its country (named in the page's language), or,
 * for the method notice, the list's countries together and the overview.
 */
function subjectOf(alert: TriagedAlert): { name: string; to: string } {
  if (alert.iso === METHOD_NOTICE_ISO) return { name: t('alertItems.listCountries'), to: '/' };
  return {
    name: displayName(alert.iso, alert.country),
    to: `/country/${encodeURIComponent(alert.iso)}`,
  };
}

function AlertItem({
  alert,
  onRead,
  busy,
}: {
  alert: TriagedAlert;
  onRead: () => void;
  busy: boolean;
}) {
  const unread = alert.read_at === null;
  const [acknowledging, setAcknowledging] = useState(false);
  const subject = subjectOf(alert);
  const about = t('alertItems.about', { country: subject.name });
  return (
    <li className={`alert-item${unread ? ' is-unread' : ''}`}>
      <p className="alert-head">
        <Link to={subject.to}>
          {subject.name} <span className="iso">({alert.iso})</span>
        </Link>
        <span className="alert-meta">
          {t('alertItems.batch', { time: utcMinute(alert.batch_as_of) })}
          <span translate="no" dir="auto">
            {alert.watchlist_name}
          </span>
        </span>
      </p>
      <p className="alert-message">{alertReason(alert)}</p>
      <AcknowledgementLine alert={alert} />
      {acknowledging ? (
        <AcknowledgeForm alert={alert} onDone={() => setAcknowledging(false)} />
      ) : null}
      <div className="alert-actions">
        {unread ? (
          <button type="button" className="link-button" disabled={busy} onClick={onRead}>
            {t('alerts.markRead')}
            <span className="visually-hidden">{about}</span>
          </button>
        ) : (
          <span className="alert-read">{t('alerts.read')}</span>
        )}
        {acknowledging ? null : (
          <button type="button" className="link-button" onClick={() => setAcknowledging(true)}>
            {alert.acknowledgement ? t('alerts.changeAck') : t('alerts.acknowledge')}
            <span className="visually-hidden">{about}</span>
          </button>
        )}
      </div>
    </li>
  );
}

function AlertItems({
  filter,
  title,
  canMarkAll,
  children,
  after,
}: {
  filter: InboxFilter;
  title: string;
  canMarkAll: boolean;
  children?: React.ReactNode;
  after?: React.ReactNode;
}) {
  const query = useQuery(alertQueries.list(filter));
  const mark = useMarkAlertsRead();
  if (query.isPending) return <Skeleton label={t('alerts.loading')} lines={4} />;
  if (query.isError && !query.data) {
    return (
      <>
        <QueryError
          what={t('alerts.panel')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
        {after}
      </>
    );
  }
  const { alerts, unread } = query.data.data;
  const filtered = Boolean(filter.state || filter.iso || filter.disposition);
  return (
    <>
      <section className="panel alert-list" aria-label={title}>
        <div className="panel-head">
          <h2>{title}</h2>
          <p className="alert-count">{t('alerts.unreadCount', { count: unread })}</p>
          {unread > 0 && canMarkAll ? (
            <button type="button" disabled={mark.isPending} onClick={() => mark.mutate('all')}>
              {t('alerts.markAllRead')}
            </button>
          ) : null}
        </div>
        {children}
        {mark.isError ? <p role="alert">{mark.error.message}</p> : null}
        {alerts.length === 0 ? (
          <p className="empty">{filtered ? t('alerts.noneMatch') : t('alerts.noneYet')}</p>
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
      {after}
    </>
  );
}

/** The inbox: its filters (state, list, country, disposition) live in the URL. */
function Inbox({
  title,
  limit,
  after,
}: {
  title: string;
  limit?: number;
  after?: React.ReactNode;
}) {
  const [filter, setFilter] = useInboxFilter();
  return (
    <AlertItems
      filter={{ ...filter, limit }}
      title={title}
      canMarkAll={!filter.watchlist}
      after={after}
    >
      <InboxFilters filter={filter} onChange={setFilter} />
    </AlertItems>
  );
}

/**
 * Alerts, newest first, each saying why, linking to its country and showing the team's
 * acknowledgement; mark one or all read, acknowledge. `filtersInUrl`: the inbox page's filters.
 * `after` is drawn under the list once it has answered: drawn earlier, the rows arriving above
 * would push it down the page (a layout shift a person sees).
 */
export function AlertList({
  watchlist,
  unreadOnly = false,
  limit,
  title,
  filtersInUrl = false,
  after,
}: {
  watchlist?: string;
  unreadOnly?: boolean;
  limit?: number;
  title: string;
  filtersInUrl?: boolean;
  after?: React.ReactNode;
}) {
  if (filtersInUrl) return <Inbox title={title} limit={limit} after={after} />;
  return (
    <AlertItems
      filter={{ watchlist, state: unreadOnly ? 'unread' : undefined, limit }}
      title={title}
      canMarkAll={!watchlist}
      after={after}
    />
  );
}
