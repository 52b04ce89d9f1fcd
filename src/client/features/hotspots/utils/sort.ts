import type { Hotspot } from '../../../../shared/schemas/hotspot';
import { compareTiers } from '../../../../shared/tiers';
import type { SortDir, SortKey } from './filters';

export interface RankedHotspot extends Hotspot {
  /** Position in the upstream's order (1 = top hotspot); kept when the table is re-sorted. */
  rank: number;
  /** Rank in the whole run (what "#" shows), null when unknown (tier-filtered, batch not loaded). */
  overallRank: number | null;
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
    default: {
      const value = row[key];
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    }
  }
}

/** Sorted copy; missing values always go last, whichever the direction. */
export function sortHotspots(
  rows: readonly RankedHotspot[],
  key: SortKey,
  dir: SortDir,
): RankedHotspot[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = valueOf(a, key);
    const vb = valueOf(b, key);
    if (va === null || vb === null) {
      return va === vb ? a.rank - b.rank : va === null ? 1 : -1;
    }
    let order: number;
    // Tier order is severity: "larger" is more severe, so descending puts crit first.
    if (key === 'tier') order = compareTiers(String(vb), String(va));
    else if (typeof va === 'number' && typeof vb === 'number') order = va - vb;
    else order = String(va).localeCompare(String(vb));
    return order === 0 ? a.rank - b.rank : sign * order;
  });
}

/** Numbers read best largest first; text A to Z. */
export function defaultDir(key: SortKey): SortDir {
  return key === 'rank' || key === 'name' || key === 'profile' ? 'asc' : 'desc';
}
