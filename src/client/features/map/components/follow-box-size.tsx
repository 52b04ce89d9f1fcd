import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * Leaflet measures its box once and again only when the window resizes; the page changes the
 * box on its own (panels loading, a scrollbar arriving, print's paper size), and a map that
 * missed it keeps a stale size: the view drifts off its centre, a shared link opens a few
 * pixels off, and the newly uncovered strip is never drawn. Watching the box itself keeps the
 * centre where it was (Leaflet pans by half the change). Not a move a person made: MapViewInUrl
 * leaves the URL alone.
 */
export function FollowBoxSize() {
  const map = useMap();
  useEffect(() => {
    // Absent in jsdom and very old engines: the window's resize event still covers most cases.
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => map.invalidateSize({ animate: false }));
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}
