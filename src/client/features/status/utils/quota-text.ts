import type { StatusResponse } from '../../../../shared/bff-api';
import { formatInteger } from '../../../lib/format';

/** "38 of 50 left this hour": the upstream budget the whole team shares. */
export function quotaText(status: StatusResponse | undefined): string {
  if (!status) return 'n/a';
  const { remaining, limit, used_last_60min } = status.quota;
  if (remaining === null || limit === null) {
    return `${formatInteger(used_last_60min)} used in the last hour`;
  }
  return `${formatInteger(remaining)} of ${formatInteger(limit)} left this hour`;
}
