import type { StatusResponse } from '../../../../shared/bff-api';
import { formatInteger, na } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** "38 of 50 left this hour": the upstream budget the whole team shares. */
export function quotaText(status: StatusResponse | undefined): string {
  if (!status) return na();
  const { remaining, limit, used_last_60min } = status.quota;
  if (remaining === null || limit === null) {
    return t('quota.used', { used: formatInteger(used_last_60min) });
  }
  return t('quota.left', { remaining: formatInteger(remaining), limit: formatInteger(limit) });
}
