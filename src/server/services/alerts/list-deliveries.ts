import { randomUUID } from 'node:crypto';
import type { Alert } from '../../../shared/alerts-api.js';
import type { NewDelivery } from '../../store/alerts.js';
import type { WatchlistRow } from '../../store/watchlists.js';
import { digestMail, webhookBody, type AlertSites } from './alert-messages.js';
import { isCritical } from './critical.js';

/**
 * The outbox rows for one list's new alerts of one batch: a webhook message per alert (when the
 * list has a webhook) and one e-mail digest (when it has an address and SMTP is configured).
 * Watchlist alerts and site alerts (the "Our sites" list) both go out through here.
 */
export function listDeliveries(
  list: WatchlistRow,
  alerts: Alert[],
  batch: {
    /** The batch before the alerts' batch (the payload's `previous_as_of`). */
    previousAsOf: string | null;
    /** The alerts' batch's citable id (GET /api/batches/:id); null when it has none yet. */
    chainId: string | null;
  },
  now: Date,
  emailEnabled: boolean,
  /** A site alert's sites (the "Our sites" list), carried by its webhook and e-mail. */
  sitesOf: (alert: Alert) => AlertSites | null = () => null,
): NewDelivery[] {
  const first = alerts[0];
  if (!first) return [];
  const out: NewDelivery[] = [];
  const common = {
    watchlistId: list.id,
    state: 'pending' as const,
    nextAttemptAt: now,
    createdAt: now,
  };
  if (list.webhookUrl && list.webhookSecret) {
    for (const alert of alerts) {
      out.push({
        ...common,
        messageId: `msg_${randomUUID().replace(/-/g, '')}`,
        channel: 'webhook',
        body: webhookBody(
          alert,
          list.webhookFormat,
          batch.previousAsOf,
          batch.chainId,
          sitesOf(alert),
          list.language,
        ),
      });
    }
  }
  if (list.email && emailEnabled) {
    out.push({
      ...common,
      messageId: `mail_${randomUUID().replace(/-/g, '')}`,
      channel: 'email',
      body: JSON.stringify({
        to: list.email,
        // Sent through a recipient's quiet hours only when critical (issue 21).
        critical: alerts.some(isCritical),
        ...digestMail(list.name, first.batch_as_of, alerts, batch.chainId, sitesOf, list.language),
      }),
    });
  }
  return out;
}
