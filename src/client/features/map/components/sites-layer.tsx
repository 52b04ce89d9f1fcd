import { useQuery } from '@tanstack/react-query';
import type { LeafletKeyboardEvent, Map as LeafletMap } from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Marker, Popup, useMap, useMapEvents } from 'react-leaflet';
import { Link } from '../../../lib/app-link';
import { formatInteger } from '../../../lib/format';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import { sitePointQueries } from '../api/site-points-queries';
import {
  buildSiteIndex,
  featureKey,
  isCluster,
  placesOf,
  type SiteCluster,
  type SiteFeature,
  type SitePoint,
} from '../utils/site-clusters';
import { clusterIcon, siteIcon } from '../utils/site-icon';
import { t } from '../../../lib/i18n';

/** The most sites a cluster's list shows when zooming in cannot part them. */
const LIST_MAX = 50;

type Drawn = SiteCluster | SiteFeature;

const focusOnMount = (element: HTMLElement | null) => element?.focus();
type SiteIndex = ReturnType<typeof buildSiteIndex>;

/** The clusters and sites in the map's view (padded a little), and what identifies that set. */
function drawnIn(index: SiteIndex | null, map: LeafletMap) {
  if (!index) return { index, signature: '', features: [] as Drawn[] };
  const padded = map.getBounds().pad(0.1);
  const features = index.getClusters(
    [
      Math.max(-180, padded.getWest()),
      Math.max(-85, padded.getSouth()),
      Math.min(180, padded.getEast()),
      Math.min(85, padded.getNorth()),
    ],
    Math.floor(map.getZoom()),
  );
  const signature = features
    .map((f) => (isCluster(f) ? `${featureKey(f)}:${f.properties.point_count}` : featureKey(f)))
    .join(',');
  return { index, signature, features };
}

/** Enter or Space on a Leaflet marker (a role="button" element) does what a click does. */
function activates(event: LeafletKeyboardEvent): boolean {
  const key = event.originalEvent.key;
  if (key !== 'Enter' && key !== ' ') return false;
  event.originalEvent.preventDefault();
  return true;
}

/**
 * Our sites over the hotspots, clustered: only the clusters and sites in view are drawn, and
 * they are recomputed when a move or zoom ends, so 20,000 sites cost the map what a few hundred
 * markers do. A cluster zooms in on click or Enter (focus moves to what it parted into); one
 * that zooming cannot part (sites at one place) lists its sites instead.
 */
export function SitesLayer({ onSelectSite }: { onSelectSite: (id: number) => void }) {
  const map = useMap();
  // The compact points (`/api/sites/points`), not `/api/sites`' pages: about a seventh of the
  // bytes for 20,000 sites (docs/benchmarks.md, section 9b).
  const query = useQuery(sitePointQueries.points());
  const sites = query.data?.points;
  const index = useMemo(
    () => (sites ? buildSiteIndex(placesOf(sites), map.getMaxZoom()) : null),
    [sites, map],
  );
  useReceivedMark(sites);
  const shown = useDrawn(index, map);
  const drawn = shown.features;
  const icons = useMemo(() => iconsOf(drawn), [drawn]);

  const [listed, setListed] = useState<Listed | null>(null);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (drawn.length > 0) markOnceAfterPaint(PERF_MARKS.sitesDrawn);
    const key = focusNext.current;
    if (key === null) return;
    const element = map
      .getContainer()
      .querySelector<HTMLElement>(`[data-site-key="${CSS.escape(key)}"]`);
    if (element) {
      focusNext.current = null;
      element.focus();
    }
  }, [drawn, map]);

  const expand = (cluster: SiteCluster) => {
    if (!index) return;
    const id = cluster.properties.cluster_id;
    const [lng, lat] = cluster.geometry.coordinates as [number, number];
    const zoom = index.getClusterExpansionZoom(id);
    if (zoom > map.getMaxZoom()) {
      setListed({
        at: [lat, lng],
        count: cluster.properties.point_count,
        sites: index.getLeaves(id, LIST_MAX).map((l) => l.properties),
      });
      return;
    }
    const first = index.getChildren(id)[0];
    focusNext.current = first ? featureKey(first) : null;
    map.setView([lat, lng], zoom);
  };

  return (
    <>
      {drawn.map((feature) => {
        const key = featureKey(feature);
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        const open = isCluster(feature)
          ? () => expand(feature)
          : () => onSelectSite(feature.properties.id);
        return (
          <Marker
            key={key}
            position={[lat, lng]}
            icon={icons.get(key)}
            zIndexOffset={isCluster(feature) ? 2000 : 1000}
            eventHandlers={{
              click: open,
              keydown: (event) => {
                if (activates(event)) open();
              },
            }}
          />
        );
      })}
      {listed ? <SitesAtOnePlace listed={listed} onClose={() => setListed(null)} /> : null}
    </>
  );
}

interface Listed {
  at: [number, number];
  count: number;
  sites: SitePoint[];
}

/** Marks when the sites first arrived (the browser bench reads it). */
function useReceivedMark(sites: unknown): void {
  useEffect(() => {
    if (
      sites &&
      typeof performance !== 'undefined' &&
      performance.getEntriesByName(PERF_MARKS.sitesReceived).length === 0
    ) {
      performance.mark(PERF_MARKS.sitesReceived);
    }
  }, [sites]);
}

function useDrawn(index: ReturnType<typeof buildSiteIndex> | null, map: LeafletMap) {
  // What is drawn changes only when the set of clusters and sites in view does: a zoom ends in
  // two events (zoomend, moveend), and redrawing the same markers would replace their elements
  // and drop keyboard focus.
  const [shown, setShown] = useState(() => drawnIn(index, map));
  if (shown.index !== index) setShown(drawnIn(index, map));
  const update = () => {
    const next = drawnIn(index, map);
    setShown((current) =>
      current.index === next.index && current.signature === next.signature ? current : next,
    );
  };
  useMapEvents({ moveend: update, zoomend: update });
  return shown;
}

function iconsOf(drawn: ReturnType<typeof drawnIn>['features']) {
  return new Map(
    drawn.map((f) => {
      const key = featureKey(f);
      return [
        key,
        isCluster(f)
          ? clusterIcon(key, f.properties.point_count, f.properties.rank, f.properties.people)
          : siteIcon(key, f.properties),
      ];
    }),
  );
}

/** The sites of a cluster that zooming cannot part, listed as links. */
function SitesAtOnePlace({ listed, onClose }: { listed: Listed; onClose: () => void }) {
  return (
    <Popup position={listed.at} eventHandlers={{ remove: onClose }}>
      <p className="site-list-head">
        {t('map.atOnePlace', { count: listed.count, shown: formatInteger(listed.count) })}
        {listed.count > listed.sites.length
          ? t('map.theFirst', { shown: formatInteger(listed.sites.length) })
          : ''}
      </p>
      <ul className="site-list">
        {listed.sites.map((site, i) => (
          <li key={site.id}>
            {/* The list takes the focus as it appears (its content is rendered a frame or two
                    after the popup opens), as a zoom gives it to what a cluster parted into. */}
            <Link to={`/sites/${site.id}`} ref={i === 0 ? focusOnMount : undefined} translate="no">
              {site.name}
            </Link>
          </li>
        ))}
      </ul>
    </Popup>
  );
}
