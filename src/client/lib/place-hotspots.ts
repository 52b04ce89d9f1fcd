import type { CountrySummary } from '../../shared/bff-api';
import type { Hotspot } from '../../shared/schemas/hotspot';

export type Places = ReadonlyMap<string, { lat: number; lng: number }>;

/** Where the latest list puts each country (a `select` for the countries query: stable). */
export function placesOf(answer: {
  data: { countries: ReadonlyArray<Pick<CountrySummary, 'iso' | 'lat' | 'lng'>> };
}): Places {
  const places = new Map<string, { lat: number; lng: number }>();
  for (const { iso, lat, lng } of answer.data.countries) {
    if (typeof lat === 'number' && typeof lng === 'number') places.set(iso, { lat, lng });
  }
  return places;
}

/**
 * A past batch's hotspots as markers (issue 33, point 3): the rows are the recorded batch's,
 * but the store keeps scores, not places, so a row without coordinates is placed where the
 * latest list puts its country (a country does not move between batches). Rows the latest list
 * cannot place stay off the map, as before.
 */
export function placeHotspots(
  hotspots: readonly Hotspot[] | undefined,
  places: Places | undefined,
): readonly Hotspot[] | undefined {
  if (!hotspots || !places) return hotspots;
  return hotspots.map((row) => {
    if (typeof row.lat === 'number' && typeof row.lng === 'number') return row;
    const place = places.get(row.iso);
    return place ? { ...row, ...place } : row;
  });
}
