import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type * as TrendChartModule from '../../src/client/components/trend-chart';
import { countriesBody, hotspotsBody, shellRoutes, statusBody } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { storeRoutes } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 32, point 7: a tier filter changes the URL, and every panel that reads the URL renders
 * again within the click (the inputs are controlled by it). Redrawing the unchanged trend chart
 * was most of that click's 376 ms on a throttled phone; the chart is memoised on its props, so
 * it must not draw again. The real chart, counted.
 */
const draws = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/client/components/trend-chart', async (importOriginal) => {
  const real = await importOriginal<typeof TrendChartModule>();
  return {
    ...real,
    TrendChart: (props: ComponentProps<typeof real.TrendChart>) => {
      draws.count += 1;
      return real.TrendChart(props);
    },
  };
});

describe('the overview’s trend chart and the tier filter', () => {
  it('is not drawn again when a tier filter changes the URL', async () => {
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      '/api/status': { body: statusBody() },
      '/api/countries': { body: countriesBody() },
      '/api/v1/hotspots': { body: hotspotsBody() },
      ...historyRoutes(),
    });
    const { router } = renderApp('/');
    const trend = await screen.findByRole('region', { name: 'Global index trend' });
    await waitFor(() => expect(draws.count).toBeGreaterThan(0));
    // Drawn and shown: the chunk's skeleton gone (a first render can be one React set aside).
    await waitFor(() => expect(within(trend).queryByText(/Drawing the trend/)).toBeNull());
    const drawn = draws.count;

    const hotspots = screen.getByRole('region', { name: 'Hotspots' });
    await within(hotspots).findAllByRole('row');
    const tiers = within(hotspots).getByRole('group', { name: 'Tier' });
    await userEvent.click(within(tiers).getAllByRole('checkbox')[0]!);
    await waitFor(() => expect(router.state.location.search).toContain('tier='));
    expect(within(tiers).getAllByRole('checkbox')[0]).toBeChecked();

    expect(draws.count).toBe(drawn);
  });
});
