/** The URL parameter that carries the map's view, so a shared link opens the same view. */
export const MAP_PARAM = 'map';

/** A map view a link can carry: `?map=<lat>,<lng>,<zoom>` (e.g. `map=14.5,20.25,3.5`). */
export interface MapView {
  lat: number;
  lng: number;
  zoom: number;
}

const NUMBER = /^-?\d{1,3}(\.\d{1,4})?$/;

/**
 * The view a URL asks for, or null when it asks for none or for something no map can show
 * (then the first view is used, as if the parameter were absent). Zoom in the map's quarter
 * steps, from 0 to `maxZoom`.
 */
export function parseMapView(raw: string | null, maxZoom: number): MapView | null {
  if (raw === null) return null;
  const parts = raw.split(',');
  if (parts.length !== 3 || !parts.every((p) => NUMBER.test(p))) return null;
  const [lat, lng, zoom] = parts.map(Number) as [number, number, number];
  if (Math.abs(lat) > 85 || Math.abs(lng) > 200) return null;
  if (zoom < 0 || zoom > maxZoom || !Number.isInteger(zoom * 4)) return null;
  return { lat, lng, zoom };
}

/** The view as the parameter's text: two decimals of a degree are ~1 km, plenty for a link. */
export function formatMapView(view: MapView): string {
  const round = (n: number) => String(Math.round(n * 100) / 100);
  return `${round(view.lat)},${round(view.lng)},${round(view.zoom)}`;
}
