import { DomEvent, type LatLngBoundsExpression } from 'leaflet';
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
          map.fitBounds(home);
        }}
      >
        {t('overview.resetView')}
      </button>
    </div>
  );
}
