import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { countriesBody, hotspotsBody, shellRoutes, statusBody } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * A skip link to nothing is a dead Tab stop: while the overview loads, its table is a skeleton
 * (the link's target is the table's rows), and the loaded run's axe found "Skip to the hotspot
 * table" outside any landmark because its target was not there yet (axe exempts a skip link
 * only when its target exists). A route's skip link is shown once its target is on the page.
 */
const skipTargets = () =>
  [...document.querySelectorAll('a.skip-link')].map((a) => a.getAttribute('href')!.slice(1));
const dangling = () => skipTargets().filter((id) => document.getElementById(id) === null);

describe('skip links while the overview loads', () => {
  for (const table of ['hotspots', 'all'] as const) {
    it(`point only at what is on the page (${table} table)`, async () => {
      const bff = installFakeBff({
        ...shellRoutes(),
        '/api/status': { body: statusBody() },
        ...historyRoutes(),
        '/api/countries': { body: countriesBody() },
        '/api/v1/hotspots': { body: hotspotsBody() },
      });
      const countries = bff.hold('/api/countries');
      const hotspots = bff.hold('/api/v1/hotspots');
      renderApp(table === 'all' ? '/?table=all' : '/');
      await screen.findByRole('link', { name: 'Skip to content' });
      // The table is drawn after the first frame: its skeleton, while the rows are held.
      await screen.findByText(table === 'all' ? 'Loading all countries' : 'Loading tiers…');
      expect(dangling()).toEqual([]);
      const rowsTarget = table === 'all' ? 'all-countries-rows' : 'hotspot-rows';
      expect(skipTargets()).not.toContain(rowsTarget);
      countries.release();
      hotspots.release();
      // The rows arrive, and with them the link to them.
      await waitFor(() => expect(skipTargets()).toContain(rowsTarget));
      expect(dangling()).toEqual([]);
    });
  }
});
