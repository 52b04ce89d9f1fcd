import { ListUnreadCount } from '../../features/alerts/components/list-unread-count';
import { WatchlistIndex } from '../../features/watchlists/components/watchlist-index';
import { useCountryChoices } from '../use-country-choices';
import { SinglePanelPage } from './single-panel-page';

/** `/watchlists`: every list, and a new one. */
export function WatchlistsRoute() {
  const choices = useCountryChoices();
  return (
    <SinglePanelPage className="watchlists-page" title="Watchlists" panelName="The watchlists">
      <WatchlistIndex
        choices={choices}
        unreadOf={(l) => <ListUnreadCount watchlist={l.id} shown={l.unread_alerts} />}
      />
    </SinglePanelPage>
  );
}
