import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { countriesBody, countryBody, shellRoutes, statusBody } from './fixtures/data';
import { historyRoutes } from './fixtures/history';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 33, point 14: from the top of a country page the first event was 24 key presses away.
 * The page's skip links now include "Skip to the events": Tab, Tab, Enter lands on the list,
 * and the next Tab is the newest event's link.
 */
describe('skip to the events (issue 33, point 14)', () => {
  it('Tab, Tab, Enter reaches the event list; the next Tab is the first event', async () => {
    installFakeBff({
      ...shellRoutes(),
      '/api/status': { body: statusBody() },
      ...historyRoutes(),
      '/api/countries': { body: countriesBody() },
      '/api/v1/country/UKR': { body: countryBody() },
    });
    renderApp('/country/UKR');
    await screen.findByRole('heading', { level: 1 });
    const list = await screen.findByRole('list', { name: 'Events, newest first' });
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toHaveTextContent('Skip to content');
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to the events' });
    expect(document.activeElement).toBe(skip);
    expect(skip).toHaveAttribute('href', `#${list.id}`);
    expect(list).toHaveAttribute('tabindex', '-1');
    // jsdom does not follow a fragment link's focus: the browser test presses Enter itself.
    list.focus();
    await user.tab();
    const first = list.querySelector('li');
    expect(first?.contains(document.activeElement)).toBe(true);
    expect(first).toHaveTextContent('Newest event');
  });
});
