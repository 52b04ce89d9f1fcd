import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { LinkToLatest } from '../../../lib/app-link';
import { useAsOf } from '../../../lib/as-of';
import { formatUtcDateTime } from '../../../lib/format';
import { t } from '../../../lib/i18n';
import { batchQueries } from '../api/batch-queries';
import { AsOfJump } from './as-of-jump';
import { BatchPicker, pickerRefocusPending } from './batch-picker';

/** The page's URL without `?as_of=`: the same view, live. */
function latestOf(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete('as_of');
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}${hash}`;
}

/**
 * Says which recorded batch the page shows when it is not the latest (issue 22): its time and
 * its id (what to cite: `/api/batches/<id>` gives the content it is a digest of), a way back to
 * the live view, and the timeline to move to another batch. Nothing while the page shows the
 * latest data (the overview then has PastBatchPicker below its map).
 */
export function AsOfBar({
  onOverview,
  withJump = false,
}: {
  onOverview: boolean;
  /** A page with an as-of control of its own (the country page): the day field and jumps. */
  withJump?: boolean;
}) {
  const asOf = useAsOf();
  const { pathname, search, hash } = useLocation();
  const batch = useQuery({ ...batchQueries.at(asOf ?? ''), enabled: asOf !== null });
  if (asOf === null) return null;
  const shown = batch.data;
  return (
    <section className="as-of-bar" aria-label={t('asOf.shown')}>
      <p>
        {shown ? (
          <>
            <strong>{t('asOf.viewing', { date: formatUtcDateTime(shown.as_of) })}</strong>
            {t('asOf.notLatest')} {t('brief.batchId')}{' '}
            <a
              href={`/api/batches/${shown.id}`}
              className="batch-id"
              title={shown.id}
              translate="no"
            >
              {shown.id.slice(0, 12)}
            </a>
            .{' '}
          </>
        ) : batch.isSuccess ? (
          <strong>{t('asOf.noneAtOrBefore', { date: formatUtcDateTime(asOf) })} </strong>
        ) : (
          <strong>{t('asOf.viewingPast', { date: formatUtcDateTime(asOf) })} </strong>
        )}
        <LinkToLatest to={latestOf(pathname, search, hash)} className="no-print">
          {t('asOf.backToLatest')}
        </LinkToLatest>
      </p>
      {onOverview ? (
        <div className="no-print">
          <BatchPicker />
          <AsOfJump now={Date.now} />
        </div>
      ) : withJump ? (
        <div className="no-print">
          <AsOfJump now={Date.now} />
        </div>
      ) : null}
    </section>
  );
}

/**
 * The country page's own way into the past while it shows the latest data (issue 33, point 3):
 * the day field and "A week ago" / "A month ago", closed under "Open a past batch". They set
 * `?as_of=` on this page, so the country opens as it stood then; the bar above takes over.
 */
export function PastBatchJump() {
  const asOf = useAsOf();
  if (asOf !== null) return null;
  return (
    <details className="as-of-bar as-of-closed no-print">
      <summary>{t('asOf.openPast')}</summary>
      <AsOfJump now={Date.now} />
    </details>
  );
}

/**
 * The overview's way into the past while it shows the latest data: the timeline, closed under
 * "Open a past batch" (below the map: the index and the map keep the first screen). The timeline
 * (up to 500 batches) is asked for when the picker is opened or about to be, not as the overview
 * starts: its answer was parsed while the first frame was being drawn (docs/benchmarks.md, 3).
 */
export function PastBatchPicker() {
  const asOf = useAsOf();
  const queryClient = useQueryClient();
  // Back at the newest by keyboard: the picker opens again so it can keep the focus.
  const [open, setOpen] = useState(pickerRefocusPending);
  if (asOf !== null) return null;
  const prefetch = () => void queryClient.prefetchInfiniteQuery(batchQueries.timeline());
  return (
    <details
      open={open}
      className="as-of-bar as-of-closed no-print"
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary onPointerEnter={prefetch} onFocus={prefetch}>
        {t('asOf.openPast')}
      </summary>
      {open ? (
        <>
          <BatchPicker />
          <AsOfJump now={Date.now} />
        </>
      ) : null}
    </details>
  );
}
