import { DomEvent, setOptions, type LatLngBoundsExpression } from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { t } from '../../../lib/i18n';

/**
 * "Reset view" over the map: back to the first view after panning or zooming (on a phone, two
 * fingers can leave the world half out of view). Clicks on it must not reach the map below.
 * Its `moveend` listener is added after the map's own (MapViewInUrl), so it runs last.
 */
export function MapViewControls({
  home,
  onReset,
}: {
  home: LatLngBoundsExpression;
  /** After the first view is back (its move has ended): e.g. drop the view from the URL. */
  onReset: () => void;
}) {
  const map = useMap();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    DomEvent.disableClickPropagation(box.current);
    DomEvent.disableScrollPropagation(box.current);
  }, []);
  return (
    <div ref={box} className="map-view-controls">
      <button
        type="button"
        onClick={() => {
          map.once('moveend', onReset);
          // The first view fills the box exactly (world-map.tsx, canvasOptions): so does this
          // one, rather than rounding the zoom down to the next quarter step.
          const { zoomSnap } = map.options;
          setOptions(map, { zoomSnap: 0 });
          map.fitBounds(home);
          setOptions(map, { zoomSnap });
        }}
      >
        {t('overview.resetView')}
      </button>
    </div>
  );
}
