import type { PathOptions } from 'leaflet';
import type { CountrySummary } from '../../../../shared/bff-api';
import { tierTone, type TierScale } from '../../../../shared/tier-scale';
import { tierForRisk } from '../../../../shared/tiers';
import { formatScore } from '../../../lib/format';
import { headlineChangeText } from '../../../lib/headline-change-text';
import { displayName } from '../../../lib/display-name';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

/**
 * The tier a country is coloured by: its own label when the data has one, otherwise the
 * methodology's band for its risk; null when neither is known.
 */
export function colourTier(row: Pick<CountrySummary, 'tier' | 'risk'>): string | null {
  if (row.tier) return row.tier;
  return typeof row.risk === 'number' ? tierForRisk(row.risk) : null;
}

/** While the batch loads, shapes are plain (no hatch): "no current data" is not known yet. */
export function pendingShapeStyle(withTiles: boolean): PathOptions {
  return { className: 'shape shape-pending', weight: 0.6, fillOpacity: withTiles ? 0.3 : 0.9 };
}

export function shapeStyle(
  row: CountrySummary | undefined,
  withTiles: boolean,
  tiers: TierScale,
): PathOptions {
  const fillOpacity = withTiles ? 0.55 : 0.9;
  const tier = row ? colourTier(row) : null;
  if (!row || tier === null) {
    // The fill comes from CSS (a hatch pattern), so "no current data" never looks like a tier.
    return { className: 'shape shape-nodata', weight: 0.6, fillOpacity };
  }
  return {
    className: 'shape shape-data',
    weight: 0.6,
    fillColor: tierTone(tier, tiers).fill,
    fillOpacity,
  };
}

/** Tooltip content as DOM built with textContent: names come from the API, never as HTML. */
export function shapeTooltip(
  name: string,
  row: CountrySummary | undefined,
  pending = false,
  /** The risk change since the batch recorded before (null: not recorded here). */
  recordedDelta: number | null = null,
): HTMLElement {
  const box = document.createElement('div');
  const title = document.createElement('strong');
  title.textContent = row ? displayName(row.iso, row.name) : name;
  box.append(title);
  const line = (text: string) => {
    const p = document.createElement('div');
    p.textContent = text;
    box.append(p);
  };
  if (!row) {
    line(pending ? t('map.loadingData') : t('overview.noCurrentData'));
    return box;
  }
  const tier = row.tier ? tierWord(row.tier) : t('map.tierNa');
  line(t('map.riskTier', { risk: formatScore(row.risk), tier }));
  const change = headlineChangeText(row.delta_headline, recordedDelta);
  if (change) line(change);
  line(t('map.clickToOpen'));
  return box;
}
