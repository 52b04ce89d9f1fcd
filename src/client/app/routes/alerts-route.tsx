import { PanelBoundary } from '../../components/panel-boundary';
import { AlertList } from '../../features/alerts/components/alert-list';

/** `/alerts`: the inbox of every watchlist the viewer can see. */
export function AlertsRoute() {
  return (
    <div className="alerts-page">
      <title>Alerts · Global Risk Dashboard</title>
      <h1>Alerts</h1>
      <PanelBoundary name="The alerts">
        <AlertList title="Inbox" />
      </PanelBoundary>
    </div>
  );
}
