import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_TEXT_MAX } from '../../src/shared/notes-api.js';
import type { HistoryStore } from '../../src/server/store/history-store.js';
import { HOUR } from '../helpers/clock.js';
import { openAppStore } from '../helpers/history-store.js';
import { startHistoryStack, type HistoryStack } from '../helpers/history-stack.js';

/*
 * Country notes (issue 31): editors write plain-text notes; the country's list shows the latest
 * first; edits need If-Match and keep every revision, so `?as_of=` shows the notes as they were;
 * bad input is a 400 naming the field with nothing written; every write is in the audit log.
 */
let store: HistoryStore;
let stack: HistoryStack;
beforeAll(async () => {
  store = await openAppStore();
  stack = await startHistoryStack(store, { start: Date.UTC(2026, 4, 2, 8) });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await store?.close();
});

const post = (iso: string, payload: unknown) =>
  stack.app.inject({ method: 'POST', url: `/api/notes/${iso}`, payload: payload as object });
const notesOf = async (iso: string, query = '') =>
  (await stack.app.inject({ url: `/api/notes/${iso}${query}` })).json().notes as Array<{
    id: string;
    text: string;
    author: string;
    version: number;
  }>;

describe('country notes', () => {
  it('written, listed latest first, edited with If-Match, deleted, and shown as they were', async () => {
    const t0 = stack.clock.t;
    const first = await post('MLI', { text: 'Convoy routes north of Gao closed.\nCheck weekly.' });
    expect(first.statusCode).toBe(201);
    expect(first.headers.etag).toBe('"1"');
    stack.clock.advance(HOUR);
    const second = await post('mli', { text: 'Office in Bamako reopened' });
    expect(second.statusCode).toBe(201);
    const id = first.json().note.id as string;
    expect((await notesOf('MLI')).map((n) => n.text)).toEqual([
      'Office in Bamako reopened',
      'Convoy routes north of Gao closed.\nCheck weekly.',
    ]);

    stack.clock.advance(HOUR);
    const url = `/api/notes/MLI/${id}`;
    const edit = { text: 'Convoy routes north of Gao open again' };
    expect((await stack.app.inject({ method: 'PUT', url, payload: edit })).statusCode).toBe(428);
    const stale = { 'if-match': '"7"' };
    expect(
      (await stack.app.inject({ method: 'PUT', url, payload: edit, headers: stale })).statusCode,
    ).toBe(412);
    const edited = await stack.app.inject({
      method: 'PUT',
      url,
      payload: edit,
      headers: { 'if-match': '"1"' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().note).toMatchObject({ text: edit.text, version: 2 });

    stack.clock.advance(HOUR);
    const gone = await stack.app.inject({ method: 'DELETE', url, headers: { 'if-match': '"2"' } });
    expect(gone.statusCode).toBe(200);
    expect((await notesOf('MLI')).map((n) => n.text)).toEqual(['Office in Bamako reopened']);

    // As of each time: the first text, then both notes, then the edit; before any, none.
    const at = (ms: number) => `?as_of=${new Date(ms).toISOString()}`;
    expect(await notesOf('MLI', at(t0 - 1))).toEqual([]);
    expect((await notesOf('MLI', at(t0 + 1))).map((n) => n.text)).toEqual([
      'Convoy routes north of Gao closed.\nCheck weekly.',
    ]);
    expect((await notesOf('MLI', at(t0 + 2 * HOUR + 1))).map((n) => n.text)).toEqual([
      edit.text,
      'Office in Bamako reopened',
    ]);

    // The country's spreadsheet carries its notes, as of the batch it is of (issue 31).
    const sheet = await stack.app.inject({ url: '/api/spreadsheet/country/MLI' });
    expect(sheet.statusCode).toBe(200);
    const [header, row] = sheet.body.split('\r\n');
    expect(header!.endsWith(',Our notes')).toBe(true);
    expect(row).toContain('Office in Bamako reopened (');
    expect(row).not.toContain('Gao');
    const [newest] = (await stack.app.inject({ url: '/api/batches?limit=1' })).json().batches;
    const then = await stack.app.inject({
      url: `/api/spreadsheet/country/MLI?as_of=${encodeURIComponent(newest.as_of)}`,
    });
    // The newest batch is of the time the first note was written: its first text only, then.
    const thenRow = then.body.split('\r\n').slice(1).join('\n');
    expect(thenRow).toContain('Convoy routes north of Gao closed.');
    expect(thenRow).not.toContain('Bamako');
    expect(thenRow).not.toContain('open again');

    const found = await stack.app.inject({ url: '/api/notes?q=bamako' });
    expect(found.json().notes.map((n: { iso: string }) => n.iso)).toEqual(['MLI']);

    const audit = await stack.app.inject({ url: '/api/audit?action=country%20note*' });
    expect(
      audit
        .json()
        .entries.map((e: { action: string }) => e.action)
        .sort(),
    ).toEqual([
      'country note deleted',
      'country note edited',
      'country note written',
      'country note written',
    ]);
  });

  it.each([
    ['a control character', { text: 'bell \u0007 here' }, 'text'],
    ['a bidi control', { text: 'gnirts \u202e reversed' }, 'text'],
    ['too long a text', { text: 'x'.repeat(NOTE_TEXT_MAX + 1) }, 'text'],
    ['an empty text', { text: '   ' }, 'text'],
    ['an unknown field', { text: 'ok', colour: 'red' }, 'colour'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_what, payload, field) => {
    const before = (await notesOf('NER')).length;
    const res = await post('NER', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false });
    expect(res.json().error).toContain(field);
    expect(await notesOf('NER')).toHaveLength(before);
  });

  it('refuses an unknown country with a 400 naming iso', async () => {
    const res = await post('XYZ', { text: 'no such place' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('iso');
  });
});
