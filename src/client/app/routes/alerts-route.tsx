import { AlertList } from '../../features/alerts/components/alert-list';
import { DeliverySettings } from '../../features/settings/components/delivery-settings';
import { SinglePanelPage } from './single-panel-page';
import { t } from '../../lib/i18n';

/** `/alerts`: the inbox of every watchlist the viewer can see, then one's delivery settings. */
export function AlertsRoute() {
  return (
    <SinglePanelPage
      className="alerts-page"
      title={t('alerts.title')}
      panelName={t('alerts.panel')}
    >
      <AlertList title={t('alerts.inbox')} filtersInUrl after={<DeliverySettings />} />
    </SinglePanelPage>
  );
}
