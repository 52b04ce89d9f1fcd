import { useTranslation } from 'react-i18next';
import type { StatusResponse } from '../../../../shared/bff-api';

/** Marks generated data on every page, so a screenshot of demo numbers is never mistaken. */
export function DemoBadge({ status }: { status: StatusResponse | undefined }) {
  const { t } = useTranslation();
  if (status?.mode !== 'demo') return null;
  return (
    <span className="demo-badge" title={t('shell.demoBadgeTitle')}>
      {t('shell.demoBadge')}
    </span>
  );
}
