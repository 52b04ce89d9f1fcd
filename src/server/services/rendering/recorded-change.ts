import { LRUCache } from 'lru-cache';
import type { MoveExplanations } from '../history/explain.js';

/** Countries remembered (their change in the batch recorded last, or a recent miss). */
const MAX_COUNTRIES = 256;

/** How long an unrecorded change is believed: the batch is usually recorded within seconds. */
const UNRECORDED_TTL_MS = 60_000;

/**
 * A country's change since the batch recorded before `asOf`'s (the SPA's header shows it), or
 * null when this dashboard has not recorded both, a method change lies between them (the SPA
 * then shows no subtraction), or `asOf` is not the batch recorded last. One question to the store
 * per country and batch (the answer, or a miss for a minute), shared by concurrent pages.
 */
export function recordedChangeOf(explanations: Pick<MoveExplanations, 'explain'> | null) {
  const known = new LRUCache<string, Promise<number | null>>({ max: MAX_COUNTRIES });
  const ask = async (iso: string, asOf: string): Promise<number | null> => {
    if (!explanations) return null;
    const move = (await explanations.explain(iso, null, null).catch(() => null)) as {
      to_batch?: { as_of?: string };
      delta_risk?: unknown;
      method_changes?: { comparable?: boolean }[];
    } | null;
    if (!move || Date.parse(move.to_batch?.as_of ?? '') !== Date.parse(asOf)) return null;
    if ((move.method_changes ?? []).some((change) => !change.comparable)) return null;
    return typeof move.delta_risk === 'number' ? move.delta_risk : null;
  };
  return (iso: string, asOf: unknown): Promise<number | null> => {
    if (!explanations || typeof asOf !== 'string') return Promise.resolve(null);
    const key = `${iso}|${asOf}`;
    let found = known.get(key);
    if (!found) {
      found = ask(iso, asOf);
      known.set(key, found);
      void found.then((value) => {
        if (value === null) known.set(key, found!, { ttl: UNRECORDED_TTL_MS });
      });
    }
    return found;
  };
}
