import 'leaflet/dist/leaflet.css';
import { useQuery } from '@tanstack/react-query';
import {
  latLngBounds,
  type LatLngBoundsExpression,
  type LatLngBoundsLiteral,
  type Layer,
  type Path,
  type PathOptions,
  setOptions,
} from 'leaflet';
import {
  memo,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
  type RefObject,
} from 'react';
import { GeoJSON, MapContainer, TileLayer, useMap, useMapEvent, ZoomControl } from 'react-leaflet';
import type { CountrySummary, StatusResponse } from '../../../../shared/bff-api';
import type { Hotspot } from '../../../../shared/schemas/hotspot';
import { isKnownTier } from '../../../../shared/tiers';
import { QueryError } from '../../../components/query-error';
import { Skeleton } from '../../../components/skeleton';
import { markOnceAfterPaint, PERF_MARKS } from '../../../lib/perf-marks';
import { useTierScale } from '../../../lib/tier-scale';
import { useMediaQuery } from '../../../lib/use-media-query';
import { shapeQueries } from '../api/shape-queries';
import { sitesLayerChunk } from '../api/sites-layer-chunk';
import { withSitesShown } from '../utils/sites-param';
import { pendingShapeStyle, shapeStyle, shapeTooltip } from '../utils/choropleth';
import type { CountryShape, WorldShapes } from '../utils/world-shapes';
import { FitForPrint } from './fit-for-print';
import { FollowBoxSize, type HeldView } from './follow-box-size';
import { HatchPattern } from './hatch-pattern';
import { HotspotMarkers, type PlacedHotspot } from './hotspot-markers';
import { MapLegend } from './map-legend';
import { MapViewControls } from './map-view-controls';
import { plainAttribution } from '../utils/attribution';
import { useLatest } from '../../../lib/use-latest';
import { useStagedSteps } from '../../../lib/use-staged-steps';
import { formatMapView, MAP_PARAM, parseMapView } from '../utils/map-view-param';
import type { ParamsWriter } from '../../../lib/url-writer';
import type { MapUrl } from '../hooks/use-map-url';
import { t } from '../../../lib/i18n';
import { PHONE_MAP_MAX_WIDTH, PHONE_MARKER_SCALE, WORLD_VIEW } from '../../../../shared/world-view';

/** The first view, the static map's in the server's first frame too (shared/world-view.ts). */
const WORLD_BOUNDS: LatLngBoundsLiteral = WORLD_VIEW;
const WORLD = latLngBounds(WORLD_BOUNDS);
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

/**
 * Keeps `?map=` in step with the view after each move a person made (replacing the history
 * entry: a pan is not a page to go back to). Moves the page makes (the first fit, a resize as
 * panels load) leave the URL alone: `touched` says whether a hand has been on the map since the
 * first view, and "Reset view" clears it with the parameter.
 */
function MapViewInUrl({
  touched,
  setParams,
}: {
  touched: RefObject<boolean>;
  setParams: ParamsWriter;
}) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const touch = () => {
      touched.current = true;
    };
    const events = ['pointerdown', 'wheel', 'keydown'] as const;
    for (const name of events) container.addEventListener(name, touch);
    return () => {
      for (const name of events) container.removeEventListener(name, touch);
    };
  }, [map, touched]);
  useMapEvent('moveend', () => {
    if (!touched.current) return;
    const centre = map.getCenter();
    const view = formatMapView({ lat: centre.lat, lng: centre.lng, zoom: map.getZoom() });
    void setParams((current) => {
      if (current.get(MAP_PARAM) === view) return null;
      const updated = new URLSearchParams(current);
      updated.set(MAP_PARAM, view);
      return updated;
    });
  });
  return null;
}

/**
 * Every prop is a value or a function that stays the same while it means the same (the page's
 * navigation callbacks, the URL writer): WorldMap is memoised, so it is drawn again only when
 * what it shows changes, not on every render of the overview (issue 32, point 7).
 */
interface WorldMapProps extends MapUrl {
  countries: readonly CountrySummary[] | undefined;
  hotspots: readonly Hotspot[] | undefined;
  tiles: StatusResponse['tiles'] | undefined;
  /** Changes when the data does (e.g. `as_of`), to rebind shape tooltips. */
  dataVersion: string;
  /** Each country's risk change since the batch recorded before (issue 33), by code. */
  recorded: ReadonlyMap<string, number> | null;
  /** The batch is still loading: shapes are drawn plain, not as "no current data". */
  countriesLoading?: boolean;
  onSelectCountry: (iso: string) => void;
  /** Our sites can be shown (the BFF keeps them): offers the layer's switch. */
  sitesAvailable?: boolean;
  onSelectSite?: (id: number) => void;
}

export const WorldMap = memo(function WorldMap({
  countries,
  hotspots,
  tiles,
  dataVersion,
  recorded,
  countriesLoading = false,
  onSelectCountry,
  sitesAvailable = false,
  onSelectSite,
  ...url
}: WorldMapProps) {
  const shapes = useQuery(shapeQueries.world());
  const shapeGroups = useShapeGroups(shapes.data);
  const sites = useSitesLayer(sitesAvailable && url.sitesShown, url.setParams);
  const SitesLayer = sites.layer;
  const view = useLinkedView(url, Boolean(tiles));
  const { byIso, markers, markerPoints, legendTiers } = useMapRows(countries, hotspots);
  const scale = useMediaQuery(`(max-width: ${PHONE_MAP_MAX_WIDTH}px)`) ? PHONE_MARKER_SCALE : 1;
  const touch = useMediaQuery('(pointer: coarse)');
  const tierScale = useTierScale(legendTiers.some((tier) => !isKnownTier(tier)));
  const withTiles = Boolean(tiles);
  const pending = countries === undefined && countriesLoading;
  const drawn = Boolean(shapes.data) && byIso.size > 0;
  // Read by the shapes' tooltips when they open: the recorded changes arrive after the shapes
  // are drawn, and redrawing 176 shapes for a tooltip's line cost a second render of the map.
  const recordedNow = useLatest(recorded);

  if (shapes.isPending) return <Skeleton label={t('panels.loadingMap')} height={420} />;
  if (shapes.isError) {
    return (
      <QueryError
        what={t('panels.map')}
        error={shapes.error}
        onRetry={() => void shapes.refetch()}
      />
    );
  }

  return (
    <div className="world-map">
      {sitesAvailable ? (
        <SitesToggle shown={sites.shown} loading={sites.loading} onToggle={sites.toggle} />
      ) : null}
      <HatchPattern />
      <MapCanvas
        options={canvasOptions(view.linkedView, withTiles, touch)}
        controls={
          <MapControls view={view} setParams={url.setParams} points={markerPoints} tiles={tiles} />
        }
        shapes={shapeGroups.map((group, i) => (
          <CountryShapesLayer
            key={`${dataVersion}:${byIso.size}:${withTiles}:${pending}:${tierScale.learned.join()}:${i}`}
            data={group}
            style={(iso) =>
              pending
                ? pendingShapeStyle(withTiles)
                : shapeStyle(iso ? byIso.get(iso) : undefined, withTiles, tierScale)
            }
            bind={featureBinder(byIso, recordedNow, pending, onSelectCountry)}
          />
        ))}
        markers={
          <>
            <HotspotMarkers
              markers={markers}
              recorded={recorded}
              scale={scale}
              onSelectCountry={onSelectCountry}
            />
            {SitesLayer && onSelectSite ? <SitesLayer onSelectSite={onSelectSite} /> : null}
            <MapDrawnMark drawn={drawn} />
          </>
        }
      />
      <MapFooter
        touch={touch}
        pending={pending}
        tiers={legendTiers}
        showMarkers={markers.length > 0}
        showSites={Boolean(SitesLayer)}
      />
    </div>
  );
});

/** The map's controls and credits, and what keeps its view (the URL, the box, printing). */
function MapControls({
  view,
  setParams,
  points,
  tiles,
}: {
  view: ReturnType<typeof useLinkedView>;
  setParams: ParamsWriter;
  points: readonly [number, number][];
  tiles: StatusResponse['tiles'] | undefined;
}) {
  return (
    <>
      {/* Leaflet's own zoom buttons name themselves in English: named here in the page's. */}
      <ZoomControl zoomInTitle={t('map.zoomIn')} zoomOutTitle={t('map.zoomOut')} />
      <MapViewControls home={WORLD_BOUNDS} onReset={view.forgetView} />
      <MapViewInUrl touched={view.touched} setParams={setParams} />
      <FollowBoxSize held={view.held} />
      <SnapZoomAfterFirstView />
      <FitForPrint home={WORLD} points={points} />
      {tiles ? (
        <TileLayer url={tiles.url} attribution={plainAttribution(tiles.attribution)} />
      ) : null}
      <ShapesAttribution text={t('map.attribution')} />
    </>
  );
}

/**
 * The shapes in groups of about equal size, each added to the map in a step of its own: 44
 * shapes take Leaflet 10–40 ms on the bench machine without throttling (the first group also
 * sets up the map's SVG), the 176 at once took 75–140 ms.
 */
const SHAPE_GROUPS = 4;

function useShapeGroups(data: WorldShapes | undefined): WorldShapes[] {
  return useMemo(() => {
    if (!data) return [];
    const size = Math.ceil(data.features.length / SHAPE_GROUPS);
    return Array.from({ length: SHAPE_GROUPS }, (_, i) => ({
      ...data,
      features: data.features.slice(i * size, (i + 1) * size),
    }));
  }, [data]);
}

/**
 * Leaflet's map, drawn in steps, each committed in a task of its own (useStagedSteps): the map
 * with its controls, each group of shapes, then the markers; the map's box until the first.
 * Drawn at once, they were the longest task of the overview's load on a phone, together with
 * the rest of the page's first commit (docs/benchmarks.md).
 */
function MapCanvas({
  options,
  controls,
  shapes,
  markers,
}: {
  options: Partial<ComponentProps<typeof MapContainer>>;
  controls: ReactNode;
  shapes: readonly ReactNode[];
  markers: ReactNode;
}) {
  const step = useStagedSteps(shapes.length + 2);
  if (step < 1) return <div className="map-canvas" />;
  return (
    <MapContainer id="world-map" className="map-canvas" {...options}>
      {controls}
      {shapes.slice(0, step - 1)}
      {step >= shapes.length + 2 ? markers : null}
    </MapContainer>
  );
}

/** The "Show our sites" layer: whether the URL shows it, its lazily loaded chunk, the switch. */
function useSitesLayer(shown: boolean, setParams: ParamsWriter) {
  const chunk = useQuery({ ...sitesLayerChunk(), enabled: shown });
  const toggle = (next: boolean) =>
    // flushSync: the checkbox is controlled by the URL, so it must change within the event.
    void setParams((current) => withSitesShown(current, next), { flushSync: true });
  return {
    shown,
    loading: shown && chunk.isPending,
    layer: shown ? chunk.data : undefined,
    toggle,
  };
}

function SitesToggle({
  shown,
  loading,
  onToggle,
}: {
  shown: boolean;
  loading: boolean;
  onToggle: (shown: boolean) => void;
}) {
  return (
    <label className="sites-toggle no-print">
      <input type="checkbox" checked={shown} onChange={(event) => onToggle(event.target.checked)} />
      {t('overview.showSites')}
      {loading ? (
        <span className="muted" role="status">
          {' '}
          {t('shell.loading')}
        </span>
      ) : null}
    </label>
  );
}

/** The rows by code, the markers (lowest risk first) and the tiers the legend lists. */
function useMapRows(
  countries: readonly CountrySummary[] | undefined,
  hotspots: readonly Hotspot[] | undefined,
) {
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
  const markerPoints = useMemo(
    () => markers.map((m) => [m.lat, m.lng] as [number, number]),
    [markers],
  );
  const legendTiers = useMemo(
    () => [...(countries ?? []), ...(hotspots ?? [])].flatMap((c) => (c.tier ? [c.tier] : [])),
    [countries, hotspots],
  );
  return { byIso, markers, markerPoints, legendTiers };
}

/**
 * The view a shared link carries (`?map=`), read once: afterwards the map owns its view and
 * writes it back (MapViewInUrl); "Reset view" forgets it. Until a hand is on the map, the map
 * holds it while the page's layout settles (`held`, for FollowBoxSize).
 */
function useLinkedView({ linkedView: raw, setParams }: MapUrl, withTiles: boolean) {
  const [linkedView] = useState(() => parseMapView(raw, withTiles ? 10 : 6));
  const touched = useRef(false);
  const linked = useRef(linkedView);
  const forgetView = () => {
    touched.current = false;
    linked.current = null;
    void setParams((current) => {
      const updated = new URLSearchParams(current);
      updated.delete(MAP_PARAM);
      return updated;
    });
  };
  const held = (): HeldView | null =>
    linked.current && !touched.current
      ? { center: [linked.current.lat, linked.current.lng], zoom: linked.current.zoom }
      : null;
  return { linkedView, touched, forgetView, held };
}

/** Each country shape's tooltip (with the headline change of issue 33) and click. */
function featureBinder(
  byIso: ReadonlyMap<string, CountrySummary>,
  recorded: RefObject<ReadonlyMap<string, number> | null>,
  pending: boolean,
  onSelectCountry: (iso: string) => void,
) {
  return (feature: CountryShape, layer: Layer) => {
    const iso = feature.properties.iso3;
    const row = iso ? byIso.get(iso) : undefined;
    const delta = iso ? (recorded.current?.get(iso) ?? null) : null;
    layer.bindTooltip(() => shapeTooltip(feature.properties.name, row, pending, delta), {
      sticky: true,
    });
    if (row) layer.on('click', () => onSelectCountry(row.iso));
    // Chromium makes interactive SVG paths Tab stops: 176 unnamed stops on which Enter does
    // nothing. The markers and the table are the keyboard's way to a country.
    layer.on('add', () => (layer as Path).getElement()?.setAttribute('tabindex', '-1'));
  };
}

/**
 * The shapes' credit, written once on the map's attribution line. Not an option of the GeoJSON
 * layer: it hands its options to each of its ~176 shapes, and Leaflet rewrote the line (its
 * innerHTML) once per shape added, about 70 ms of the overview's first render.
 */
function ShapesAttribution({ text }: { text: string }) {
  const map = useMap();
  useEffect(() => {
    const control = map.attributionControl;
    control?.addAttribution(text);
    return () => {
      control?.removeAttribution(text);
    };
  }, [map, text]);
  return null;
}

/** The country shapes, drawn once per `key` (their tooltips are bound as they are added). */
function CountryShapesLayer({
  data,
  style,
  bind,
}: {
  data: ComponentProps<typeof GeoJSON>['data'];
  style: (iso: string | undefined) => PathOptions;
  bind: (feature: CountryShape, layer: Layer) => void;
}) {
  return (
    <GeoJSON
      data={data}
      style={(feature) =>
        style((feature as CountryShape | undefined)?.properties.iso3 ?? undefined)
      }
      onEachFeature={(feature, layer) => bind(feature as CountryShape, layer)}
    />
  );
}

/** Under the map: the two-finger hint on touch screens, and the legend (or that data loads). */
function MapFooter({
  touch,
  pending,
  tiers,
  showMarkers,
  showSites,
}: {
  touch: boolean;
  pending: boolean;
  tiers: string[];
  showMarkers: boolean;
  showSites: boolean;
}) {
  return (
    <>
      {touch ? <p className="muted map-hint">{t('map.twoFingers')}</p> : null}
      {pending ? (
        <p className="muted" role="status">
          {t('map.loadingRisk')}
        </p>
      ) : (
        <MapLegend tiers={tiers} showMarkers={showMarkers} showSites={showSites} />
      )}
    </>
  );
}

/** Zooms after the first view snap to quarter steps (pinch, buttons, a shared link's). */
const ZOOM_SNAP = 0.25;

/**
 * The first view is set with no zoom snapping (canvasOptions): the world fills the box exactly,
 * as the static map of the server's first frame draws it (shared/world-view.ts), so the
 * hotspots stay where they were when the SPA takes over. Every zoom after it snaps again.
 */
function SnapZoomAfterFirstView() {
  const map = useMap();
  useEffect(() => {
    setOptions(map, { zoomSnap: ZOOM_SNAP });
  }, [map]);
  return null;
}

/** The map's first view (the linked one, else the world) and how far it may move and zoom. */
function canvasOptions(
  linkedView: ReturnType<typeof parseMapView>,
  withTiles: boolean,
  touch: boolean,
): Partial<ComponentProps<typeof MapContainer>> {
  return {
    ...(linkedView
      ? { center: [linkedView.lat, linkedView.lng] as [number, number], zoom: linkedView.zoom }
      : { bounds: WORLD_BOUNDS }),
    // ZOOM_SNAP once the first view is set (SnapZoomAfterFirstView).
    zoomSnap: 0,
    zoomControl: false,
    minZoom: 0,
    maxZoom: withTiles ? 10 : 6,
    worldCopyJump: false,
    scrollWheelZoom: false,
    // On touch screens one finger scrolls the page (a map that pans under a swipe traps it);
    // two fingers move and zoom the map (Leaflet's pinch handler pans as the fingers move).
    dragging: !touch,
    maxBounds: MAX_BOUNDS,
    maxBoundsViscosity: 1,
  };
}
