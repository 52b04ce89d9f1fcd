import 'leaflet/dist/leaflet.css';
import { useQuery } from '@tanstack/react-query';
import type { LatLngBoundsExpression, Layer, Path } from 'leaflet';
import { useEffect, useMemo } from 'react';
import { GeoJSON, MapContainer, TileLayer } from 'react-leaflet';
import type { CountrySummary, StatusResponse } from '../../../../shared/bff-api';
import type { Hotspot } from '../../../../shared/schemas/hotspot';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import { useMediaQuery } from '../../../lib/use-media-query';
import { shapeQueries } from '../api/shape-queries';
import { pendingShapeStyle, shapeStyle, shapeTooltip } from '../utils/choropleth';
import type { CountryShape } from '../utils/world-shapes';
import { HatchPattern } from './hatch-pattern';
import { HotspotMarkers, type PlacedHotspot } from './hotspot-markers';
import { MapLegend } from './map-legend';
import { MapViewControls } from './map-view-controls';
import { plainAttribution } from '../utils/attribution';

/**
 * The first view: the inhabited world (Cape Horn to northern Scandinavia, Alaska to New
 * Zealand), so countries are as large as a wide, short panel allows. Panning reaches the rest.
 */
const WORLD_BOUNDS: LatLngBoundsExpression = [
  [-50, -135],
  [72, 170],
];
/** Panning stops at the world's edges (one copy, Mercator's usable latitudes). */
const MAX_BOUNDS: LatLngBoundsExpression = [
  [-80, -200],
  [85, 200],
];

/**
 * Sets the map's perf mark once its shapes, coloured by the data, are on screen. It renders
 * inside the map after the layers: MapContainer renders its children only once Leaflet's map
 * exists (a second render), and react-leaflet adds each layer in an effect, which runs before
 * this one (effects run in order). An effect of WorldMap itself runs before all of that.
 */
function MapDrawnMark({ drawn }: { drawn: boolean }) {
  useEffect(() => {
    if (drawn) markOnceAfterPaint(PERF_MARKS.mapDrawn);
  }, [drawn]);
  return null;
}

export function WorldMap({
  countries,
  hotspots,
  tiles,
  dataVersion,
  countriesLoading = false,
  onSelectCountry,
}: {
  countries: readonly CountrySummary[] | undefined;
  hotspots: readonly Hotspot[] | undefined;
  tiles: StatusResponse['tiles'] | undefined;
  /** Changes when the data does (e.g. `as_of`), to rebind shape tooltips. */
  dataVersion: string;
  /** The batch is still loading: shapes are drawn plain, not as "no current data". */
  countriesLoading?: boolean;
  onSelectCountry: (iso: string) => void;
}) {
  const shapes = useQuery(shapeQueries.world());
  const byIso = useMemo(
    () => new Map((countries ?? []).map((c) => [c.iso.toUpperCase(), c])),
    [countries],
  );
  const markers = useMemo(
    () =>
      (hotspots ?? [])
        .filter((h): h is PlacedHotspot => typeof h.lat === 'number' && typeof h.lng === 'number')
        .sort((a, b) => (a.risk ?? 0) - (b.risk ?? 0)),
    [hotspots],
  );
  const compact = useMediaQuery('(max-width: 600px)');
  const scale = compact ? 0.65 : 1;
  // On touch screens one finger scrolls the page (a map that pans under a swipe traps it);
  // two fingers move and zoom the map (Leaflet's pinch handler pans as the fingers move).
  const touch = useMediaQuery('(pointer: coarse)');
  const legendTiers = useMemo(
    () => [...(countries ?? []), ...(hotspots ?? [])].flatMap((c) => (c.tier ? [c.tier] : [])),
    [countries, hotspots],
  );
  const withTiles = Boolean(tiles);
  const pending = countries === undefined && countriesLoading;
  const drawn = Boolean(shapes.data) && byIso.size > 0;

  if (shapes.isPending) return <Skeleton label="Loading the map" height={420} />;
  if (shapes.isError) {
    return <QueryError what="The map" error={shapes.error} onRetry={() => void shapes.refetch()} />;
  }

  const bindFeature = (feature: CountryShape, layer: Layer) => {
    const iso = feature.properties.iso3;
    const row = iso ? byIso.get(iso) : undefined;
    layer.bindTooltip(() => shapeTooltip(feature.properties.name, row, pending), {
      sticky: true,
    });
    if (row) layer.on('click', () => onSelectCountry(row.iso));
    // Chromium makes interactive SVG paths Tab stops: 176 unnamed stops on which Enter does
    // nothing. The markers and the table are the keyboard's way to a country.
    layer.on('add', () => (layer as Path).getElement()?.setAttribute('tabindex', '-1'));
  };

  return (
    <div className="world-map">
      <HatchPattern />
      <MapContainer
        id="world-map"
        className="map-canvas"
        bounds={WORLD_BOUNDS}
        zoomSnap={0.25}
        minZoom={0}
        maxZoom={withTiles ? 10 : 6}
        worldCopyJump={false}
        scrollWheelZoom={false}
        dragging={!touch}
        maxBounds={MAX_BOUNDS}
        maxBoundsViscosity={1}
      >
        <MapViewControls home={WORLD_BOUNDS} />
        {tiles ? (
          <TileLayer url={tiles.url} attribution={plainAttribution(tiles.attribution)} />
        ) : null}
        <GeoJSON
          key={`${dataVersion}:${byIso.size}:${withTiles}:${pending}`}
          data={shapes.data}
          attribution="Shapes: Natural Earth"
          style={(feature) => {
            if (pending) return pendingShapeStyle(withTiles);
            const iso = (feature as CountryShape | undefined)?.properties.iso3;
            return shapeStyle(iso ? byIso.get(iso) : undefined, withTiles);
          }}
          onEachFeature={(feature, layer) => bindFeature(feature as CountryShape, layer)}
        />
        <HotspotMarkers markers={markers} scale={scale} onSelectCountry={onSelectCountry} />
        <MapDrawnMark drawn={drawn} />
      </MapContainer>
      {touch ? <p className="muted map-hint">Move or zoom the map with two fingers.</p> : null}
      {pending ? (
        <p className="muted" role="status">
          Loading the risk data for the map…
        </p>
      ) : (
        <MapLegend tiers={legendTiers} showMarkers={markers.length > 0} />
      )}
    </div>
  );
}
