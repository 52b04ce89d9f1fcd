import type { Hotspot } from '../../../../shared/schemas/hotspot';
import { compareTiers } from '../../../../shared/tiers';
import { headlineChange } from '../../../../shared/headline-change';
import { sortRows, type DataColumn } from '../../../components/data-table';
import type { SortDir, SortKey } from './filters';

export interface RankedHotspot extends Hotspot {
  /** Position in the upstream's order (1 = top hotspot); kept when the table is re-sorted. */
  rank: number;
  /** Rank in the whole run (what "#" shows), null when unknown (tier-filtered, batch not loaded). */
  overallRank: number | null;
  /** Risk change since the batch recorded before this one, by this dashboard (null: none). */
  recordedDelta: number | null;
}

type Value = number | string | null;

function valueOf(row: RankedHotspot, key: SortKey): Value {
  switch (key) {
    case 'name':
      return row.name;
    case 'profile':
      return row.profile ?? null;
    case 'tier':
      return row.tier ?? null;
    case 'delta_headline':
      // Sorted by the figure the column shows: ours where recorded (issue 33).
      return headlineChange(row.delta_headline, row.recordedDelta).value;
    default: {
      const value = row[key];
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    }
  }
}

/** Numbers read best largest first; text A to Z. */
export function defaultDir(key: SortKey): SortDir {
  return key === 'rank' || key === 'name' || key === 'profile' ? 'asc' : 'desc';
}

/** How a hotspot column sorts: its value, its order (tiers by severity) and first direction. */
export function hotspotSortColumn(
  key: SortKey,
): Pick<DataColumn<RankedHotspot>, 'sortValue' | 'compare' | 'firstDir'> {
  return {
    sortValue: (row) => valueOf(row, key),
    // Tier order is severity: "larger" is more severe, so descending puts crit first.
    compare: key === 'tier' ? (a, b) => compareTiers(String(b), String(a)) : undefined,
    firstDir: defaultDir(key),
  };
}

/** Sorted copy; missing values always go last, whichever the direction; ties keep the rank. */
export function sortHotspots(
  rows: readonly RankedHotspot[],
  key: SortKey,
  dir: SortDir,
): RankedHotspot[] {
  const byRank = [...rows].sort((a, b) => a.rank - b.rank);
  return sortRows(byRank, [{ key, label: key, cell: () => null, ...hotspotSortColumn(key) }], {
    key,
    dir,
  });
}
