import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '../../../components/query-error';
import { useAsOf } from '../../../lib/as-of';
import { t } from '../../../lib/i18n';
import { formatInteger, formatUtcDateTime } from '../../../lib/format';
import { batchQueries } from '../api/batch-queries';

/*
 * A step by keyboard opens another batch, and the picker moves: from "Open a past batch" below
 * the map to the bar at the top, and back for the newest (issue 33, point 3). The picker that
 * shows next takes the focus, so the next arrow key steps again.
 */
let refocus = false;

/** Whether a keyboard step is waiting for the next picker to take the focus. */
export function pickerRefocusPending(): boolean {
  return refocus;
}

/** The slider, focused when a keyboard step left a mark and it is drawn (or its batch moved). */
function useRefocusedSlider(asOf: string | null, ready: boolean) {
  const slider = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!refocus || !ready || !slider.current) return;
    refocus = false;
    slider.current.focus();
  }, [asOf, ready]);
  return slider;
}

/** The recorded batches, oldest first, and the place in them of the batch shown (`asOf`). */
function useTimeline(asOf: string | null) {
  const timeline = useInfiniteQuery(batchQueries.timeline());
  const batches = useMemo(
    () => (timeline.data?.pages ?? []).flatMap((page) => page.data.batches).reverse(),
    [timeline.data],
  );
  const shownIndex = useMemo(() => {
    if (asOf === null) return batches.length - 1;
    const at = Date.parse(asOf);
    let index = 0;
    batches.forEach((batch, i) => {
      if (Date.parse(batch.as_of) <= at) index = i;
    });
    return index;
  }, [batches, asOf]);
  return { timeline, batches, shownIndex };
}

/**
 * A timeline of the recorded batches, oldest on the left (issue 22): arrows, Home and End step
 * through them; a batch opens when the key or the pointer is released, so stepping across a year
 * asks the server once, not once per batch passed. Choosing the newest batch returns to the live
 * view. Older batches load a page (250 days) at a time.
 */
export function BatchPicker() {
  const id = useId();
  const asOf = useAsOf();
  const [, setParams] = useSearchParams();
  const { timeline, batches, shownIndex } = useTimeline(asOf);
  const [moving, setMoving] = useState<number | null>(null);
  const index = moving ?? shownIndex;
  const batch = batches[index];
  const slider = useRefocusedSlider(asOf, batches.length > 0);

  const open = (byKey: boolean) => {
    if (moving === null) return;
    refocus = byKey;
    const chosen = batches[moving];
    setMoving(null);
    if (!chosen) return;
    // The first page is the newest, so the last of the timeline is the newest recorded batch.
    const newest = moving === batches.length - 1;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (newest) next.delete('as_of');
        else next.set('as_of', chosen.as_of);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  if (timeline.isPending) return <p className="muted">{t('asOf.loadingBatches')}</p>;
  if (timeline.isError) return <QueryError error={timeline.error} what={t('asOf.batches')} />;
  if (batches.length === 0) return <p className="muted">{t('asOf.noneYet')}</p>;
  return (
    <div className="batch-picker">
      <label htmlFor={`${id}-range`}>
        {t('asOf.batch')} <output htmlFor={`${id}-range`}>{formatUtcDateTime(batch?.as_of)}</output>
      </label>
      <input
        id={`${id}-range`}
        ref={slider}
        type="range"
        min={0}
        max={batches.length - 1}
        step={1}
        value={index}
        aria-valuetext={t('asOf.sliderValue', {
          date: formatUtcDateTime(batch?.as_of),
          n: formatInteger(index + 1),
          total: formatInteger(batches.length),
        })}
        onChange={(event) => setMoving(Number(event.target.value))}
        onPointerUp={() => open(false)}
        onKeyUp={() => open(true)}
      />
      <p className="batch-picker-ends muted">
        <span>{formatUtcDateTime(batches[0]?.as_of)}</span>
        <span>{formatUtcDateTime(batches[batches.length - 1]?.as_of)}</span>
      </p>
      {timeline.hasNextPage ? (
        <button
          type="button"
          onClick={() => void timeline.fetchNextPage()}
          disabled={timeline.isFetchingNextPage}
        >
          {timeline.isFetchingNextPage ? t('asOf.loadingOlder') : t('asOf.older')}
        </button>
      ) : null}
    </div>
  );
}
