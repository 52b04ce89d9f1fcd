import { PanelBoundary } from '../../components/panel-boundary';
import { ExposureOverview } from '../../features/exposure/components/exposure-overview';
import { ImportPanel } from '../../features/sites/components/import-panel';

/** `/exposure`: what of ours sits where the risk is, and the import of our sites. */
export function ExposureRoute() {
  return (
    <div className="exposure-page">
      <title>Exposure · Global Risk Dashboard</title>
      <h1>Exposure: our sites</h1>
      <PanelBoundary name="The exposure of our sites">
        <ExposureOverview
          after={
            <PanelBoundary name="The import">
              <ImportPanel />
            </PanelBoundary>
          }
        />
      </PanelBoundary>
    </div>
  );
}
