import { DomEvent, type LatLngBoundsExpression } from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';

/**
 * "Reset view" over the map: back to the first view after panning or zooming (on a phone, two
 * fingers can leave the world half out of view). Clicks on it must not reach the map below.
 */
export function MapViewControls({ home }: { home: LatLngBoundsExpression }) {
  const map = useMap();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    DomEvent.disableClickPropagation(box.current);
    DomEvent.disableScrollPropagation(box.current);
  }, []);
  return (
    <div ref={box} className="map-view-controls">
      <button type="button" onClick={() => map.fitBounds(home)}>
        Reset view
      </button>
    </div>
  );
}
