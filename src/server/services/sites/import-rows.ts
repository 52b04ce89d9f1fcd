import { parse } from 'csv-parse/sync';
import countryCodes from 'i18n-iso-countries';
import { DEFAULT_SITE_ALERT, SITES_MAX } from '../../../shared/sites-api.js';
import { formulaProblem } from '../../../shared/spreadsheet-cell.js';
import { ApiProblem } from '../api-problem.js';

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

// Drops a leading byte-order mark itself (Excel's "CSV UTF-8" writes one).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A CSV file's rows: UTF-8 with or without a byte-order mark, comma or semicolon (whichever the
 * header row uses more), header names in any case with the usual synonyms. Refused whole, in
 * words, when it is not UTF-8, has no header we know, or has more rows than sites may exist.
 */
export function csvRows(body: Buffer): RawRow[] {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiProblem(
      415,
      'The file is not UTF-8 text: save it from your spreadsheet as "CSV UTF-8" and import it again',
    );
  }
  const headerLine = text.slice(0, text.search(/\r?\n|$/));
  const semicolons = headerLine.split(';').length;
  const delimiter = semicolons > headerLine.split(',').length ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      bom: false,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ApiProblem(
      400,
      `The file could not be read as CSV${line ? ` (near line ${line})` : ''}: check its quotes`,
    );
  }
  const [header, ...data] = records;
  if (!header)
    throw new ApiProblem(400, 'The file is empty: it needs a header row and one site a row');
  const fields = header.map(fieldOf);
  if (data.length === 0) {
    throw new ApiProblem(400, 'The file has a header row but no sites under it');
  }
  const missing = REQUIRED.filter((name) => !fields.includes(name));
  if (missing.length > 0) {
    throw new ApiProblem(
      400,
      `The header row lacks ${missing.join(', ')} (columns: ref, name, kind, lat or latitude, lng or longitude, and optionally country, people or headcount, value, currency, tags, from, to, alert_on, alert_radius_km, alert_min_delta)`,
    );
  }
  tooMany(data.length);
  const decimalComma = delimiter === ';';
  return data.map((cells, index) => {
    const row: RawRow = { row: index + 2, fields: {}, problem: null };
    cells.forEach((cell, column) => {
      const field = fields[column];
      if (!field || cell === '' || row.problem !== null) return;
      row.problem = formulaProblem(field, cell);
      row.fields[field] = typed(field, cell, decimalComma);
    });
    return withAlert(row);
  });
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
