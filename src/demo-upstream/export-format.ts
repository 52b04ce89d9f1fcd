import { stringify } from 'csv-stringify/sync';
import { CATEGORY_NAMES } from '../shared/categories.js';
import type { Batch, CountryOut } from './payload-types.js';
import { SCORE_FIELDS } from '../shared/score-fields.js';

/** The bulk export in two formats (docs/upstream-gaps.md fixes the CSV columns and comments). */

const SCORE_COLUMNS = [
  'iso',
  'name',
  'lat',
  'lng',
  ...SCORE_FIELDS,
  'confidence',
  'profile',
  'threat_vectors',
  'source_count',
] as const;
const CATEGORY_PARTS = ['score', 'static', 'active', 'weight'] as const;

export const CSV_COLUMNS: readonly string[] = [
  ...SCORE_COLUMNS,
  ...CATEGORY_NAMES.flatMap((name) => CATEGORY_PARTS.map((part) => `${name}_${part}`)),
];

function csvRow(country: CountryOut): Array<string | number> {
  const row: Array<string | number> = SCORE_COLUMNS.map((column) =>
    column === 'threat_vectors' ? country.threat_vectors.join(';') : country[column],
  );
  for (const name of CATEGORY_NAMES) {
    for (const part of CATEGORY_PARTS) row.push(country.categories[name][part]);
  }
  return row;
}

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break. */
export function exportCsv(batch: Batch): string {
  const { counts } = batch;
  const comments = [
    `# generated_at: ${batch.asOf}`,
    `# methodology_version: ${batch.methodologyVersion}`,
    `# global_ggri: ${batch.global.ggri}`,
    `# counts: countries=${counts.countries}; crit=${counts.crit}; high=${counts.high}; mod=${counts.mod}; low=${counts.low}`,
  ];
  const table = stringify(batch.countries.map(csvRow), {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
  });
  return `${comments.join('\r\n')}\r\n${table}`;
}

/** The whole latest-state payload, pretty-printed. */
export function exportJson(batch: Batch): string {
  const payload = {
    ok: true,
    as_of: batch.asOf,
    methodology_version: batch.methodologyVersion,
    global: batch.global,
    counts: batch.counts,
    countries: batch.countries,
    feed_history: batch.feedHistory,
    sources: batch.sources,
  };
  return `${JSON.stringify(payload, null, 2)}\n`;
}

export function exportFileName(now: number, extension: 'csv' | 'json'): string {
  return `ggri-export-${new Date(now).toISOString().slice(0, 10)}.${extension}`;
}
