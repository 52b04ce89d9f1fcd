import Supercluster, { type ClusterFeature, type PointFeature } from 'supercluster';
import type { SitePointsResponse } from '../../../../shared/sites-api';
import { KNOWN_TIERS } from '../../../../shared/tiers';

/** What the map keeps of a site: enough to draw, name and open it. */
export interface SitePoint {
  id: number;
  name: string;
  kind: string;
  iso: string;
  /** The site's country's tier in the newest batch (null: no current data). */
  tier: string | null;
  people: number;
}

/** A site where the map puts it. */
export interface SitePlace extends SitePoint {
  lat: number;
  lng: number;
}

/** `/api/sites/points`' columns → one place per site. */
export function placesOf(points: SitePointsResponse): SitePlace[] {
  return points.id.map((id, i) => ({
    id,
    lat: points.lat[i] ?? 0,
    lng: points.lng[i] ?? 0,
    name: points.name[i] ?? '',
    kind: points.kind[i] ?? '',
    iso: points.iso[i] ?? '',
    tier: points.tier[i] ?? null,
    people: points.people[i] ?? 0,
  }));
}

/** What a cluster adds up: its most severe tier's rank (0 = Critical) and its people. */
export interface ClusterSums {
  rank: number;
  people: number;
}

export type SiteCluster = ClusterFeature<ClusterSums>;
export type SiteFeature = PointFeature<SitePoint>;

/** Clusters merge what lies within this many pixels (supercluster's tile size is 256, as Leaflet's). */
const CLUSTER_RADIUS_PX = 56;
const NO_TIER_RANK = KNOWN_TIERS.length;

/** 0 for Critical … 3 for Low, 4 for no current data or a label this dashboard does not know. */
export function tierRank(tier: string | null): number {
  if (tier === null) return NO_TIER_RANK;
  const index = (KNOWN_TIERS as readonly string[]).indexOf(tier);
  return index === -1 ? NO_TIER_RANK : index;
}

export function rankTier(rank: number): string | null {
  return KNOWN_TIERS[rank] ?? null;
}

/**
 * The sites' spatial index. Clusters are made up to the map's own largest zoom, so what is
 * drawn stays bounded by the map's size, not the number of sites: sites at one place (or a few
 * metres apart) stay a cluster even fully zoomed in, and open as a list there.
 */
export function buildSiteIndex(
  places: readonly SitePlace[],
  mapMaxZoom: number,
): Supercluster<SitePoint, ClusterSums> {
  const index = new Supercluster<SitePoint, ClusterSums>({
    radius: CLUSTER_RADIUS_PX,
    maxZoom: mapMaxZoom,
    map: (site) => ({ rank: tierRank(site.tier), people: site.people }),
    reduce: (sums, other) => {
      sums.rank = Math.min(sums.rank, other.rank);
      sums.people += other.people;
    },
  });
  return index.load(
    places.map(({ lat, lng, ...point }): SiteFeature => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lng, lat] },
      properties: point,
    })),
  );
}

export function isCluster(feature: SiteCluster | SiteFeature): feature is SiteCluster {
  return 'cluster' in feature.properties && feature.properties.cluster === true;
}

/** A stable key for a drawn feature (cluster ids and site ids never collide: prefixed). */
export function featureKey(feature: SiteCluster | SiteFeature): string {
  return isCluster(feature) ? `c${feature.properties.cluster_id}` : `s${feature.properties.id}`;
}
