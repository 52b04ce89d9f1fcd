import { useQuery } from '@tanstack/react-query';
import { alertQueries } from '../api/alert-queries';
import { t } from '../../../lib/i18n';

/**
 * "N unread" for one list: the signed-in person's own count (the server counts their read state),
 * from an alert query, so marking alerts read anywhere refreshes it. `shown` is the count the page
 * already has (the same answer), used until that query's arrives so the line never grows late.
 */
export function ListUnreadCount({ watchlist, shown }: { watchlist: string; shown: number }) {
  const lists = useQuery(alertQueries.lists());
  const count = lists.data?.data.watchlists.find((l) => l.id === watchlist)?.unread_alerts;
  return <span className="list-unread">{t('alerts.unreadCount', { count: count ?? shown })}</span>;
}
