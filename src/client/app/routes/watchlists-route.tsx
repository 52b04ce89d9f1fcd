import { ListUnreadCount } from '../../features/alerts/components/list-unread-count';
import { WatchlistIndex } from '../../features/watchlists/components/watchlist-index';
import { useCountryChoices } from '../use-country-choices';
import { SinglePanelPage } from './single-panel-page';
import { t } from '../../lib/i18n';

/** `/watchlists`: every list, and a new one. */
export function WatchlistsRoute() {
  const choices = useCountryChoices();
  return (
    <SinglePanelPage
      className="watchlists-page"
      title={t('shell.watchlists')}
      panelName={t('watchlists.panel')}
    >
      <WatchlistIndex
        choices={choices}
        unreadOf={(l) => <ListUnreadCount watchlist={l.id} shown={l.unread_alerts} />}
      />
    </SinglePanelPage>
  );
}
