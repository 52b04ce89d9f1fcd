import 'leaflet/dist/leaflet.css';
import { useQuery } from '@tanstack/react-query';
import {
  geoJSON,
  latLng,
  type LatLngBounds,
  type LatLngBoundsExpression,
  type LatLngExpression,
  type PathOptions,
} from 'leaflet';
import { useMemo, useState, type ReactNode } from 'react';
import { CircleMarker, GeoJSON, MapContainer, useMap, useMapEvent } from 'react-leaflet';
import { useTierTone } from '../../../lib/tier-scale';
import { useStagedSteps } from '../../../lib/use-staged-steps';
import { Skeleton } from '../../../components/skeleton';
import { shapeQueries } from '../api/shape-queries';
import { shapesNear } from '../utils/shapes-near';
import type { CountryShape } from '../utils/world-shapes';
import { FitForPrint } from './fit-for-print';
import { t } from '../../../lib/i18n';

const NO_POINTS: readonly LatLngExpression[] = [];

/**
 * In the map's own box while the shapes load: the server's frame has it there, and the SPA
 * taking over on a slow machine must not leave the place without its name.
 */
function LocatorLoading() {
  return (
    <div className="locator-map">
      <Skeleton label={t('panels.loadingMap')} height={220} />
    </div>
  );
}

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

  if (shapes.isPending) return <LocatorLoading />;

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
      <LocatorCanvas
        view={view}
        layers={
          <>
            <ShapesInView
              key={iso}
              features={shapes.data.features}
              style={(feature) =>
                feature.properties.iso3 === iso.toUpperCase()
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
          </>
        }
      />
    </div>
  );
}

/**
 * The small map in two steps, each committed in a task of its own (useStagedSteps): Leaflet's
 * map, then its shapes; the map's box until the first. At once, they were the country page's
 * longest task on a phone after its answers came (about 630 ms at 4x CPU, docs/benchmarks.md).
 */
function LocatorCanvas({
  view,
  layers,
}: {
  view: { bounds: LatLngBoundsExpression } | { center: LatLngExpression; zoom: number };
  layers: ReactNode;
}) {
  const step = useStagedSteps(2);
  if (step < 1) return <div className="map-canvas map-small" />;
  return (
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
      {step >= 2 ? layers : null}
    </MapContainer>
  );
}

/**
 * The shapes in the small map's view (its box padded by a tenth; on paper the view is the
 * column's, inside the screen's). The map never pans: the other 120 or so of the world's 176
 * shapes would each cost a path element, its style and its layout for nothing on screen.
 */
function ShapesInView({
  features,
  style,
}: {
  features: readonly CountryShape[];
  style: (feature: CountryShape) => PathOptions;
}) {
  const map = useMap();
  const [view, setView] = useState(() => map.getBounds().pad(0.1));
  // A phone turned sideways widens the map's box around the same centre: the shapes then in view.
  useMapEvent('resize', () => setView(map.getBounds().pad(0.1)));
  const data = useMemo(() => {
    const box = [view.getSouth(), view.getWest(), view.getNorth(), view.getEast()] as const;
    return { type: 'FeatureCollection' as const, features: shapesNear(features, box) };
  }, [view, features]);
  return (
    <GeoJSON
      key={view.toBBoxString()}
      data={data}
      interactive={false}
      style={(feature) => style(feature as CountryShape)}
    />
  );
}
