import { WatchlistIndex } from '../../features/watchlists/components/watchlist-index';
import { SinglePanelPage } from './single-panel-page';

/** `/watchlists`: every list, and a new one. */
export function WatchlistsRoute() {
  return (
    <SinglePanelPage className="watchlists-page" title="Watchlists" panelName="The watchlists">
      <WatchlistIndex />
    </SinglePanelPage>
  );
}
