import { AlertList } from '../../features/alerts/components/alert-list';
import { DeliverySettings } from '../../features/settings/components/delivery-settings';
import { SinglePanelPage } from './single-panel-page';

/** `/alerts`: the inbox of every watchlist the viewer can see, then one's delivery settings. */
export function AlertsRoute() {
  return (
    <SinglePanelPage className="alerts-page" title="Alerts" panelName="The alerts">
      <AlertList title="Inbox" filtersInUrl after={<DeliverySettings />} />
    </SinglePanelPage>
  );
}
