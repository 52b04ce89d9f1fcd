import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPEN_ACCESS_NAME } from '../../src/shared/roles';
import { countryBody, shellRoutes, statusBody } from './fixtures/data';
import { coverage, historyRoutes } from './fixtures/history';
import { notesRoutes, storeRoutes } from './fixtures/sites';
import { installFakeBff, type Route } from './fake-bff';
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
      // Written on a dashboard with no sign-in configured: said in words, not the stored name.
      { ...note('1', 'Line one\nline two', '2025-06-01T09:00:00.000Z'), author: OPEN_ACCESS_NAME },
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
    expect(within(panel).getAllByText(/Ana Analyst, /)).toHaveLength(1);
    expect(within(panel).getAllByText(/^Someone without sign-in, /)).toHaveLength(1);
    expect(within(panel).getByRole('textbox', { name: 'New note' })).toBeVisible();
    await userEvent.type(within(panel).getByRole('textbox', { name: 'New note' }), 'x');
    expect(within(panel).getByRole('button', { name: 'Add note' })).toBeEnabled();
  });

  function notesPage(me: { body: unknown } | undefined, onWrite: Route) {
    let notes = [
      { ...note('2', 'Kyiv office moved to remote work', '2025-06-02T09:00:00.000Z'), version: 3 },
      note('1', 'Line one', '2025-06-01T09:00:00.000Z'),
    ];
    const bff = installFakeBff({
      ...shellRoutes(me),
      ...storeRoutes(),
      '/api/notes/UKR': () => ({ body: { ok: true, iso: 'UKR', as_of: null, notes } }),
      '/api/notes/UKR/2': (url, init) => {
        const answer = typeof onWrite === 'function' ? onWrite(url, init) : onWrite;
        if ((answer.status ?? 200) < 300) {
          notes =
            init?.method === 'DELETE'
              ? notes.filter((n) => n.id !== '2')
              : notes.map((n) =>
                  n.id === '2'
                    ? { ...n, text: (JSON.parse(String(init?.body)) as { text: string }).text }
                    : n,
                );
        }
        return answer;
      },
      '/api/status': { body: statusBody({ history: coverage() }) },
      '/api/v1/country/UKR': { body: countryBody() },
      ...historyRoutes(),
      '/api/country/UKR/explain': { status: 400, body: { ok: false, error: 'nothing before' } },
    });
    renderApp('/country/UKR');
    return bff;
  }
  const writes: { method: string; ifMatch: string | null; body: unknown }[] = [];
  const recordWrite: Route = (_url, init) => {
    const headers = new Headers(init?.headers);
    writes.push({
      method: init?.method ?? 'GET',
      ifMatch: headers.get('if-match'),
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    return { body: { ok: true, note: note('2', 'x', '2025-06-02T09:00:00.000Z') } };
  };

  it('an editor edits a note, then deletes it, each naming the version shown', async () => {
    writes.length = 0;
    notesPage(undefined, recordWrite);
    const panel = await screen.findByRole('region', { name: 'Our notes' });
    const first = (await within(panel).findAllByRole('listitem'))[0] as HTMLElement;
    await userEvent.click(within(first).getByRole('button', { name: /^Edit/ }));
    const box = within(first).getByRole('textbox', { name: 'Edit the note' });
    expect(box).toHaveValue('Kyiv office moved to remote work');
    await userEvent.clear(box);
    await userEvent.type(box, 'Kyiv office open again');
    await userEvent.click(within(first).getByRole('button', { name: 'Save' }));
    await within(panel).findByText('Kyiv office open again');
    expect(writes).toEqual([
      { method: 'PUT', ifMatch: '"3"', body: { text: 'Kyiv office open again' } },
    ]);

    const edited = (await within(panel).findAllByRole('listitem'))[0] as HTMLElement;
    await userEvent.click(within(edited).getByRole('button', { name: /^Delete/ }));
    // Asked once more; nothing is sent before the answer.
    expect(writes).toHaveLength(1);
    await userEvent.click(within(edited).getByRole('button', { name: 'Yes, delete it' }));
    await vi.waitFor(() => expect(within(panel).queryByText('Kyiv office open again')).toBeNull());
    expect(writes[1]).toEqual({ method: 'DELETE', ifMatch: '"3"', body: null });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(1);
  });

  it("says so when someone else edited first (412), and keeps the editor's text", async () => {
    notesPage(undefined, {
      method: 'PUT',
      status: 412,
      body: { ok: false, error: 'someone else changed this note first: reload it' },
    });
    const panel = await screen.findByRole('region', { name: 'Our notes' });
    const first = (await within(panel).findAllByRole('listitem'))[0] as HTMLElement;
    await userEvent.click(within(first).getByRole('button', { name: /^Edit/ }));
    await userEvent.type(within(first).getByRole('textbox', { name: 'Edit the note' }), '!');
    await userEvent.click(within(first).getByRole('button', { name: 'Save' }));
    expect(await within(first).findByRole('alert')).toHaveTextContent(
      'someone else changed this note first: reload it',
    );
    expect(within(first).getByRole('textbox')).toHaveValue('Kyiv office moved to remote work!');
  });

  it('a viewer reads the notes with nothing to edit, delete or add', async () => {
    notesPage(
      {
        body: { ok: true, name: 'Vic', email: null, role: 'viewer', via: 'oidc', sign_out: null },
      },
      recordWrite,
    );
    const panel = await screen.findByRole('region', { name: 'Our notes' });
    expect(await within(panel).findAllByRole('listitem')).toHaveLength(2);
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(within(panel).queryByRole('textbox')).toBeNull();
  });
});
