import { PanelBoundary } from '../../components/panel-boundary';
import { WatchlistIndex } from '../../features/watchlists/components/watchlist-index';
import { useCountryChoices } from '../use-country-choices';

/** `/watchlists`: every list, and a new one. */
export function WatchlistsRoute() {
  const choices = useCountryChoices();
  return (
    <div className="watchlists-page">
      <title>Watchlists · Global Risk Dashboard</title>
      <h1>Watchlists</h1>
      <PanelBoundary name="The watchlists">
        <WatchlistIndex choices={choices} />
      </PanelBoundary>
    </div>
  );
}
