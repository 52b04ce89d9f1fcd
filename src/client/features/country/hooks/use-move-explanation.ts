import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { sameBatch } from '../../../lib/recorded-deltas';
import { heldChanges } from '../../../lib/method-caveat';
import type { MethodMark } from '../../../../shared/method-api';
import { useRiskIndex } from '../../../lib/risk-index';
import { hasEarlierBatch } from '../../../lib/recorded-batches';
import { countryQueries } from '../api/country-queries';

/**
 * Why `iso` moved: the batch shown (the latest, or `asOf`) against the batch recorded before it.
 * The country's recorded batches (already asked by the trend panel) say whether there is an
 * earlier one: without it the explanation is not asked at all (no 400 on the page). One query
 * for "Why it moved" and the header's change (issue 33: ours where both batches are recorded).
 */
export function useMoveExplanation(iso: string, asOf: string | null, enabled = true) {
  // The team view (`?index=team`) explains the team index's move (issue 31).
  const [index] = useRiskIndex();
  const history = useQuery({ ...countryQueries.history(iso), enabled });
  const noEarlierBatch = history.data !== undefined && !hasEarlierBatch(history.data, asOf);
  const query = useQuery({
    ...countryQueries.explain(iso, null, asOf, index),
    enabled: enabled && !history.isPending && !noEarlierBatch,
  });
  const nothingToCompare =
    noEarlierBatch ||
    (query.error instanceof ApiError && (query.error.status === 400 || query.error.status === 404));
  return { query, nothingToCompare, historyPending: enabled && history.isPending };
}

/**
 * The recorded risk change up to the batch the page shows (`dataAsOf`), or null; across a
 * method change not marked comparable none (two methods' scores), and the change is named
 * (`methodChanges`) so the header says why (issue 31); and whether it is still being asked for:
 * the header keeps the change's room empty until then, so the words do not grow under a
 * reader's eyes (issue 32: a layout shift).
 */
export function useRecordedCountryChange(
  iso: string,
  asOf: string | null,
  dataAsOf: string,
  enabled: boolean,
): { delta: number | null; methodChanges: MethodMark[]; arriving: boolean } {
  const { query, nothingToCompare, historyPending } = useMoveExplanation(iso, asOf, enabled);
  const move = query.data?.data;
  const arriving =
    enabled &&
    !nothingToCompare &&
    query.isPending &&
    (historyPending || query.fetchStatus === 'fetching');
  if (!move || !sameBatch(move.to_batch.as_of, dataAsOf))
    return { delta: null, methodChanges: [], arriving };
  const methodChanges = heldChanges(move.method_changes);
  return { delta: methodChanges.length > 0 ? null : move.delta_risk, methodChanges, arriving };
}
