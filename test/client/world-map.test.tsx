import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Control } from 'leaflet';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, countryBody, hotspotsBody, statusBody, shellRoutes } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { firstHeard, hearPerTask } from './heard-per-task';
import { renderApp } from './render-app';

function bff() {
  return installFakeBff({
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': { body: hotspotsBody() },
    '/api/v1/country/UKR': { body: countryBody() },
  });
}

async function mapMarkers(container: HTMLElement): Promise<HTMLElement[]> {
  await waitFor(() => expect(container.querySelectorAll('.hotspot-marker').length).toBe(4));
  return [...container.querySelectorAll<HTMLElement>('.hotspot-marker')];
}

describe('world map', () => {
  it('credits the shapes once on the attribution line, not once per shape', async () => {
    bff();
    // Leaflet rewrites the line (innerHTML) on every change: once per shape added, when each of
    // the 176 shapes carried the credit (about 70 ms of the first render).
    const rewrites = vi.spyOn(
      Control.Attribution.prototype as unknown as { _update: () => void },
      '_update',
    );
    try {
      const { container } = renderApp('/');
      await waitFor(() =>
        expect(container.querySelectorAll('.world-map path.shape')).toHaveLength(176),
      );
      expect(container.querySelector('.leaflet-control-attribution')).toHaveTextContent(
        'Shapes: Natural Earth',
      );
      expect(rewrites.mock.calls.length).toBeLessThan(20);
    } finally {
      rewrites.mockRestore();
    }
  });

  it('draws the country shapes without Antarctica, coloured by data or marked as no data', async () => {
    bff();
    const { container } = renderApp('/');
    const shapes = await waitFor(() => {
      const paths = container.querySelectorAll('.world-map path.shape');
      expect(paths.length).toBeGreaterThan(150);
      return [...paths];
    });
    // 177 Natural Earth shapes minus Antarctica.
    expect(shapes).toHaveLength(176);
    const withData = shapes.filter((p) => p.classList.contains('shape-data'));
    // The fixture has data for UKR, SDN, RUS, CIV and FRA.
    expect(withData).toHaveLength(5);
    expect(shapes.filter((p) => p.classList.contains('shape-nodata'))).toHaveLength(171);
    expect(screen.getByRole('list', { name: 'Map legend' })).toHaveTextContent('No current data');
  });

  it('hotspot markers are keyboard buttons named by country, risk and tier; Enter opens the country', async () => {
    bff();
    const { container, router } = renderApp('/');
    const markers = await mapMarkers(container);
    const ukraine = markers.find((m) => m.textContent?.startsWith('Ukraine'))!;
    expect(ukraine).toHaveAttribute('role', 'button');
    expect(ukraine).toHaveAttribute('tabindex', '0');
    expect(ukraine).toHaveTextContent('Ukraine: risk 86.12, Critical. Open country page');
    expect(ukraine).toHaveClass('tier-crit');
    // Larger risk, larger marker.
    const ivory = markers.find((m) => m.textContent?.startsWith("Côte d'Ivoire"))!;
    expect(parseInt(ukraine.style.width, 10)).toBeGreaterThan(parseInt(ivory.style.width, 10));

    await act(async () => {
      ukraine.focus();
      fireEvent.keyDown(ukraine, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/country/UKR'));
    expect(await screen.findByRole('heading', { level: 1, name: /Ukraine/ })).toBeInTheDocument();
  });

  it('a marker name from the data is text, never markup', async () => {
    const fake = bff();
    fake.set('/api/v1/hotspots', {
      body: hotspotsBody({
        hotspots: [
          {
            iso: 'XSS',
            name: '<img src=x onerror="window.__mapXss=1">Evil',
            lat: 1,
            lng: 1,
            risk: 50,
            tier: 'mod',
          },
        ],
      }),
    });
    const { container } = renderApp('/');
    await waitFor(() => expect(container.querySelectorAll('.hotspot-marker')).toHaveLength(1));
    const marker = container.querySelector('.hotspot-marker')!;
    expect(marker.querySelector('img')).toBeNull();
    expect(marker.textContent).toContain('<img src=x');
  });

  it('labels a country without data "No current data" in its tooltip', async () => {
    bff();
    const { container } = renderApp('/');
    await waitFor(() => expect(container.querySelectorAll('path.shape-nodata').length).toBe(171));
    fireEvent.mouseOver(container.querySelector('path.shape-nodata')!);
    await waitFor(() =>
      expect(container.querySelector('.leaflet-tooltip')).toHaveTextContent('No current data'),
    );
    fireEvent.mouseOut(container.querySelector('path.shape-nodata')!);
    fireEvent.mouseOver(container.querySelector('path.shape-data')!);
    await waitFor(() =>
      expect(container.querySelector('.leaflet-tooltip')).toHaveTextContent(/Risk \d+\.\d\d · /),
    );
  });

  it('adds a raster tile layer only when the status reports one, with its attribution as text', async () => {
    const fake = bff();
    const first = renderApp('/');
    await waitFor(() => expect(first.container.querySelectorAll('path.shape').length).toBe(176));
    expect(first.container.querySelector('.leaflet-tile')).toBeNull();
    first.unmount();

    fake.set('/api/status', {
      body: statusBody({
        tiles: {
          url: 'https://tiles.example.com/{z}/{x}/{y}.png',
          attribution: '© Example <b>Tiles</b>',
        },
      }),
    });
    const { container } = renderApp('/');
    await waitFor(() => expect(container.querySelector('.leaflet-tile')).not.toBeNull());
    expect(container.querySelector('.leaflet-tile')!.getAttribute('src')).toMatch(
      /^https:\/\/tiles\.example\.com\/\d+\/\d+\/\d+\.png$/,
    );
    const attribution = container.querySelector('.leaflet-control-attribution')!;
    expect(attribution).toHaveTextContent('© Example <b>Tiles</b>');
    expect(attribution.querySelector('b')).toBeNull();
  });

  it("draws Leaflet's map, then its shapes in groups, then its markers, each in a task of its own", async () => {
    bff();
    // Heard once per task: a drawing in steps once per step, one committed at once once.
    const { heard, stop } = hearPerTask(['.leaflet-container', 'path.shape', '.hotspot-marker']);
    try {
      const { container } = renderApp('/');
      await mapMarkers(container);
      const task = (selector: string) => firstHeard(heard, selector);
      expect(task('.leaflet-container')).toBeGreaterThanOrEqual(0);
      expect(task('path.shape')).toBeGreaterThan(task('.leaflet-container'));
      // The shapes in four groups, each heard on its own; the markers after the last.
      const shapeTasks = heard.flatMap((batch, i) => (batch.includes('path.shape') ? [i] : []));
      expect(shapeTasks).toHaveLength(4);
      expect(task('.hotspot-marker')).toBeGreaterThan(shapeTasks.at(-1)!);
    } finally {
      stop();
    }
  });
});
