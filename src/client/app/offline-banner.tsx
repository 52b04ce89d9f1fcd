import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { activeFormatLocale, formatLanguage } from '../lib/format';
import { t } from '../lib/i18n';

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

const isOffline = () => !navigator.onLine;

function asOfOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('data' in data)) return null;
  const inner = (data as { data: unknown }).data;
  if (typeof inner !== 'object' || inner === null || !('as_of' in inner)) return null;
  const asOf = (inner as { as_of: unknown }).as_of;
  return typeof asOf === 'string' && !Number.isNaN(Date.parse(asOf)) ? asOf : null;
}

/**
 * The batch time of the data on screen: the oldest `as_of` among the answers a mounted view
 * uses. The oldest, because the banner must not make any of it read newer than it is.
 */
export function shownBatchTime(queryClient: QueryClient): string | null {
  let oldest: string | null = null;
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.getObserversCount() === 0) continue;
    const asOf = asOfOf(query.state.data);
    if (asOf !== null && (oldest === null || Date.parse(asOf) < Date.parse(oldest))) oldest = asOf;
  }
  return oldest;
}

/** "28 Nov, 11:00 GMT+1": the batch's time where the reader is, with the zone named. */
export function formatLocalBatchTime(iso: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/**
 * While the browser has no network, says so and from which batch the page's data is (the
 * service worker's last copy, scripts/vite/offline-worker.ts): offline data is never shown as
 * current. Nothing while online: the status banner speaks for the data service then.
 */
export function OfflineBanner() {
  const offline = useSyncExternalStore(subscribeOnline, isOffline, () => false);
  // Only offline does it follow the query cache (every query event would otherwise reach it).
  return offline ? <OfflineBatchLine /> : null;
}

/**
 * English keeps the browser's own conventions for the reader's local time (as before issue 34);
 * another page language writes it in that language's.
 */
function localeOfBatchTime(): string | undefined {
  return formatLanguage().startsWith('en') ? undefined : activeFormatLocale();
}

function OfflineBatchLine() {
  const queryClient = useQueryClient();
  const subscribeQueries = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const batch = useSyncExternalStore(
    subscribeQueries,
    () => shownBatchTime(queryClient),
    () => null,
  );
  return (
    <p className="offline-banner" role="status">
      <strong>
        {batch
          ? t('problems.offlineBatch', {
              time: formatLocalBatchTime(batch, localeOfBatchTime()),
            })
          : t('problems.offlineNotKept')}
      </strong>{' '}
      {t('problems.offlineNewer')}
    </p>
  );
}
