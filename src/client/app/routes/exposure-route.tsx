import { PanelBoundary } from '../../components/panel-boundary';
import { RiskIndexSwitch } from '../../components/risk-index-switch';
import { useCan } from '../../lib/me-queries';
import { ExposureOverview } from '../../features/exposure/components/exposure-overview';
import { ImportPanel } from '../../features/sites/components/import-panel';
import { NewSitePanel } from '../../features/sites/components/new-site-panel';
import { SiteAlertDeliveryPanel } from '../../features/sites/components/site-alert-delivery';
import { useCountryChoices } from '../use-country-choices';

/** `/exposure`: what of ours sits where the risk is; for editors, a new site and the import. */
export function ExposureRoute() {
  const editor = useCan('editor');
  // The new-site form's country picker: asked for only when the form is offered.
  const choices = useCountryChoices(editor);
  return (
    <div className="exposure-page">
      <title>Exposure · Global Risk Dashboard</title>
      <h1>Exposure: our sites</h1>
      <RiskIndexSwitch teamName={null} />
      <PanelBoundary name="The exposure of our sites">
        <ExposureOverview
          after={
            <>
              {editor ? (
                <>
                  <PanelBoundary name="The new-site form">
                    <NewSitePanel choices={choices} />
                  </PanelBoundary>
                  <PanelBoundary name="The import">
                    <ImportPanel />
                  </PanelBoundary>
                </>
              ) : null}
              {/* Everyone sees where site alerts go; an editor changes it. */}
              <PanelBoundary name="Where site alerts go">
                <SiteAlertDeliveryPanel editor={editor} />
              </PanelBoundary>
            </>
          }
        />
      </PanelBoundary>
    </div>
  );
}
