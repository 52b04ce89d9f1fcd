import { DEFAULT_SITE_RADIUS_KM, type Site } from '../../../../shared/sites-api';
import { formatInteger } from '../../../lib/format';
import { t } from '../../../lib/i18n';

/** The site rule's radius (the default for a BFF older than the rule). */
export const radiusOf = (site: Pick<Site, 'alert'>): number =>
  site.alert?.radius_km ?? DEFAULT_SITE_RADIUS_KM;

/**
 * Our sites in other countries that have `iso` within their rule's radius (their `nearby`
 * list), nearest first: the sites a move of `iso` would alert about besides its own.
 */
export function sitesWithinReach<S extends Pick<Site, 'iso' | 'name' | 'nearby' | 'alert'>>(
  sites: readonly S[],
  iso: string,
): { site: S; km: number }[] {
  return sites
    .flatMap((site) => {
      if (site.iso === iso) return [];
      const near = site.nearby.find((n) => n.iso === iso);
      return near && near.km <= radiusOf(site) ? [{ site, km: near.km }] : [];
    })
    .sort((a, b) => a.km - b.km || a.site.name.localeCompare(b.site.name, 'en'));
}

/** Mean Earth radius (IUGG), km. */
const EARTH_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km between two points (haversine: good to 0.5 % at these scales). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The `count` places nearest to `from`, with their distance, nearest first. */
export function nearest<T extends { lat?: number | null; lng?: number | null }>(
  from: { lat: number; lng: number },
  places: readonly T[],
  count: number,
): { place: T; km: number }[] {
  return places
    .flatMap((place) =>
      typeof place.lat === 'number' && typeof place.lng === 'number'
        ? [{ place, km: distanceKm(from, { lat: place.lat, lng: place.lng }) }]
        : [],
    )
    .sort((a, b) => a.km - b.km)
    .slice(0, count);
}

/**
 * "80 km", "1,240 km" in the page's language and digits ("80 كم"); "under 1 km" below one (0 is
 * the site's own country).
 */
export function formatKm(km: number): string {
  if (km > 0 && km < 1) return t('sites.underOneKm');
  return t('sites.km', { km: formatInteger(Math.round(km)) });
}
