import type { Site, SiteBrief, SiteCountry } from '../../../shared/sites-api.js';
import type { CountryRow } from '../../store/batches.js';
import type { SiteRow } from '../../store/sites.js';

/** Store rows → API bodies. */

export function countryView(row: CountryRow): SiteCountry {
  return {
    iso: row.iso,
    name: row.name,
    risk: row.risk,
    tier: row.tier,
    active: row.active,
    delta_active: row.deltaActive,
  };
}

export function siteView(row: SiteRow, country: CountryRow | undefined): Site {
  return {
    id: row.id,
    ref: row.ref,
    name: row.name,
    kind: row.kind,
    lat: row.lat,
    lng: row.lng,
    iso: row.iso,
    placed_by: row.placedBy,
    people: row.people,
    value: row.value,
    currency: row.currency,
    tags: row.tags,
    from: row.tripFrom,
    to: row.tripTo,
    nearby: row.nearby,
    alert: { on: row.alertOn, radius_km: row.alertRadiusKm, min_delta: row.alertMinDelta },
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    country: country ? countryView(country) : null,
  };
}

export function siteBrief(row: SiteRow): SiteBrief {
  return {
    id: row.id,
    ref: row.ref,
    name: row.name,
    kind: row.kind,
    iso: row.iso,
    people: row.people,
  };
}

export const siteEtag = (row: { version: number }): string => `"${row.version}"`;
