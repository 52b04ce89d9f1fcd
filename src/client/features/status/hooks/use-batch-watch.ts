import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { StatusResponse } from '../../../../shared/bff-api';
import { statusQueries } from '../api/status-queries';
import { isPastBatchKey } from '../../../lib/bff-queries';

/** A batch that arrived while the page was open (its `as_of`), to be announced in words. */
export interface BatchArrival {
  asOf: string;
}

type Health = StatusResponse['upstream']['health'];

/**
 * Polls `/api/status` and keeps what is on screen in step with it:
 * - a new `as_of` (a new batch) marks every data query stale, so the page refreshes to it, and
 *   is returned as an arrival to announce (the first `as_of` seen only sets the baseline: data
 *   loaded with the page is already from that batch);
 * - the data service turning unhealthy refetches the data on screen too: the BFF then answers
 *   from its cache marked stale, so panels say so within one poll instead of after a reload.
 */
export function useBatchWatch(): BatchArrival | null {
  const queryClient = useQueryClient();
  const { data } = useQuery(statusQueries.current());
  const asOf = data?.data.as_of ?? null;
  const health: Health | null = data?.data.upstream.health ?? null;
  const seen = useRef<string | null>(null);
  const lastHealth = useRef<Health | null>(null);
  const [arrival, setArrival] = useState<BatchArrival | null>(null);

  useEffect(() => {
    const previousHealth = lastHealth.current;
    lastHealth.current = health;
    const previous = seen.current;
    if (asOf !== null) seen.current = asOf;
    const newBatch = asOf !== null && previous !== null && previous !== asOf;
    const turnedUnhealthy = previousHealth === 'ok' && health !== null && health !== 'ok';
    if (newBatch) setArrival({ asOf });
    if (newBatch || turnedUnhealthy) {
      // Everything on the page moves to the new batch, What changed included.
      void queryClient.invalidateQueries({
        predicate: (query) =>
          query.queryKey[0] !== statusQueries.all()[0] && !isPastBatchKey(query.queryKey),
      });
    }
  }, [asOf, health, queryClient]);

  // The store records a batch a moment after the cache serves it: when its newest recorded batch
  // moves, what is answered from the store (history, What changed) is asked again, so a panel
  // fetched in between does not keep comparing the older pair.
  const recorded = data?.data.history?.latest ?? null;
  const seenRecorded = useRef<string | null>(null);
  useEffect(() => {
    const previous = seenRecorded.current;
    if (recorded !== null) seenRecorded.current = recorded;
    if (recorded === null || previous === null || previous === recorded) return;
    void queryClient.invalidateQueries({
      predicate: (query) =>
        STORE_ANSWERED.has(String(query.queryKey[0])) && !isPastBatchKey(query.queryKey),
    });
  }, [recorded, queryClient]);

  return arrival;
}

/** First key parts of the queries answered from the BFF's store of recorded batches (our sites carry their countries' numbers from it). */
const STORE_ANSWERED = new Set(['history', 'changes', 'sites', 'exposure']);
