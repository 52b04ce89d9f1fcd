import { parse } from 'csv-parse/sync';
import { countrySummarySchema, type CountrySummary } from '../../../shared/bff-api.js';
import { csvComments } from './resource-specs.js';

const NUMBER_COLUMNS = new Set([
  'lat',
  'lng',
  'risk',
  'static',
  'active',
  'delta_active',
  'delta_headline',
  'confidence',
  'source_count',
]);
const CATEGORY_PART = /^([a-z0-9_]+?)[._](score|static|active|weight)$/;

export interface CsvCountries {
  asOf: string | null;
  methodologyVersion: string | null;
  globalIndex: number | null;
  countries: CountrySummary[];
}

function toNumber(raw: string): number | null {
  if (raw.trim() === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/**
 * Reads the CSV export into country summaries, tolerant as docs/upstream-gaps.md requires: columns
 * by header name (any order, extra and missing columns accepted), `.` or `_` between a category and
 * its part, `threat_vectors` split on `;`, comment lines read as `key: value` in any order. Rows
 * without an ISO code are skipped. Throws when the text is not CSV at all.
 */
export function parseCsvCountries(text: string): CsvCountries {
  const comments = csvComments(text);
  const lines = text.split(/\r?\n/);
  const firstData = lines.findIndex((line) => !line.startsWith('#'));
  const body = firstData < 0 ? '' : lines.slice(firstData).join('\n');
  const records = parse(body, {
    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[];

  const countries: CountrySummary[] = [];
  for (const record of records) {
    const row: Record<string, unknown> = {};
    const categories: Record<string, Record<string, number | null>> = {};
    for (const [header, raw] of Object.entries(record)) {
      if (raw === undefined) continue;
      // `delta.active` is the score column `delta_active` (an upstream writing `.` between a
      // category and its part may write it there too), not a category named "delta".
      const dotted = header.replace(/\./g, '_');
      const column = NUMBER_COLUMNS.has(dotted) ? dotted : header;
      const part = NUMBER_COLUMNS.has(column) ? null : CATEGORY_PART.exec(column);
      if (NUMBER_COLUMNS.has(column)) row[column] = toNumber(raw);
      else if (column === 'threat_vectors') {
        row[column] = raw
          .split(';')
          .map((item) => item.trim())
          .filter(Boolean);
      } else if (part?.[1] !== undefined && part[2] !== undefined) {
        (categories[part[1]] ??= {})[part[2]] = toNumber(raw);
      } else row[column] = raw;
    }
    if (typeof row.iso === 'string') row.iso = row.iso.trim().toUpperCase();
    if (Object.keys(categories).length > 0) row.categories = categories;
    const parsed = countrySummarySchema.safeParse(row);
    if (parsed.success) countries.push(parsed.data);
  }
  const ggri = comments.get('global_ggri');
  return {
    asOf: comments.get('generated_at') ?? null,
    methodologyVersion: comments.get('methodology_version') ?? null,
    globalIndex: ggri === undefined ? null : toNumber(ggri),
    countries,
  };
}
