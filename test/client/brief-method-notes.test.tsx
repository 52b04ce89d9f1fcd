import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MethodMark } from '../../src/shared/method-api';
import { countryBody, shellRoutes, statusBody } from './fixtures/data';
import {
  batchesRoute,
  batchTimes,
  changesBody,
  coverage,
  globalHistoryBody,
  historyRoutes,
} from './fixtures/history';
import { notesRoutes } from './fixtures/sites';
import { installFakeBff, type Route } from './fake-bff';
import { renderApp } from './render-app';

/*
 * Issue 31: a brief carries the provider's method beside its batch id, each country's notes
 * (latest text, author, time), and says plainly when its 30 days span a method change.
 */
const TIMES = batchTimes(60);
const changeAt = (asOf: string): MethodMark => ({
  as_of: asOf,
  from: 'ggri 3.2',
  to: 'ggri-m 4.0',
  comparable: false,
});

/** The batch list with each batch's method: the new one from the change on. */
function batchesWithMethod(changedAt: string): Route {
  const plain = batchesRoute(60);
  return (url, init) => {
    const answer = typeof plain === 'function' ? plain(url, init) : plain;
    const body = answer.body as { batches: { as_of: string }[] };
    return {
      body: {
        ...body,
        batches: body.batches.map((b) => ({
          ...b,
          methodology_version: b.as_of >= changedAt ? 'ggri-m 4.0' : 'ggri 3.2',
          method_change: null,
        })),
      },
    };
  };
}

function briefRoutes(change: MethodMark) {
  const global = { ...globalHistoryBody(), method_changes: [change] };
  return {
    ...shellRoutes(),
    ...historyRoutes(),
    '/api/status': { body: statusBody({ history: coverage() }) },
    '/api/history/global': { body: global },
    '/api/changes': { body: { ...changesBody(), method_changes: [] } },
    '/api/v1/country/UKR': { body: countryBody() },
    '/api/alerts': { body: { ok: true, alerts: [], unread: 0, next_cursor: null } },
    '/api/batches': batchesWithMethod(change.as_of),
    ...notesRoutes(['UKR'], {
      UKR: [
        {
          id: '7',
          iso: 'UKR',
          text: 'Kyiv office works remotely',
          author: 'Ana Analyst',
          created_at: '2025-06-01T09:00:00.000Z',
          updated_at: '2025-06-02T08:30:00.000Z',
          version: 2,
        },
      ],
    }),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a brief and the provider’s method (issue 31)', () => {
  it('names the method beside the batch id, shows the notes and says the period spans a change', async () => {
    installFakeBff(briefRoutes(changeAt(TIMES[55] ?? '')));
    renderApp('/brief?iso=UKR');
    const citation = (await screen.findByText(/Batch id/)).closest('p');
    expect(citation).not.toBeNull();
    await vi.waitFor(() => expect(citation).toHaveTextContent('method ggri-m 4.0'));
    const notes = screen.getAllByRole('note').map((note) => note.textContent);
    expect(notes).toContain(
      'Not comparable: The provider’s method changed from ggri 3.2 to ggri-m 4.0 on 31 May 2025, 10:00 UTC: scores are not comparable across it. This brief spans it: a step in its trends or a move across it is the new method, not the world.',
    );
    const block = screen.getByRole('region', { name: /Ukraine/ });
    const ours = within(block).getByRole('heading', { name: 'Our notes' }).parentElement;
    expect(ours).toHaveTextContent(
      'Kyiv office works remotely (Ana Analyst, 2 Jun 2025, 08:30 UTC)',
    );
  });

  it('says nothing of a change older than its 30 days', async () => {
    installFakeBff(briefRoutes(changeAt('2025-04-01T10:00:00.000Z')));
    renderApp('/brief?iso=UKR');
    const citation = (await screen.findByText(/Batch id/)).closest('p');
    await vi.waitFor(() => expect(citation).toHaveTextContent('method ggri-m 4.0'));
    expect(screen.queryAllByRole('note').map((note) => note.textContent)).not.toContainEqual(
      expect.stringMatching(/not comparable/),
    );
  });
});
