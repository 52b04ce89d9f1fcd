import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { overviewRoutes } from './fixtures/overview';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import { historyPanelsQuery } from '../../src/client/app/load-history-panels';
import type * as Panels from '../../src/client/app/routes/overview-panels';

// Issue 32: the overview's history panels (the trend and What changed) arrive as a query (their
// chunks). A store update is rendered by React at once and whole; drawn in that render, both
// panels and What changed's lists were one task of about 100 ms at 1x CPU on a phone-sized
// page. The row is wrapped in a Profiler that notes, at each commit, whether the render saw the
// chunks (the wrapper reads the same query, so it is told in the same update as the panels)
// and whether What changed is on the page.
const commits = vi.hoisted(() => [] as { arrived: boolean; drawn: boolean }[]);
vi.mock('../../src/client/app/routes/overview-panels', async (importOriginal) => {
  const original = await importOriginal<typeof Panels>();
  return {
    ...original,
    HistoryRow: () => {
      // Never fetches: it only hears the panels' own request.
      const arrived = useQuery({ ...historyPanelsQuery(), enabled: false }).data !== undefined;
      return (
        <Profiler
          id="history-row"
          onRender={() =>
            commits.push({ arrived, drawn: document.getElementById('changes-heading') !== null })
          }
        >
          <original.HistoryRow />
        </Profiler>
      );
    },
  };
});

describe('overview, the history panels arriving', () => {
  it('their arrival commits the loading frames; the panels are drawn in a later render', async () => {
    installFakeBff(overviewRoutes());
    renderApp('/');
    await screen.findByRole('heading', { name: 'What changed' });

    const first = commits.findIndex((commit) => commit.arrived);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(commits[first]).toEqual({ arrived: true, drawn: false });
    expect(commits.slice(first + 1)).toContainEqual({ arrived: true, drawn: true });
  });
});
