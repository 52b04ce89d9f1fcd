import { useQuery } from '@tanstack/react-query';
import { alertQueries } from '../api/alert-queries';

/**
 * "N unread" for one list: the signed-in person's own count (the server counts their read state),
 * from an alert query, so marking alerts read anywhere refreshes it.
 */
export function ListUnreadCount({ watchlist }: { watchlist: string }) {
  const lists = useQuery(alertQueries.lists());
  const count = lists.data?.data.watchlists.find((l) => l.id === watchlist)?.unread_alerts;
  if (count === undefined) return null;
  return <span className="list-unread">{count} unread</span>;
}
