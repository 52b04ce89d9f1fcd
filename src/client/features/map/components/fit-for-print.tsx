import { latLngBounds, type LatLngBounds, type LatLngExpression } from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { onPrinting } from '../../../lib/print-events';

/** The class that gives the map its paper size (print.css), on screen too while printing. */
export const PRINT_SIZE = 'map-print-size';

/**
 * On paper the map shows the whole world and every marker: the page is narrower than the screen,
 * and the screen's view cut to its left part printed the Americas alone (2 of 20 hotspots). When
 * printing starts (`beforeprint`, or the print media query) the map takes its paper size at once
 * (a class: `beforeprint` comes while the screen's layout still holds), re-measures it and fits
 * `home` and the markers into it without animation; afterwards the screen's size and view come
 * back. Not a move a person made: the URL's view (MapViewInUrl) is left alone.
 */
export function FitForPrint({
  home,
  points,
  sizeClass = PRINT_SIZE,
}: {
  home: LatLngBounds;
  points: readonly LatLngExpression[];
  /** The class with the paper size (print.css); a column's map passes its own. */
  sizeClass?: string;
}) {
  const map = useMap();
  useEffect(() => {
    let screenView: { center: LatLngExpression; zoom: number } | null = null;
    const container = map.getContainer();
    const fit = () => {
      screenView ??= { center: map.getCenter(), zoom: map.getZoom() };
      container.classList.add(sizeClass);
      map.invalidateSize({ animate: false });
      map.fitBounds(latLngBounds([...points]).extend(home), { animate: false, padding: [6, 6] });
    };
    const restore = () => {
      if (!screenView) return;
      container.classList.remove(sizeClass);
      map.invalidateSize({ animate: false });
      map.setView(screenView.center, screenView.zoom, { animate: false });
      screenView = null;
    };
    const stop = onPrinting(fit, restore);
    return () => {
      stop();
      container.classList.remove(sizeClass);
    };
  }, [map, home, points, sizeClass]);
  return null;
}
