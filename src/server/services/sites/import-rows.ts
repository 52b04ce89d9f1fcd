import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import countryCodes from 'i18n-iso-countries';
import { DEFAULT_SITE_ALERT, SITES_MAX } from '../../../shared/sites-api.js';
import { formulaProblem } from '../../../shared/spreadsheet-cell.js';
import { ApiProblem } from '../api-problem.js';
import { TimeSlice } from '../../work/time-slice.js';

/** One row of an import before validation: its row number and the fields it named. */
export interface RawRow {
  /** The spreadsheet's row number (the header is row 1), or the JSON array's position from 1. */
  row: number;
  fields: Record<string, unknown>;
  /** Why the row cannot be read at all (a formula cell); checked before anything else. */
  problem: string | null;
}

/** Header names (lower case, spaces and dashes as `_`) → the site's field. */
const SYNONYMS: Record<string, string> = {
  ref: 'ref',
  reference: 'ref',
  site_ref: 'ref',
  id: 'ref',
  name: 'name',
  site: 'name',
  site_name: 'name',
  kind: 'kind',
  type: 'kind',
  lat: 'lat',
  latitude: 'lat',
  lng: 'lng',
  lon: 'lng',
  long: 'lng',
  longitude: 'lng',
  iso: 'iso',
  iso3: 'iso',
  country: 'iso',
  country_code: 'iso',
  people: 'people',
  headcount: 'people',
  staff: 'people',
  value: 'value',
  currency: 'currency',
  tags: 'tags',
  tag: 'tags',
  from: 'from',
  to: 'to',
  // The site rule (shared/sites-api.ts siteAlertSchema): a JSON object, or its three columns.
  alert: 'alert',
  alert_on: 'alert_on',
  alert_radius_km: 'alert_radius_km',
  alert_radius: 'alert_radius_km',
  alert_min_delta: 'alert_min_delta',
  // The site's version when it was read (GET /api/sites): checked, never stored.
  version: 'version',
  site_version: 'version',
};
const NUMERIC = new Set([
  'lat',
  'lng',
  'people',
  'value',
  'alert_radius_km',
  'alert_min_delta',
  'version',
]);
const YES = new Set(['true', 'yes', 'y', 'on', '1']);
const NO = new Set(['false', 'no', 'n', 'off', '0']);
const REQUIRED = ['ref', 'name', 'kind', 'lat', 'lng'];

function fieldOf(header: string): string | null {
  const key = header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return SYNONYMS[key] ?? null;
}

/** `52,23` in a semicolon file is 52.23 (a decimal comma); anything else that is not a number stays text (and fails validation in words). */
function numberOf(text: string, decimalComma: boolean): number | string {
  const plain = decimalComma && /^-?\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(plain)) return text;
  return Number(plain);
}

/** `UA` or `ukr` → `UKR`; anything else passes on for validation to name. */
function countryCode(text: string): string {
  if (/^[A-Za-z]{2}$/.test(text)) return countryCodes.alpha2ToAlpha3(text.toUpperCase()) ?? text;
  return text;
}

function typed(field: string, text: string, decimalComma: boolean): unknown {
  if (NUMERIC.has(field)) return numberOf(text, decimalComma);
  if (field === 'tags') {
    return text
      .split(/[,;|]/)
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  }
  if (field === 'iso') return countryCode(text);
  if (field === 'alert_on') {
    const word = text.toLowerCase();
    return YES.has(word) ? true : NO.has(word) ? false : text;
  }
  return text;
}

/**
 * The rule's columns (alert_on, alert_radius_km, alert_min_delta) folded into the `alert` object
 * the site schema checks; a column left out takes the default (on, 100 km, 10 points).
 */
function withAlert(row: RawRow): RawRow {
  const { alert_on: on, alert_radius_km: radius, alert_min_delta: delta, ...rest } = row.fields;
  if (on === undefined && radius === undefined && delta === undefined) return row;
  const given = rest.alert;
  const base =
    given !== null && typeof given === 'object' && !Array.isArray(given)
      ? (given as Record<string, unknown>)
      : DEFAULT_SITE_ALERT;
  rest.alert = {
    ...base,
    ...(on === undefined ? {} : { on }),
    ...(radius === undefined ? {} : { radius_km: radius }),
    ...(delta === undefined ? {} : { min_delta: delta }),
  };
  return { ...row, fields: rest };
}

/** Columns a row of an import may have: the site's 18 fields, with room for a spreadsheet's own. */
export const IMPORT_MAX_COLUMNS = 1_000;
/** Characters one row (or one cell) of an import may hold: a row of a real sheet is under 1 KB. */
export const IMPORT_MAX_ROW_CHARS = 64 * 1024;

/**
 * Characters handed to csv-parse at once: it parses a piece in one go, and for every row whose
 * length differs from the header's it builds a CsvError (stack trace and all) even with
 * relax_column_count. 16 KB of one-character rows was 8,192 such errors in one stretch: the
 * 10 MB upload's 200 ms on a quiet machine (issue 29, found with GRD_BENCH_CPU_PROF). 1 KB holds
 * at most 512 rows (~20 ordinary ones); reading 20,001 such rows, the longest CPU between two
 * event-loop turns fell from 170-270 ms (16 KB) to 24-38 ms at load 10-15 (2 KB: 41-73 ms).
 */
const PARSE_PIECE_CHARS = 1024;

const notUtf8 = () =>
  new ApiProblem(
    415,
    'The file is not UTF-8 text: save it from your spreadsheet as "CSV UTF-8" and import it again',
  );

/** The refusal of a body past `maxBytes` (the route refuses a declared length before this). */
export function tooLargeProblem(maxBytes: number): ApiProblem {
  const mb = Math.round(maxBytes / 1024 / 1024);
  return new ApiProblem(
    413,
    `The file is larger than ${mb} MB, the most one import takes: split it into several files`,
  );
}

/** The delimiter a header row uses more: comma or semicolon. */
function delimiterOf(text: string): ',' | ';' {
  const headerLine = text.slice(0, text.search(/\r?\n|$/));
  return headerLine.split(';').length > headerLine.split(',').length ? ';' : ',';
}

function csvOptions(delimiter: string) {
  return {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
    bom: false,
    // A row (or a quote never closed) longer than this stops the parse as it is read.
    max_record_size: IMPORT_MAX_ROW_CHARS,
  };
}

/** A csv-parse failure in words: a row too long is a 413, anything else a 400. */
function csvProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  const { code, lines } = error as { code?: string; lines?: number };
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new ApiProblem(
      413,
      `Row ${lines ?? '?'} of the file is longer than ${IMPORT_MAX_ROW_CHARS / 1024} KB (more than ${IMPORT_MAX_COLUMNS} columns, or a quote never closed): an import row is one site`,
    );
  }
  return new ApiProblem(
    400,
    `The file could not be read as CSV${lines ? ` (near line ${lines})` : ''}: check its quotes`,
  );
}

/**
 * Turns CSV records into rows one at a time, so each limit is applied as the file is read: the
 * 1,001st column or the 20,001st row refuses the file before another byte of it is parsed.
 */
class CsvRowCollector {
  #fields: (string | null)[] | null = null;
  readonly rows: RawRow[] = [];

  constructor(private readonly decimalComma: boolean) {}

  add(cells: string[]): void {
    if (cells.length > IMPORT_MAX_COLUMNS) {
      throw new ApiProblem(
        413,
        `Row ${this.rows.length + (this.#fields ? 2 : 1)} of the file has more than ${IMPORT_MAX_COLUMNS} columns; an import needs ref, name, kind, lat and lng (and a few optional ones)`,
      );
    }
    if (!this.#fields) {
      this.#fields = cells.map(fieldOf);
      return;
    }
    const fields = this.#fields;
    if (this.rows.length === 0) {
      const missing = REQUIRED.filter((name) => !fields.includes(name));
      if (missing.length > 0) {
        throw new ApiProblem(
          400,
          `The header row lacks ${missing.join(', ')} (columns: ref, name, kind, lat or latitude, lng or longitude, and optionally country, people or headcount, value, currency, tags, from, to, alert_on, alert_radius_km, alert_min_delta)`,
        );
      }
    }
    if (this.rows.length >= SITES_MAX) {
      throw new ApiProblem(
        413,
        `The file has more than ${SITES_MAX} rows; an import takes at most ${SITES_MAX} (the most sites there may be): split it`,
      );
    }
    const row: RawRow = { row: this.rows.length + 2, fields: {}, problem: null };
    cells.forEach((cell, column) => {
      const field = fields[column];
      if (!field || cell === '' || row.problem !== null) return;
      row.problem = formulaProblem(field, cell);
      row.fields[field] = typed(field, cell, this.decimalComma);
    });
    this.rows.push(withAlert(row));
  }

  finish(): RawRow[] {
    if (!this.#fields) {
      throw new ApiProblem(400, 'The file is empty: it needs a header row and one site a row');
    }
    if (this.rows.length === 0) {
      throw new ApiProblem(400, 'The file has a header row but no sites under it');
    }
    return this.rows;
  }
}

/**
 * A CSV file's rows: UTF-8 with or without a byte-order mark, comma or semicolon (whichever the
 * header row uses more), header names in any case with the usual synonyms. Refused whole, in
 * words, when it is not UTF-8, has no header we know, or has more rows or columns than an import
 * takes. For files the server made itself (the demo's sites); uploads go through readCsvRows.
 */
export function csvRows(body: Buffer): RawRow[] {
  let text: string;
  try {
    // Drops a leading byte-order mark itself (Excel's "CSV UTF-8" writes one).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw notUtf8();
  }
  const delimiter = delimiterOf(text);
  const collector = new CsvRowCollector(delimiter === ';');
  try {
    for (const cells of parseSync(text, csvOptions(delimiter)) as string[][]) collector.add(cells);
  } catch (error) {
    throw csvProblem(error);
  }
  return collector.finish();
}

/**
 * An uploaded CSV file's rows, read as a stream with every limit applied while reading (issue 29):
 * more than `maxBytes`, a row longer than IMPORT_MAX_ROW_CHARS, a 1,001st column or a 20,001st
 * row stop the parse at once with a 413, so a hostile file costs what was read up to that point,
 * never the whole file. Parsing yields the event loop between slices (work/time-slice.ts).
 * The body is left unread after a refusal, never destroyed: the answer still has to go out on
 * its connection (the route closes that connection after it).
 */
export async function readCsvRows(
  body: AsyncIterable<Buffer | string>,
  maxBytes: number,
): Promise<{ rows: RawRow[]; bytes: number }> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const chunks = body[Symbol.asyncIterator]();
  let bytes = 0;
  let ended = false;
  const nextText = async (): Promise<string | null> => {
    const next = await chunks.next();
    try {
      if (next.done) {
        ended = true;
        return decoder.decode();
      }
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLargeProblem(maxBytes);
      return decoder.decode(chunk, { stream: true });
    } catch (error) {
      if (error instanceof ApiProblem) throw error;
      throw notUtf8();
    }
  };
  // The header row first (to tell commas from semicolons), bounded like any row.
  let head = '';
  while (!ended && !/\r?\n/.test(head) && head.length <= IMPORT_MAX_ROW_CHARS) {
    head += (await nextText()) ?? '';
  }
  const delimiter = delimiterOf(head);
  const collector = new CsvRowCollector(delimiter === ';');
  const slice = new TimeSlice();
  try {
    await pipeline(
      async function* text() {
        let more: string | null = head;
        for (;;) {
          // A large chunk (a body already in memory) is parsed a piece at a time: csv-parse
          // parses whatever it is given in one go, and the rows' loop yields between pieces.
          for (let at = 0; more && at < more.length; at += PARSE_PIECE_CHARS) {
            yield more.slice(at, at + PARSE_PIECE_CHARS);
          }
          if (ended) return;
          more = await nextText();
        }
      },
      parse(csvOptions(delimiter)),
      async (records: AsyncIterable<string[]>) => {
        for await (const cells of records) {
          collector.add(cells);
          await slice.pause();
        }
      },
    );
  } catch (error) {
    throw csvProblem(error);
  }
  return { rows: collector.finish(), bytes };
}

/** A JSON array of site objects (the same field names and synonyms as the CSV headers). */
export function jsonRows(body: unknown): RawRow[] {
  if (!Array.isArray(body)) {
    throw new ApiProblem(
      400,
      'A JSON import must be an array of sites: [{"ref": …, "name": …}, …]',
    );
  }
  // An empty import is almost always the wrong file: say so rather than answer "nothing changed".
  if (body.length === 0) throw new ApiProblem(400, 'The import lists no sites: the array is empty');
  tooMany(body.length);
  return body.map((item: unknown, index) => {
    const row: RawRow = { row: index + 1, fields: {}, problem: null };
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      row.problem = 'each item must be an object with ref, name, kind, lat and lng';
      return row;
    }
    for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
      const field = fieldOf(key);
      if (!field) {
        row.problem = `unknown field ${JSON.stringify(key.slice(0, 40))}`;
        return row;
      }
      if (value === null || value === '') continue;
      if (typeof value === 'string') {
        // Judged trimmed, as the CSV's cells are and as it is stored (" =cmd" is "=cmd").
        row.problem ??= formulaProblem(field, value);
        row.fields[field] = typed(field, value.trim(), false);
      } else {
        row.fields[field] = value;
      }
    }
    return withAlert(row);
  });
}

function tooMany(rows: number): void {
  if (rows > SITES_MAX) {
    throw new ApiProblem(
      413,
      `The file has ${rows} rows; an import takes at most ${SITES_MAX} (the most sites there may be): split it`,
    );
  }
}
