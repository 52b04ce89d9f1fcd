import { screen, waitFor } from '@testing-library/react';
import { Profiler, type ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { countriesBody, countryBody, statusBody, shellRoutes } from './fixtures/data';
import { countryHistoryRoutes, historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';
import { WAIT_MS } from './waits';
import type * as Feed from '../../src/client/features/events/components/event-feed';

// Issue 32: an answer that lands after the page has drawn redraws what reads it, not the whole
// page. The event feed stands for the page's panels (it reads none of the late answers): its
// commits count the page's redraws.
const feedCommits = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/client/features/events/components/event-feed', async (importOriginal) => {
  const original = await importOriginal<typeof Feed>();
  return {
    ...original,
    EventFeed: (props: ComponentProps<typeof original.EventFeed>) => (
      <Profiler id="event-feed" onRender={() => (feedCommits.count += 1)}>
        <original.EventFeed {...props} />
      </Profiler>
    ),
  };
});

describe('country page, late answers', () => {
  it('the country names arriving last fill the compare picker and redraw no panel', async () => {
    const bff = installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      ...countryHistoryRoutes({ ISL: 'Iceland' }, []),
      '/api/countries': { body: countriesBody() },
      '/api/v1/country/UKR': { body: countryBody() },
    });
    const names = bff.hold('/api/reference/countries');
    renderApp('/country/UKR');
    await screen.findByRole('region', { name: 'Events' });
    const picker = await screen.findByRole('combobox', { name: 'Compare with…' });
    expect(picker).toHaveAttribute('placeholder', 'Loading countries…');
    // The page is drawn and settled before the names come: nothing else is still arriving.
    await waitFor(() => expect(bff.calls('/api/reference/countries')).toHaveLength(1));
    const drawn = feedCommits.count;
    expect(drawn).toBeGreaterThan(0);

    names.release();
    await waitFor(() => expect(picker).not.toHaveAttribute('placeholder', 'Loading countries…'), {
      timeout: WAIT_MS,
    });
    expect(feedCommits.count).toBe(drawn);
  });
});
