import { useEffect, type ReactNode } from 'react';
import type { StatusResponse } from '../../../../shared/bff-api';
import { globalIndexValue, type GlobalSummary } from '../../../../shared/schemas/global';
import { Delta } from '../../../components/delta';
import { TierBadge } from '../../../components/tier-badge';
import {
  formatInteger,
  formatScore,
  formatUtcDateTime,
  formatUtcTime,
  formatWhen,
  na,
} from '../../../lib/format';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import { t } from '../../../lib/i18n';

/** What the header needs; both `/api/countries` and the hotspot list carry it. */
export interface BatchSummary {
  as_of: string;
  methodology_version?: string | null;
  global?: GlobalSummary | null;
}

/**
 * The first thing an executive reads: the global index, its tier and its change, then the
 * components and the facts that say how current the numbers are. Operational details (the API
 * quota) live in the status line of the page's footer.
 */
export function GlobalHeader({
  summary,
  status,
  now,
  overdueAt = null,
  batchCheck = null,
  past = false,
}: {
  summary: BatchSummary;
  status: StatusResponse | undefined;
  now: number;
  /** A documented batch time that passed without new data (see the status feature). */
  overdueAt?: string | null;
  /** When the data service is next asked for a batch, and a way to ask now (status feature). */
  batchCheck?: ReactNode;
  /** A past batch is shown (`?as_of=`): when the next one is due says nothing about it. */
  past?: boolean;
}) {
  useEffect(() => markOnceAfterPaint(PERF_MARKS.globalIndexDrawn), []);
  const global = summary.global;
  const index = globalIndexValue(global);
  const methodology = summary.methodology_version ?? status?.methodology_version ?? na();
  return (
    <section className="global-header" aria-labelledby="global-index-heading">
      <div className="global-index">
        <h2 id="global-index-heading" className="global-index-label">
          {t('overview.globalIndex')}
        </h2>
        <p className="global-index-value">
          <span className="global-index-number" data-testid="global-index">
            {index === null ? na() : formatScore(index)}
          </span>
          <TierBadge tier={global?.tier} />
        </p>
        <p className="global-index-delta">
          <Delta value={global?.delta_vs_yesterday} verbose suffix={t('delta.vsYesterday')} />
        </p>
      </div>
      <dl className="global-facts">
        <div>
          <dt>{t('overview.static')}</dt>
          <dd>{formatScore(global?.static)}</dd>
        </div>
        <div>
          <dt>{t('overview.active')}</dt>
          <dd>{formatScore(global?.active)}</dd>
        </div>
        <div>
          <dt>{t('overview.events24h')}</dt>
          <dd>{formatInteger(global?.events_24h)}</dd>
        </div>
        <div>
          <dt>{t('overview.dataGenerated')}</dt>
          <dd>
            <time dateTime={summary.as_of}>
              <span className="screen-only">{formatWhen(summary.as_of, now)}</span>
              {/* Paper is read later: the date itself, not how long ago it was when printed. */}
              <span className="print-only">{formatUtcDateTime(summary.as_of)}</span>
            </time>
          </dd>
        </div>
        {past ? null : <NextBatchDue status={status} now={now} overdueAt={overdueAt} />}
        <div>
          <dt>{t('overview.methodology')}</dt>
          <dd>{methodology}</dd>
        </div>
        {/* Held even while empty (and in the skeleton), so nothing moves when it arrives. */}
        <div className="facts-wide batch-check-row">
          <dt className="visually-hidden">{t('overview.checksForBatch')}</dt>
          <dd>{batchCheck}</dd>
        </div>
      </dl>
    </section>
  );
}

/** When the next batch is due (overdue when its documented time passed without one). */
function NextBatchDue({
  status,
  now,
  overdueAt,
}: {
  status: StatusResponse | undefined;
  now: number;
  overdueAt: string | null;
}) {
  return (
    <div>
      <dt>{t('overview.nextBatchDue')}</dt>
      <dd>
        {overdueAt ? (
          <time dateTime={overdueAt} className="overdue">
            {formatUtcTime(overdueAt)} · {t('overview.overdue')}
          </time>
        ) : status ? (
          <time dateTime={status.next_batch_due_at}>
            <span className="screen-only">{formatWhen(status.next_batch_due_at, now)}</span>
            <span className="print-only">{formatUtcDateTime(status.next_batch_due_at)}</span>
          </time>
        ) : (
          na()
        )}
      </dd>
    </div>
  );
}

const FACT_LABELS = [
  'overview.static',
  'overview.active',
  'overview.events24h',
  'overview.dataGenerated',
  'overview.nextBatchDue',
  'overview.methodology',
] as const;

/**
 * The header while the batch loads: the same grid, labels and line heights with pulsing
 * placeholders for the figures, so nothing below moves when they arrive.
 */
export function GlobalHeaderSkeleton() {
  return (
    <section className="global-header" aria-busy="true">
      <p className="visually-hidden" role="status">
        {t('overview.loadingIndex')}
      </p>
      <div className="global-index" aria-hidden="true">
        <h2 className="global-index-label">{t('overview.globalIndex')}</h2>
        <p className="global-index-value">
          <span className="global-index-number skeleton-text">00.0</span>
        </p>
        <p className="global-index-delta">
          <span className="skeleton-text">+0.0 vs yesterday</span>
        </p>
      </div>
      <dl className="global-facts" aria-hidden="true">
        {FACT_LABELS.map((label) => (
          <div key={label}>
            <dt>{t(label)}</dt>
            <dd>
              <span className="skeleton-text">00:00 UTC</span>
            </dd>
          </div>
        ))}
        <div className="facts-wide batch-check-row">
          <dt className="visually-hidden">{t('overview.checksForBatch')}</dt>
          <dd />
        </div>
      </dl>
    </section>
  );
}
