import type { DeliveryLogEntry } from '../../../shared/alerts-api.js';
import type { Database } from '../../store/connection.js';
import { selectDeliveryLog } from '../../store/outbox.js';

/** A list's delivery log for the settings page: time, status, duration, in plain words. */
export class DeliveryLogView {
  constructor(private readonly db: Database) {}

  async of(watchlistId: number): Promise<DeliveryLogEntry[]> {
    const rows = await selectDeliveryLog(this.db, watchlistId, 100);
    return rows.map((r) => ({
      message_id: r.messageId,
      channel: r.channel,
      state: r.state,
      attempt: r.attempt,
      at: r.at.toISOString(),
      status: r.status,
      duration_ms: r.durationMs,
      error: r.error,
    }));
  }
}
