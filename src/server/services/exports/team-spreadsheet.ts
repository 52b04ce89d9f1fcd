import type { TeamIndexNote } from '../../../shared/team-index-api.js';
import { spreadsheetCell, spreadsheetTime } from '../../../shared/spreadsheet-cell.js';
import { tierLabel } from '../../../shared/tiers.js';
import { displayName } from '../reference/display-names.js';
import { outputsIn, type Outputs } from '../../../shared/i18n/outputs/translate.js';
import { batchStamp, csv, humanLabel, safeText, sheetHeader } from './spreadsheet-csv.js';

/** A country row in the team view (services/team-index/team-view.ts `teamRow`). */
export interface TeamSheetRow {
  iso: string;
  name?: string | null;
  risk?: number | null;
  tier?: string | null;
  tier_source?: string;
  provider?: { risk: number | null; tier: string | null };
  override?: { reason: string; expires: string; set_by: string } | null;
}

/** The columns, as keys of the `outputs` catalogue's `sheet` (the header row's language). */
const TEAM_COLUMNS = [
  'teamRank',
  'country',
  'iso',
  'teamIndex',
  'teamTier',
  'teamTierFrom',
  'overrideReason',
  'overrideExpires',
  'overrideSetBy',
  'providerRisk',
  'providerTier',
  'teamWeights',
  'generated',
  'batchId',
] as const;

/** "Logistics view (version 3): security 2, economic 1" (categories weighted above 0). */
function weightsText(index: TeamIndexNote): string {
  const parts = Object.entries(index.weights)
    .filter(([, weight]) => weight > 0)
    .map(([name, weight]) => `${humanLabel(name).toLowerCase()} ${weight}`);
  return `${index.name} (version ${index.version}): ${parts.join(', ')}`;
}

/**
 * The team view as a spreadsheet (issue 31): every country matching `tiers` (the team tier),
 * ranked by the team index, the provider's risk and tier beside it in columns of their own and
 * the weights on every row, so a file passed on still says whose index it is. Text cells carry
 * the formula guard every CSV of the project shares (an override's reason is a person's text).
 */
export function teamCountriesCsv(
  asOf: string,
  rows: readonly TeamSheetRow[],
  index: TeamIndexNote,
  tiers: readonly string[],
  batchId: string | null,
  /** The header row's language (issue 34); the cells stay machine-readable. */
  o: Outputs = outputsIn('en'),
): Buffer {
  const ranked = [...rows].sort((a, b) => (b.risk ?? -Infinity) - (a.risk ?? -Infinity));
  const weights = safeText(weightsText(index));
  const lines = ranked.flatMap((row, rank) => {
    if (tiers.length > 0 && !tiers.includes(row.tier ?? '')) return [];
    return [
      [
        typeof row.risk === 'number' ? rank + 1 : '',
        safeText(displayName(row.iso, row.name ?? null)),
        safeText(row.iso.toUpperCase()),
        spreadsheetCell(row.risk),
        safeText(row.tier ? tierLabel(row.tier) : ''),
        row.tier_source === 'override' ? 'Override' : 'Team index band',
        safeText(row.override?.reason ?? ''),
        spreadsheetTime(row.override?.expires ?? null),
        safeText(row.override?.set_by ?? ''),
        spreadsheetCell(row.provider?.risk),
        safeText(row.provider?.tier ? tierLabel(row.provider.tier) : ''),
        weights,
        spreadsheetTime(asOf),
        safeText(batchId ?? ''),
      ],
    ];
  });
  return csv(sheetHeader(TEAM_COLUMNS, o), lines);
}

/** `global-risk-team-index-2026-11-22-1000[-UKR|-crit-high].csv`. */
export function teamFileName(asOf: string, parts: readonly string[]): string {
  return `${['global-risk-team-index', batchStamp(asOf) ?? 'latest', ...parts].join('-')}.csv`;
}
