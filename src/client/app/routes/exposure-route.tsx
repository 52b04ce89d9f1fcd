import { PanelBoundary } from '../../components/panel-boundary';
import { RiskIndexSwitch } from '../../components/risk-index-switch';
import { t } from '../../lib/i18n';
import { useCan } from '../../lib/me-queries';
import { pageTitle } from '../../lib/page-title';
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
      <title>{pageTitle(t('shell.exposure'))}</title>
      <h1>{t('exposurePage.heading')}</h1>
      <RiskIndexSwitch teamName={null} />
      <PanelBoundary name={t('exposurePage.panel')}>
        <ExposureOverview
          after={
            <>
              {editor ? (
                <>
                  <PanelBoundary name={t('exposurePage.panelNewSite')}>
                    <NewSitePanel choices={choices} />
                  </PanelBoundary>
                  <PanelBoundary name={t('exposurePage.panelImport')}>
                    <ImportPanel />
                  </PanelBoundary>
                </>
              ) : null}
              {/* Everyone sees where site alerts go; an editor changes it. */}
              <PanelBoundary name={t('exposurePage.panelSiteAlerts')}>
                <SiteAlertDeliveryPanel editor={editor} />
              </PanelBoundary>
            </>
          }
        />
      </PanelBoundary>
    </div>
  );
}
