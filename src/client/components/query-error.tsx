import { ApiError } from '../lib/api-client';
import { formatRelative, formatUtcTime } from '../lib/format';
import { t } from '../lib/i18n';
import { plainWords } from '../lib/plain-words';

/** The "try again at 14:32 (in 12 min)" part of a quota or rate-limit error. */
export function retryHint(error: Error, now: number = Date.now()): string | null {
  if (!(error instanceof ApiError)) return null;
  const at = error.retryAt;
  if (at === null) return null;
  const iso = new Date(at).toISOString();
  return t('problems.tryAgainAt', { time: formatUtcTime(iso), relative: formatRelative(iso, now) });
}

/**
 * A failed first load of a panel: what went wrong, when to try again, and a retry button, but
 * only where asking again can succeed: a refused request (4xx other than 429) would be refused
 * again, so it gets no button.
 */
export function QueryError({
  what,
  error,
  onRetry,
}: {
  /** "The hotspot list" */
  what: string;
  error: Error;
  onRetry?: () => void;
}) {
  const hint = retryHint(error);
  const message = plainWords(error.message);
  const retryable = !(error instanceof ApiError && error.isClientError);
  return (
    <div className="panel-error" role="alert">
      <p>
        <strong>{t('problems.couldNotLoad', { what })}</strong> {message}
        {/[.!?]$/.test(message) ? '' : '.'}
        {hint ? ` ${hint}` : ''}
      </p>
      {onRetry && retryable ? (
        <button type="button" onClick={onRetry}>
          {t('problems.tryAgain')}
        </button>
      ) : null}
    </div>
  );
}
