import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  countriesResponseSchema,
  countrySummarySchema,
  stalenessShape,
} from '../../shared/bff-api';
import {
  changesResponseSchema,
  countryHistoryResponseSchema,
  globalHistoryResponseSchema,
} from '../../shared/history-api';
import { explainPath, explainResponseSchema } from '../../shared/explain-api';
import { COUNTRIES_PATH, countryPath, withAsOf } from '../../shared/page-data';
import { countryResponseSchema } from '../../shared/schemas/responses';
import { batchListResponseSchema } from '../../shared/batches-api';
import { noteListResponseSchema } from '../../shared/notes-api';
import { fetchBff } from './api-client';
import { batchListPath } from './batch-ids';
import { withRiskIndex } from './risk-index';
import type { RiskIndex } from '../../shared/team-index-api';
import { t } from './i18n';

/*
 * One query definition per BFF URL that several features read (the country page and the brief,
 * the trend panels, compare, watchlists and the brief, What changed and the new-batch notice):
 * one key, so a URL is fetched once, cached once and refreshed together when a batch arrives.
 * Features take these as they are and shape the data with `select`.
 */

const countryWithStaleness = z.extend(countryResponseSchema, stalenessShape);

/** The key's last part for a past batch; none for the latest, so its keys stay as they were. */
export function asOfKey(asOf: string | null): [] | [{ asOf: string }] {
  return asOf === null ? [] : [{ asOf }];
}

/** Whether a query key asks for a past batch (its answers never change: see pastBatch). */
export function isPastBatchKey(queryKey: readonly unknown[]): boolean {
  return queryKey.some((part) => typeof part === 'object' && part !== null && 'asOf' in part);
}

/** A recorded batch never changes: its answers are never stale and a new batch leaves them be. */
export function pastBatch(asOf: string | null): { staleTime?: number } {
  return asOf === null ? {} : { staleTime: Infinity };
}

/** The key's part for the team view (issue 31); none for the provider's, so its keys stay. */
export function indexKey(index: RiskIndex): [] | [{ index: 'team' }] {
  return index === 'team' ? [{ index }] : [];
}

/**
 * `/api/countries` as the SPA reads it: every field of each row but its ten categories, which
 * no view takes from this list (the country page has its own). They stay in the answer, kept
 * but not checked: checking them was three quarters of the cost of reading it, about 20 ms of
 * main thread before the overview's first render in Chromium (a first, cold parse; section 3
 * of docs/benchmarks.md).
 */
const countryListSchema = z.extend(countriesResponseSchema, {
  countries: z.array(z.omit(countrySummarySchema, { categories: true })),
});

export const bffQueries = {
  /**
   * Every country of the latest batch, or of the batch `asOf` names: the overview, search, and
   * the order of unknown tiers.
   */
  countries: (asOf: string | null = null, index: RiskIndex = 'provider') =>
    queryOptions({
      // The provider's key stays as it was; the team view (issue 31) is an entry of its own.
      queryKey: ['countries', 'list', ...asOfKey(asOf), ...indexKey(index)],
      queryFn: ({ signal }) =>
        fetchBff(withRiskIndex(withAsOf(COUNTRIES_PATH, asOf), index), countryListSchema, signal),
      ...pastBatch(asOf),
      meta: { label: t('queries.countries') },
    }),
  /**
   * `/api/v1/country/:iso`, latest or as of a recorded batch (`asOf`, issue 22). Callers pass a
   * validated, upper-cased code (see shared/iso).
   */
  country: (iso: string, asOf: string | null = null, index: RiskIndex = 'provider') =>
    queryOptions({
      queryKey: ['country', 'detail', iso, ...asOfKey(asOf), ...indexKey(index)] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          withRiskIndex(withAsOf(countryPath(iso), asOf), index),
          countryWithStaleness,
          signal,
        ),
      ...pastBatch(asOf),
      meta: { label: t('queries.country', { iso }) },
    }),
  /**
   * The recorded history, whole: one point per batch (two a day, so even two years are a few
   * hundred kilobytes at most). Views slice it in the browser, so switching range asks nothing
   * and every range shares one cache entry.
   */
  historyGlobal: () =>
    queryOptions({
      queryKey: ['history', 'global'] as const,
      queryFn: ({ signal }) => fetchBff('/api/history/global', globalHistoryResponseSchema, signal),
      meta: { label: t('queries.globalHistory') },
    }),
  /** One country's recorded history, whole (see `historyGlobal`). */
  historyCountry: (iso: string, index: RiskIndex = 'provider') =>
    queryOptions({
      queryKey: ['history', 'country', iso, ...indexKey(index)] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          withRiskIndex(`/api/history/country/${encodeURIComponent(iso)}`, index),
          countryHistoryResponseSchema,
          signal,
        ),
      meta: { label: t('queries.countryHistory', { iso }) },
    }),
  /**
   * `/api/changes?since=`: what moved between the latest batch (or the batch `asOf` names) and
   * an earlier one.
   */
  changes: (since: string, asOf: string | null = null, index: RiskIndex = 'provider') =>
    queryOptions({
      // With `index` team (issue 31): the moves of the team index, an entry of its own.
      queryKey: ['changes', since, ...asOfKey(asOf), ...indexKey(index)] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          withRiskIndex(withAsOf(`/api/changes?since=${encodeURIComponent(since)}`, asOf), index),
          changesResponseSchema,
          signal,
        ),
      ...pastBatch(asOf),
      meta: { label: t('queries.changes') },
    }),
  /**
   * Why `iso` moved from the batch at `from` (null: the one before `to`) to the batch at `to`
   * (null: the newest): the country page and What changed (issue 22). Between two named batches
   * the answer never changes, so `to` keys it like a past batch.
   */
  explain: (iso: string, from: string | null, to: string | null, index: RiskIndex = 'provider') =>
    queryOptions({
      // With `index` team (issue 31): the team index's move, the provider's beside it.
      queryKey: ['explain', iso, from, ...asOfKey(to), ...indexKey(index)] as const,
      queryFn: ({ signal }) =>
        fetchBff(withRiskIndex(explainPath(iso, from, to), index), explainResponseSchema, signal),
      ...pastBatch(to),
      meta: { label: t('queries.explain', { iso }) },
    }),
  /**
   * The recorded batch a time falls in (the newest at or before it) with its id: what `?as_of=`
   * shows (the banner) and what the overview's exports cite. A recorded batch never changes.
   */
  batchAt: (asOf: string) =>
    queryOptions({
      queryKey: ['batches', 'at', asOf] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          batchListPath(new Date(Date.parse(asOf) + 1).toISOString(), 1),
          batchListResponseSchema,
          signal,
        ),
      select: ({ data }) => data.batches[0] ?? null,
      staleTime: Number.POSITIVE_INFINITY,
      meta: { label: t('queries.batchShown') },
    }),
  /**
   * `/api/notes/:iso[?as_of=]`: a country's notes, as they were at `asOf` when given (issue 31);
   * the country page and the brief. A write makes every key under `['notes', iso]` stale.
   */
  notes: (iso: string, asOf: string | null) =>
    queryOptions({
      queryKey: ['notes', iso, asOf] as const,
      queryFn: ({ signal }) =>
        fetchBff(
          `/api/notes/${encodeURIComponent(iso)}${asOf ? `?as_of=${encodeURIComponent(asOf)}` : ''}`,
          noteListResponseSchema,
          signal,
        ),
      meta: { label: t('queries.notes', { iso }) },
    }),
};
