import type { LatLngTuple } from 'leaflet';
import { useMemo, useState } from 'react';
import { Marker, Polyline, Tooltip, useMap, useMapEvents } from 'react-leaflet';
import type { Hotspot } from '../../../../shared/schemas/hotspot';
import { isKnownTier } from '../../../../shared/tiers';
import { displayName } from '../../../lib/display-name';
import { formatScore, formatSigned } from '../../../lib/format';
import { useTierScale } from '../../../lib/tier-scale';
import { headlineChangeText } from '../../../lib/headline-change-text';
import { hotspotIcon } from '../utils/marker-icon';
import { markerSize } from '../../../../shared/world-view';
import { spreadDiscs } from '../utils/spread-markers';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

export type PlacedHotspot = Hotspot & { lat: number; lng: number };

/** A marker the spreading moved less than this (in px) stays on its place. */
const UNMOVED_PX = 0.5;

/**
 * The hotspot markers, fanned out where they would overlap at the current zoom (Israel under
 * Palestine, Sudan under South Sudan on a phone), so each marker's centre opens its own country.
 * A thin line joins a moved marker to its true place. Positions are recomputed on zoom only:
 * panning keeps pixel distances.
 */
export function HotspotMarkers({
  markers,
  recorded = null,
  scale,
  onSelectCountry,
}: {
  /** Lowest risk first: later markers are drawn on top. */
  markers: readonly PlacedHotspot[];
  /** Each country's risk change since the batch recorded before (issue 33), by code. */
  recorded?: ReadonlyMap<string, number> | null;
  scale: number;
  onSelectCountry: (iso: string) => void;
}) {
  const map = useMap();
  const [zoom, setZoom] = useState(() => map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });

  // One icon per marker for as long as its data is unchanged: a new icon replaces the marker's
  // element, which would drop keyboard focus on every re-render.
  const tiers = useTierScale(markers.some((h) => Boolean(h.tier) && !isKnownTier(h.tier ?? '')));
  const icons = useMemo(
    () =>
      new Map(
        markers.map((h) => [
          h.iso,
          hotspotIcon({ ...h, name: displayName(h.iso, h.name) }, scale, tiers),
        ]),
      ),
    [markers, scale, tiers],
  );
  const positions = useMemo(() => {
    const discs = markers.map((h) => {
      const point = map.project([h.lat, h.lng], zoom);
      return { x: point.x, y: point.y, r: markerSize(h.risk, scale) / 2 };
    });
    return spreadDiscs(discs).map((p, i): LatLngTuple | null => {
      // Left in place: its own coordinates, not the projection's round trip, which differs in
      // the last digits and drew a leader line of no length under every marker.
      if (Math.hypot(p.x - discs[i]!.x, p.y - discs[i]!.y) < UNMOVED_PX) return null;
      const latLng = map.unproject([p.x, p.y], zoom);
      return [latLng.lat, latLng.lng];
    });
  }, [map, markers, scale, zoom]);

  return (
    <>
      {markers.map((h, i) => {
        const at = positions[i];
        return at ? (
          <Polyline
            key={`leader-${h.iso}`}
            positions={[[h.lat, h.lng], at]}
            className="marker-leader"
            interactive={false}
            weight={1}
          />
        ) : null;
      })}
      {markers.map((h, i) => (
        <Marker
          key={h.iso}
          position={positions[i] ?? [h.lat, h.lng]}
          icon={icons.get(h.iso) ?? hotspotIcon({ ...h, name: displayName(h.iso, h.name) }, scale)}
          zIndexOffset={Math.round((h.risk ?? 0) * 10)}
          eventHandlers={{
            click: () => onSelectCountry(h.iso),
            // Leaflet makes the marker a focusable role="button" but does not activate it from
            // the keyboard (only popups handle Enter): do what a button does on Enter/Space.
            keydown: (event) => {
              const key = (event.originalEvent as KeyboardEvent).key;
              if (key === 'Enter' || key === ' ') {
                event.originalEvent.preventDefault();
                onSelectCountry(h.iso);
              }
            },
          }}
        >
          <Tooltip direction="top">
            <strong>{displayName(h.iso, h.name)}</strong>
            <br />
            {t('map.riskTier', {
              risk: formatScore(h.risk),
              tier: h.tier ? tierWord(h.tier) : t('map.tierNa'),
            })}
            <br />
            {headlineChangeText(h.delta_headline, recorded?.get(h.iso.toUpperCase()) ?? null) ??
              t('map.changeNa')}
            <br />
            {t('map.activeProvider', { delta: formatSigned(h.delta_active) })}
          </Tooltip>
        </Marker>
      ))}
    </>
  );
}
