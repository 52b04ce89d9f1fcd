/**
 * User-timing marks for the moments that matter to a reader: the global index and the map on
 * screen, the hotspot table below them, and a country page's header. `npm run bench` (and anyone
 * with DevTools) reads them with `performance.getEntriesByName('grd:map-drawn')`. Each is set
 * once per page load.
 */
export const PERF_MARKS = {
  globalIndexDrawn: 'grd:global-index-drawn',
  mapDrawn: 'grd:map-drawn',
  hotspotTableDrawn: 'grd:hotspot-table-drawn',
  countryHeaderDrawn: 'grd:country-header-drawn',
  /** Our sites' list has arrived on the map, and its first frame with them drawn (issue 20). */
  sitesReceived: 'grd:sites-received',
  sitesDrawn: 'grd:sites-drawn',
} as const;

const hasMarks = () => typeof performance !== 'undefined' && typeof performance.mark === 'function';
const isMarked = (name: string) => performance.getEntriesByName(name, 'mark').length > 0;
const pending = new Set<string>();

/**
 * Marks `name` once, when the frame showing what was just committed has been painted, not when
 * the component's effect runs: that effect runs before the rest of the task (a nested render,
 * Leaflet adding its layers), and the screen changes only after the task. A requestAnimationFrame
 * callback runs just before the next frame is painted; a task posted from it runs after.
 */
export function markOnceAfterPaint(name: string): void {
  if (!hasMarks() || isMarked(name) || pending.has(name)) return;
  const mark = () => {
    pending.delete(name);
    if (!isMarked(name)) performance.mark(name);
  };
  if (typeof requestAnimationFrame !== 'function' || typeof MessageChannel !== 'function') {
    mark();
    return;
  }
  pending.add(name);
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      mark();
    };
    channel.port2.postMessage(null);
  });
}
