/**
 * How exposed one site is (issue 33, point 6): the people there and the risk around them, not
 * only their own country's risk (sites in one country all tied).
 *
 *   weighted risk = the highest, over the countries within the site rule's radius (its own
 *                   country at 0 km), of risk / (1 + distance / 100 km)
 *   exposure      = people × weighted risk / 100   (a site with no people recorded counts as 1)
 *
 * A country at the border counts in full, one 100 km away at half. The UI's help and
 * docs/api.md state the same formula; the BFF ranks "Riskiest sites" by exposure, then weighted
 * risk, then the site's id.
 */
export const DISTANCE_HALF_KM = 100;

export interface WeightedRisk {
  /** Null when no country within the radius has a risk in the batch. */
  risk: number | null;
  /** The country that gives it, and its distance from the site in km. */
  iso: string | null;
  km: number | null;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export function weightedRisk(
  site: { iso: string; nearby: ReadonlyArray<{ iso: string; km: number }>; radiusKm: number },
  riskOf: (iso: string) => number | null | undefined,
): WeightedRisk {
  const within = site.nearby.filter((n) => n.km <= site.radiusKm);
  if (!within.some((n) => n.iso === site.iso)) within.push({ iso: site.iso, km: 0 });
  let best: WeightedRisk = { risk: null, iso: null, km: null };
  for (const { iso, km } of within) {
    const risk = riskOf(iso);
    if (typeof risk !== 'number' || !Number.isFinite(risk)) continue;
    const weighted = risk / (1 + km / DISTANCE_HALF_KM);
    if (best.risk === null || weighted > best.risk) best = { risk: weighted, iso, km };
  }
  return best.risk === null ? best : { ...best, risk: round2(best.risk) };
}

export function exposureOf(people: number | null | undefined, risk: number | null): number | null {
  if (risk === null) return null;
  return round2((Math.max(1, people ?? 0) * risk) / 100);
}
