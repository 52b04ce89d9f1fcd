import { useTranslation } from 'react-i18next';
import type { StatusResponse } from '../../../../shared/bff-api';
import { quotaText } from '../utils/quota-text';

/**
 * Operational details for those who look for them, in the page's footer rather than in the
 * executive summary: the data service's health and the API quota left this hour.
 */
export function StatusLine({ status }: { status: StatusResponse | undefined }) {
  const { t } = useTranslation();
  if (!status) return null;
  return (
    <p className="status-line" aria-label={t('status.label')}>
      {t('status.dataService')}: {t(`status.${status.upstream.health}`)} · {t('status.apiQuota')}:{' '}
      {quotaText(status)}
    </p>
  );
}
