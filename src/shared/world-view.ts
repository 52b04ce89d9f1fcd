/**
 * The overview map's first view, shared by the interactive map (Leaflet, in the SPA) and the
 * static one in the server's first frame (issue 32), so a hotspot's dot is where its marker will
 * be when the SPA takes over: the same bounds, the same projection (Web Mercator, Leaflet's
 * default), the same sizes.
 */

/**
 * The inhabited world (Cape Horn to northern Scandinavia, Alaska to New Zealand), so countries
 * are as large as a wide, short panel allows. Panning reaches the rest. [south, west], [north, east].
 */
export const WORLD_VIEW: [[number, number], [number, number]] = [
  [-50, -135],
  [72, 170],
];

/** How far the map may be panned: one copy of the world, Mercator's usable latitudes. */
export const WORLD_LIMITS: [[number, number], [number, number]] = [
  [-80, -200],
  [85, 200],
];

/** A point of the world in Web Mercator, as a share of the world's width (0..1 from 180° W, 0..1 from the top). */
export function mercator(lat: number, lng: number): { x: number; y: number } {
  // Leaflet's own limit (SphericalMercator.MAX_LATITUDE): beyond it the projection runs away.
  const clamped = Math.max(-85.0511287798, Math.min(85.0511287798, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return {
    x: (lng + 180) / 360,
    y: 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI),
  };
}

/** WORLD_VIEW projected: its box in the units of `mercator`, and its width over its height. */
export function worldViewBox(): { x: number; y: number; width: number; height: number } {
  const [[south, west], [north, east]] = WORLD_VIEW;
  const topLeft = mercator(north, west);
  const bottomRight = mercator(south, east);
  return {
    x: topLeft.x,
    y: topLeft.y,
    width: bottomRight.x - topLeft.x,
    height: bottomRight.y - topLeft.y,
  };
}

/** How the first view moves on one axis when the box shows more than WORLD_LIMITS allow. */
export interface ViewShift {
  /** The limits' centre, in shares of WORLD_VIEW's box from its centre. */
  mid: number;
  /** The limits' edge nearer that centre (the side the view reaches first), likewise. */
  edge: number;
  /** Which side that edge is on: 1 right or bottom, -1 left or top. */
  side: 1 | -1;
}

/**
 * Where Leaflet moves the first view when the box shows more than WORLD_LIMITS allow (a wide
 * box shows more than their 400° of longitude): it pans the view back inside, and centres the
 * limits once the view is larger than they are. Per axis, with S the size of the box shown, the
 * view's centre moves from the first view's to clamp(min(0, mid), edge - side * S / 2,
 * max(0, mid)); the frame's stylesheet applies it (base.css, .first-frame-map).
 */
export function worldViewShift(): { x: ViewShift; y: ViewShift } {
  const box = worldViewBox();
  const [[south, west], [north, east]] = WORLD_LIMITS;
  const topLeft = mercator(north, west);
  const bottomRight = mercator(south, east);
  const axis = (near: number, far: number, centre: number, size: number): ViewShift => {
    const [a, b] = [(near - centre) / size, (far - centre) / size];
    return { mid: (a + b) / 2, ...(b <= -a ? { edge: b, side: 1 } : { edge: a, side: -1 }) };
  };
  return {
    x: axis(topLeft.x, bottomRight.x, box.x + box.width / 2, box.width),
    y: axis(topLeft.y, bottomRight.y, box.y + box.height / 2, box.height),
  };
}

/** Where a point falls in WORLD_VIEW's box, in percent of its width and height. */
export function placeInWorldView(lat: number, lng: number): { left: number; top: number } {
  const box = worldViewBox();
  const point = mercator(lat, lng);
  return {
    left: ((point.x - box.x) / box.width) * 100,
    top: ((point.y - box.y) / box.height) * 100,
  };
}

const MIN_MARKER = 14;
const MAX_MARKER = 34;
/** Country risk runs 0–95 in the methodology; beyond that the marker simply stays largest. */
const RISK_SCALE_MAX = 95;
/** Markers on a phone-sized map (width ≤ PHONE_MAP_MAX_WIDTH px), where full size would hide countries. */
export const PHONE_MARKER_SCALE = 0.65;
export const PHONE_MAP_MAX_WIDTH = 600;

/** A hotspot marker's diameter in px; `scale` shrinks markers on small maps. */
export function markerSize(risk: number | null | undefined, scale = 1): number {
  const share = Math.min(1, Math.max(0, (risk ?? 0) / RISK_SCALE_MAX));
  // Area, not diameter, grows with risk, so big risks do not look disproportionately bigger.
  return Math.round((MIN_MARKER + (MAX_MARKER - MIN_MARKER) * Math.sqrt(share)) * scale);
}
