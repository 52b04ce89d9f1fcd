import type { StatusResponse } from '../../../../shared/bff-api';
import { statusLines, type StatusWords } from '../../../../shared/status-lines';
import { formatUtcDateTime, formatUtcTime, formatRelative } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** Whether the banner is saying the data service fails (and from when the data is). */
export function outageShown(status: StatusResponse | undefined): boolean {
  return status !== undefined && status.upstream.health !== 'ok';
}

/**
 * The banner's words in the page's language (the server's first frame has its own). The
 * catalogue's typing asks each message for its own values; status-lines.ts passes each one what
 * its English text names (test/client/usability.test.tsx reads the lines).
 */
const say = t as unknown as (key: string, values?: Record<string, string>) => string;
const WORDS: StatusWords = {
  t: say,
  dateTime: formatUtcDateTime,
  time: formatUtcTime,
  relative: formatRelative,
};

/**
 * A plain sentence when the data service is unhealthy, a batch is overdue or the quota is
 * blocked; nothing when all is well (shared/status-lines.ts, which the first frame says too).
 */
export function StatusBanner({ status, now }: { status: StatusResponse | undefined; now: number }) {
  if (!status) return null;
  const lines = statusLines(status, now, WORDS);
  if (lines.length === 0) return null;
  return (
    <div className={`status-banner status-${status.upstream.health}`} role="status">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
