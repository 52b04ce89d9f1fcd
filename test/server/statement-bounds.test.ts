import { Parser } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/store/connection.js';
import { readCsvRows } from '../../src/server/services/sites/import-rows.js';
import { insertAlertRows, type NewAlert } from '../../src/server/store/alerts.js';

/*
 * Issue 29: the embedded store runs each statement on the main thread and drizzle builds it
 * there too, so a statement's size is how long the thread is held. An evaluation's alerts go
 * out 50 to a statement (200 held it for 40-90 ms of CPU at load 20), with a turn of the event
 * loop between statements; an uploaded CSV reaches csv-parse in pieces of at most 1 KB.
 */
/** A database that records each INSERT's rows and the event-loop turns before it. */
function recordingDb() {
  const statements: number[] = [];
  const turnsBetween: number[] = [];
  let turns = 0;
  let watching = true;
  const tick = (): void => {
    turns += 1;
    if (watching) setImmediate(tick);
  };
  setImmediate(tick);
  const db = {
    insert: () => ({
      values: (rows: unknown[]) => ({
        onConflictDoNothing: () => ({
          returning: () => {
            turnsBetween.push(turns);
            statements.push(rows.length);
            turns = 0;
            return Promise.resolve([]);
          },
        }),
      }),
    }),
  } as unknown as Database;
  const stop = (): void => {
    watching = false;
  };
  return { db, statements, turnsBetween, stop };
}

describe('alert statements', () => {
  it('hold at most 50 alerts each, with a turn of the event loop between two', async () => {
    const { db, statements, turnsBetween, stop } = recordingDb();
    const alert = { message: 'moved' } as unknown as NewAlert;
    await insertAlertRows(
      db,
      Array.from({ length: 5_000 }, () => alert),
    ).finally(stop);
    expect(statements.reduce((sum, n) => sum + n, 0)).toBe(5_000);
    expect(Math.max(...statements)).toBeLessThanOrEqual(50);
    expect(Math.min(...turnsBetween.slice(1))).toBeGreaterThan(0);
  });
});

describe('an uploaded CSV', () => {
  it('is parsed at most 1 KB at a time: 512 one-character rows, each a CsvError in csv-parse', async () => {
    // What csv-parse is handed at once, seen on its parser's prototype (restored after).
    const pieces: number[] = [];
    const original = Parser.prototype._transform;
    Parser.prototype._transform = function (this: Parser, chunk, encoding, done) {
      pieces.push((chunk as Buffer | string).length);
      original.call(this, chunk, encoding, done);
    };
    async function* body() {
      // One 40 KB chunk, as a body already in memory arrives.
      yield Buffer.from(`ref,name,kind,lat,lng\n${'x\n'.repeat(20_500)}`);
    }
    await expect(
      readCsvRows(body(), 10 * 1024 * 1024).finally(() => {
        Parser.prototype._transform = original;
      }),
    ).rejects.toMatchObject({ status: 413 });
    expect(pieces.length).toBeGreaterThan(1);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(1024);
  });
});
