import {
  batchListResponseSchema,
  BATCHES_PAGE_MAX,
  type BatchListResponse,
} from '../../shared/batches-api';
import { fetchBff } from './api-client';

/** `/api/batches?limit=&before=`: recorded batches older than `before`, newest first. */
export function batchListPath(before: string | null, limit: number): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before !== null) params.set('before', before);
  return `/api/batches?${params.toString()}`;
}

/**
 * The citable ids of the recorded batches at exactly these times (issue 22: every download names
 * the batch each of its rows comes from), keyed by time in ms. Pages `/api/batches` back from the
 * newest time to the oldest (500 a page: three requests for two years); a time with no recorded,
 * chained batch is absent. Asked only when a file is made.
 */
export async function batchIdsAt(times: readonly string[]): Promise<Map<number, string>> {
  const found = await batchesAt(times);
  return new Map([...found].map(([at, batch]) => [at, batch.id]));
}

/** A recorded batch's citable id and the provider's method that scored it (issue 31). */
export interface CitedBatch {
  id: string;
  method: string | null;
}

/** `batchIdsAt` with each batch's method too. */
export async function batchesAt(times: readonly string[]): Promise<Map<number, CitedBatch>> {
  const wanted = new Set(times.map((time) => Date.parse(time)).filter(Number.isFinite));
  const ids = new Map<number, CitedBatch>();
  if (wanted.size === 0) return ids;
  const oldest = Math.min(...wanted);
  let before: string | null = new Date(Math.max(...wanted) + 1).toISOString();
  const limit = Math.min(BATCHES_PAGE_MAX, wanted.size);
  while (before !== null) {
    const page: BatchListResponse = (
      await fetchBff(batchListPath(before, limit), batchListResponseSchema)
    ).data;
    for (const batch of page.batches) {
      const at = Date.parse(batch.as_of);
      if (wanted.has(at)) ids.set(at, { id: batch.id, method: batch.methodology_version ?? null });
    }
    const last = page.batches.at(-1);
    if (!last || Date.parse(last.as_of) <= oldest) break;
    before = page.next_before;
  }
  return ids;
}

/** The id of the batch recorded at exactly `asOf`, or null (not recorded or chained, or no answer). */
export async function batchIdAt(asOf: string | null | undefined): Promise<string | null> {
  return (await batchAt(asOf))?.id ?? null;
}

/** The batch recorded at exactly `asOf` (its id and method), or null. */
export async function batchAt(asOf: string | null | undefined): Promise<CitedBatch | null> {
  if (!asOf) return null;
  try {
    return (await batchesAt([asOf])).get(Date.parse(asOf)) ?? null;
  } catch {
    // A file without the id is still the file asked for; its rows carry their batch time.
    return null;
  }
}
