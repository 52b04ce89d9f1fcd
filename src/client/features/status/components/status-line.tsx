import type { StatusResponse } from '../../../../shared/bff-api';
import { quotaText } from '../utils/quota-text';

const HEALTH_WORDS: Record<StatusResponse['upstream']['health'], string> = {
  ok: 'working normally',
  degraded: 'answering with errors',
  down: 'cannot be reached',
};

/**
 * Operational details for those who look for them, in the page's footer rather than in the
 * executive summary: the data service's health and the API quota left this hour.
 */
export function StatusLine({ status }: { status: StatusResponse | undefined }) {
  if (!status) return null;
  return (
    <p className="status-line" aria-label="Service status">
      Data service: {HEALTH_WORDS[status.upstream.health]} · API quota: {quotaText(status)}
    </p>
  );
}
