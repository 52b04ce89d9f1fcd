import { previousBatchDue } from '../../../../shared/freshness';

/**
 * The documented batch time that has passed without its data arriving: the most recent due time
 * when the newest data (`asOf`) is older than it, else null. "Next batch due 03:00 tomorrow"
 * at 10:04 with 03:00 data would hide that the 10:00 batch never came.
 */
export function overdueBatchAt(asOf: string | null | undefined, now: number): string | null {
  if (!asOf) return null;
  const dataTime = Date.parse(asOf);
  if (Number.isNaN(dataTime)) return null;
  const due = previousBatchDue(now);
  return dataTime < due ? new Date(due).toISOString() : null;
}
