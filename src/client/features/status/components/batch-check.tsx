import type { StatusResponse } from '../../../../shared/bff-api';
import { formatRelative, formatUtcTime } from '../../../lib/format';
import { useCheckNow } from '../api/status-mutations';
import { t } from '../../../lib/i18n';

/**
 * When the dashboard last asked the data service for a new batch and when it asks next, with a
 * "Check now" for whoever saw a batch time pass: the BFF allows one such check per few minutes
 * for everyone together, and says when the next may be asked if this one is too soon.
 */
export function BatchCheck({ status, now }: { status: StatusResponse; now: number }) {
  const check = useCheckNow();
  const found = check.data?.data.as_of;
  const outcome = check.isError
    ? check.error.message
    : check.isSuccess
      ? found && found !== check.variables
        ? t('overview.batchFound')
        : t('overview.noNewBatch')
      : null;
  return (
    <p className="batch-check">
      {status.last_checked_at ? (
        <>
          {t('overview.checked')}{' '}
          <time dateTime={status.last_checked_at}>
            {formatRelative(status.last_checked_at, now)}
          </time>
        </>
      ) : (
        t('overview.notChecked')
      )}
      {status.next_check_at && Date.parse(status.next_check_at) > now ? (
        <>
          {' '}
          · {t('overview.nextCheck')}{' '}
          <time dateTime={status.next_check_at}>{formatUtcTime(status.next_check_at)}</time>
        </>
      ) : status.next_check_at ? (
        // A check whose time has passed is under way or about to be (issue 33, point 10):
        // never a time in the past.
        t('overview.checkingAgain')
      ) : null}{' '}
      <button
        type="button"
        className="link-button"
        disabled={check.isPending}
        onClick={() => check.mutate(status.as_of)}
      >
        {check.isPending ? t('overview.checking') : t('overview.checkNow')}
      </button>
      <span role="status" className="batch-check-outcome">
        {outcome}
      </span>
    </p>
  );
}
