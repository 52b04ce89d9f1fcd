/**
 * User-timing marks for the moments that matter to a reader: the global index and the map on
 * screen. `npm run bench` (and anyone with DevTools) reads them with
 * `performance.getEntriesByName('grd:map-drawn')`. Each is set once per page load.
 */
export const PERF_MARKS = {
  globalIndexDrawn: 'grd:global-index-drawn',
  mapDrawn: 'grd:map-drawn',
} as const;

export function markOnce(name: string): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  if (performance.getEntriesByName(name, 'mark').length > 0) return;
  performance.mark(name);
}
