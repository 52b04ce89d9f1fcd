import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, type ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, hotspotsBody, HOTSPOTS, statusBody, shellRoutes } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import type * as Markers from '../../src/client/features/map/components/hotspot-markers';

// Issue 32, point 7: what an interaction on the overview has to draw. The map's markers are
// wrapped in a Profiler: they are drawn whenever the world map is (they have no state of their
// own that these tests change), so its commits count the map's redraws.
const mapCommits = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/client/features/map/components/hotspot-markers', async (importOriginal) => {
  const original = await importOriginal<typeof Markers>();
  return {
    ...original,
    HotspotMarkers: (props: ComponentProps<typeof original.HotspotMarkers>) => (
      <Profiler id="hotspot-markers" onRender={() => (mapCommits.count += 1)}>
        <original.HotspotMarkers {...props} />
      </Profiler>
    ),
  };
});

function bff() {
  return installFakeBff({
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody() },
    '/api/countries': { body: countriesBody() },
    '/api/v1/hotspots': (url) => {
      const tiers = url.searchParams.get('tier')?.split(',') ?? null;
      const rows = tiers ? HOTSPOTS.filter((h) => tiers.includes(h.tier ?? '')) : HOTSPOTS;
      return { body: hotspotsBody({ hotspots: rows }) };
    },
  });
}

/**
 * The overview with its markers drawn, every request answered (What changed's included) and the
 * hotspot table drawn (it comes in the render after the history panels').
 */
async function settledOverview(path = '/') {
  const app = renderApp(path);
  await waitFor(() =>
    expect(app.container.querySelectorAll('.hotspot-marker').length).toBeGreaterThan(0),
  );
  await waitFor(() => {
    const changes = app.queryClient.getQueryCache().find({ queryKey: ['changes', 'previous'] });
    expect(changes?.state.status).toBe('success');
    expect(app.queryClient.isFetching()).toBe(0);
    expect(app.container.querySelectorAll('.hotspot-table tbody tr').length).toBeGreaterThan(0);
  });
  return app;
}

describe('overview interactions (issue 32, point 7)', () => {
  it('searching the hotspot table changes the URL but does not redraw the world map', async () => {
    bff();
    const { router, container } = await settledOverview();
    const user = userEvent.setup();
    const before = mapCommits.count;
    expect(before).toBeGreaterThan(0);

    await user.type(screen.getByRole('searchbox', { name: 'Search country' }), 'ukr');
    await waitFor(() => expect(router.state.location.search).toBe('?q=ukr'));
    await waitFor(() =>
      expect(
        within(container.querySelector('.hotspot-table')!)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(['Ukraine']),
    );
    expect(container.querySelectorAll('.hotspot-marker')).toHaveLength(4);
    expect(mapCommits.count).toBe(before);
  });

  it('two quick tier clicks, before the URL has the first, both stick', async () => {
    const fake = bff();
    const { router } = await settledOverview();
    const tiers = screen.getByRole('group', { name: 'Tier' });
    const high = within(tiers).getByRole('checkbox', { name: 'High' });
    const critical = within(tiers).getByRole('checkbox', { name: 'Critical' });

    // Both in one task: the router takes the first URL only after it (a microtask later).
    fireEvent.click(high);
    fireEvent.click(critical);
    // The boxes show the change at once, whatever the URL says yet.
    expect(high).toBeChecked();
    expect(critical).toBeChecked();

    await waitFor(() => expect(router.state.location.search).toBe('?tier=crit%2Chigh'));
    await waitFor(() =>
      expect(fake.calls('/api/v1/hotspots').at(-1)!.searchParams.get('tier')).toBe('crit,high'),
    );
    expect(high).toBeChecked();
    expect(critical).toBeChecked();
  });
});
