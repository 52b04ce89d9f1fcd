import { PanelBoundary } from '../../components/panel-boundary';
import { ExposureBrief } from '../../features/exposure/components/exposure-brief';
import { t } from '../../lib/i18n';

/** `/exposure/brief?…`: the exposure of our sites on paper, for the view `/exposure` shows. */
export function ExposureBriefRoute() {
  return (
    <PanelBoundary name={t('exposurePage.briefPanel')}>
      <ExposureBrief />
    </PanelBoundary>
  );
}
