import { describe, expect, it } from 'vitest';
import { formatMapView, parseMapView } from '../../src/client/features/map/utils/map-view-param';

describe('?map= (a shared link keeps the map view)', () => {
  it('reads a view the map can show, and writes it back to two decimals', () => {
    expect(parseMapView('14.5,-20.25,3.5', 6)).toEqual({ lat: 14.5, lng: -20.25, zoom: 3.5 });
    expect(parseMapView('-85,200,0', 6)).toEqual({ lat: -85, lng: 200, zoom: 0 });
    expect(parseMapView('0,0,6', 6)).toEqual({ lat: 0, lng: 0, zoom: 6 });
    expect(formatMapView({ lat: 14.5049, lng: -20.256, zoom: 3.75 })).toBe('14.5,-20.26,3.75');
    const round = formatMapView({ lat: 1 / 3, lng: 2 / 3, zoom: 2.25 });
    expect(parseMapView(round, 6)).toEqual({ lat: 0.33, lng: 0.67, zoom: 2.25 });
  });

  it('ignores what no map can show: the first view is used instead', () => {
    for (const raw of [
      null,
      '',
      '14.5,20',
      '14.5,20,3,1',
      '85.01,0,3',
      '0,200.5,3',
      '0,0,6.25',
      '0,0,-1',
      '0,0,3.1',
      'a,b,c',
      '1e2,0,3',
      ' 1,2,3',
    ]) {
      expect(parseMapView(raw, 6), String(raw)).toBeNull();
    }
    // Tiles allow closer zoom.
    expect(parseMapView('0,0,9.5', 10)).toEqual({ lat: 0, lng: 0, zoom: 9.5 });
  });
});
