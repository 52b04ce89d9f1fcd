import 'leaflet/dist/leaflet.css';
import { useQuery } from '@tanstack/react-query';
import {
  geoJSON,
  latLng,
  type LatLngBounds,
  type LatLngBoundsExpression,
  type LatLngExpression,
} from 'leaflet';
import { useMemo } from 'react';
import { CircleMarker, GeoJSON, MapContainer } from 'react-leaflet';
import { useTierTone } from '../../../lib/tier-scale';
import { Skeleton } from '../../../components/skeleton';
import { shapeQueries } from '../api/shape-queries';
import type { CountryShape } from '../utils/world-shapes';
import { FitForPrint } from './fit-for-print';
import { t } from '../../../lib/i18n';

const NO_POINTS: readonly LatLngExpression[] = [];

/**
 * A small map on the country page: where the country is, highlighted in its tier colour among
 * its neighbours. Orientation only: a static picture (role="img"), with nothing to focus.
 */
export function CountryLocatorMap({
  iso,
  name,
  lat,
  lng,
  tier,
}: {
  iso: string;
  name: string;
  lat: number | null | undefined;
  lng: number | null | undefined;
  tier: string | null | undefined;
}) {
  const shapes = useQuery(shapeQueries.world());
  const own = useMemo(
    () => shapes.data?.features.find((f) => f.properties.iso3 === iso.toUpperCase()),
    [shapes.data, iso],
  );
  const fill = useTierTone(tier).fill;
  // On paper the map is the narrow column's size: the screen's view was cut at its right edge.
  const printHome = useMemo<LatLngBounds | null>(() => {
    if (own) return geoJSON(own).getBounds().pad(0.6);
    if (typeof lat === 'number' && typeof lng === 'number')
      return latLng(lat, lng).toBounds(1_500_000);
    return null;
  }, [own, lat, lng]);

  if (shapes.isPending) return <Skeleton label={t('panels.loadingMap')} height={220} />;

  const hasPoint = typeof lat === 'number' && typeof lng === 'number';
  let view: { bounds: LatLngBoundsExpression } | { center: LatLngExpression; zoom: number } | null =
    null;
  if (own) view = { bounds: geoJSON(own).getBounds().pad(0.6) };
  else if (hasPoint) view = { center: [lat, lng], zoom: 4 };
  if (!view || !shapes.data) {
    return <p className="muted">{t('map.locationMissing', { name })}</p>;
  }

  return (
    <div className="locator-map" aria-label={t('map.locatorLabel', { name })} role="img">
      <MapContainer
        className="map-canvas map-small"
        {...view}
        maxZoom={6}
        zoomSnap={0.25}
        scrollWheelZoom={false}
        dragging={false}
        keyboard={false}
        zoomControl={false}
        doubleClickZoom={false}
        touchZoom={false}
        boxZoom={false}
        attributionControl={false}
      >
        <GeoJSON
          key={iso}
          data={shapes.data}
          interactive={false}
          style={(feature) =>
            (feature as CountryShape | undefined)?.properties.iso3 === iso.toUpperCase()
              ? { className: 'shape shape-own', fillColor: fill, fillOpacity: 1, weight: 1.5 }
              : { className: 'shape shape-context', weight: 0.5, fillOpacity: 1 }
          }
        />
        {!own && hasPoint ? (
          <CircleMarker
            center={[lat, lng]}
            radius={7}
            interactive={false}
            pathOptions={{ fillColor: fill, fillOpacity: 1, weight: 2 }}
            className="shape shape-own"
          />
        ) : null}
        {printHome ? (
          <FitForPrint home={printHome} points={NO_POINTS} sizeClass="map-print-size-column" />
        ) : null}
      </MapContainer>
    </div>
  );
}
