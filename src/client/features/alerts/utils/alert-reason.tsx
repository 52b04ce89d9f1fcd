import type { ReactNode } from 'react';
import { measuredFromOlderBatch, type Alert } from '../../../../shared/alerts-api';
import { formatLanguage, formatScore, formatSigned, formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { isolateLtr } from '../../../lib/ltr-text';
import { tierWord } from '../../../lib/tier-words';

const BREAKING_PREFIX = 'Breaking event: ';

/** "41.0 → 53.4" as the page writes numbers, or null when either is missing. */
function moved(before: number | null | undefined, after: number | null | undefined) {
  if (before == null || after == null) return null;
  return { before: formatScore(before, 1), after: formatScore(after, 1) };
}

/**
 * Why an alert fired, in the page's language (issue 34), as its e-mails and webhooks say it
 * (server/services/alerts/alert-words.ts, the `why` of shared/i18n/outputs): English shows the
 * words the evaluator stored; another language says the same from the alert's kind and numbers,
 * and falls back to the stored words when the numbers are not there. A breaking event's headline
 * and source are the upstream's and stay as they came.
 */
export function alertReason(
  alert: Pick<Alert, 'kind' | 'message' | 'before' | 'after'>,
): ReactNode {
  if (formatLanguage() === 'en') return alert.message;
  const { before, after } = alert;
  switch (alert.kind) {
    case 'active_change': {
      const pair = moved(before?.active, after.active);
      if (!pair || before?.active == null || after.active == null) break;
      const words = {
        ...pair,
        // The sign stays in front of its number in a right-to-left line.
        delta: isolateLtr(formatSigned(after.active - before.active, 1)),
      };
      return measuredFromOlderBatch(alert.message)
        ? t('alertItems.activeSince', { ...words, time: formatUtcDateTime(before.as_of) })
        : t('alertItems.active', words);
    }
    case 'tier_change':
      if (!before?.tier || !after.tier) break;
      return t('alertItems.tier', { before: tierWord(before.tier), after: tierWord(after.tier) });
    case 'risk_threshold': {
      const pair = moved(before?.risk, after.risk);
      if (pair) return t('alertItems.risk', pair);
      break;
    }
    case 'team_index_threshold': {
      const pair = moved(before?.team, after.team);
      if (pair) return t('alertItems.team', pair);
      break;
    }
    case 'breaking_event': {
      const upstream = alert.message.startsWith(BREAKING_PREFIX)
        ? alert.message.slice(BREAKING_PREFIX.length)
        : alert.message;
      return (
        <>
          {t('alertItems.breaking')}{' '}
          <span translate="no" dir="auto">
            {upstream}
          </span>
        </>
      );
    }
    case 'method_change':
      return t('alertItems.method');
    case 'override_expired':
      return t('alertItems.override');
  }
  return alert.message;
}
