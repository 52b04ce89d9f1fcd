import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countryBody, shellRoutes, statusBody } from './fixtures/data';
import { coverage, historyRoutes } from './fixtures/history';
import { notesRoutes, storeRoutes } from './fixtures/sites';
import { installFakeBff } from './fake-bff';
import { renderApp } from './render-app';

const note = (id: string, text: string, at: string) => ({
  id,
  iso: 'UKR',
  text,
  author: 'Ana Analyst',
  created_at: at,
  updated_at: at,
  version: 1,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('our notes on a country page (issue 31)', () => {
  it('shows the notes latest first, as the BFF answers them, and offers an editor the form', async () => {
    const notes = [
      note('2', 'Kyiv office moved to remote work', '2025-06-02T09:00:00.000Z'),
      note('1', 'Line one\nline two', '2025-06-01T09:00:00.000Z'),
    ];
    installFakeBff({
      ...shellRoutes(),
      ...storeRoutes(),
      ...notesRoutes(['UKR'], { UKR: notes }),
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/country/UKR/explain': { status: 400, body: { ok: false, error: 'nothing before' } },
    });
    renderApp('/country/UKR');
    const panel = await screen.findByRole('region', { name: 'Our notes' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.note-text')?.textContent)).toEqual([
      'Kyiv office moved to remote work',
      'Line one\nline two',
    ]);
    expect(within(panel).getAllByText(/Ana Analyst, /)).toHaveLength(2);
    expect(within(panel).getByRole('textbox', { name: 'New note' })).toBeVisible();
    await userEvent.type(within(panel).getByRole('textbox', { name: 'New note' }), 'x');
    expect(within(panel).getByRole('button', { name: 'Add note' })).toBeEnabled();
  });
});
