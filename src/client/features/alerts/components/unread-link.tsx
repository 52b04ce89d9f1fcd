import { useQuery } from '@tanstack/react-query';
import { Link } from '../../../lib/app-link';
import { alertQueries } from '../api/alert-queries';

/** The header's way to the inbox, with the number of unread alerts. */
export function UnreadLink() {
  const unread = useQuery(alertQueries.unread());
  const count = unread.data?.data.unread ?? 0;
  return (
    <Link to="/alerts" className="unread-link" aria-label={`Alerts, ${count} unread`}>
      Alerts
      {count > 0 ? (
        <span className="unread-count" aria-hidden="true">
          {count > 999 ? '999+' : count}
        </span>
      ) : null}
    </Link>
  );
}
