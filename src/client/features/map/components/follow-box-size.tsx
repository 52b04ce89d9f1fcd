import type { LatLngExpression } from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { useLatest } from '../../../lib/use-latest';
import { PRINT_SIZE } from './fit-for-print';

/** A view the map keeps while the page settles (a shared link's, until a hand moves the map). */
export interface HeldView {
  center: LatLngExpression;
  zoom: number;
}

/**
 * Leaflet measures its box once and again only when the window resizes; the page changes the
 * box on its own (panels loading, a scrollbar arriving, print's paper size), and a map that
 * missed it keeps a stale size: the view drifts off its centre, a shared link opens a few
 * pixels off, and the newly uncovered strip is never drawn. Watching the box itself keeps the
 * centre where it was (Leaflet pans by half the change). Not a move a person made: MapViewInUrl
 * leaves the URL alone.
 *
 * Keeping the centre is not enough for a view at the edge of the map's bounds: a box wider for
 * a moment (the page drawn before its answers, in a loaded CI run) pushed the centre inwards
 * for good, and a shared link opened 9 px off the view it was made from. `held()` names the
 * view to set again after each change (none while the map has its paper size: FitForPrint
 * owns the view then).
 */
export function FollowBoxSize({ held }: { held?: () => HeldView | null }) {
  const map = useMap();
  const heldNow = useLatest(held);
  useEffect(() => {
    // Absent in jsdom and very old engines: the window's resize event still covers most cases.
    if (typeof ResizeObserver !== 'function') return;
    const container = map.getContainer();
    const observer = new ResizeObserver(() => {
      map.invalidateSize({ animate: false });
      const view = container.classList.contains(PRINT_SIZE) ? null : heldNow.current?.();
      if (view) map.setView(view.center, view.zoom, { animate: false });
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [map, heldNow]);
  return null;
}
