import type { DivIcon } from 'leaflet';
import { tierTone, type TierScale } from '../../../../shared/tier-scale';
import { formatScore } from '../../../lib/format';
import { LabelledIcon } from './labelled-icon';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

const MIN_SIZE = 14;
const MAX_SIZE = 34;
/** Country risk runs 0–95 in the methodology; beyond that the marker simply stays largest. */
const RISK_SCALE_MAX = 95;

/** Diameter in px; `scale` shrinks markers on small maps, where full size would hide countries. */
export function markerSize(risk: number | null | undefined, scale = 1): number {
  const share = Math.min(1, Math.max(0, (risk ?? 0) / RISK_SCALE_MAX));
  // Area, not diameter, grows with risk, so big risks do not look disproportionately bigger.
  return Math.round((MIN_SIZE + (MAX_SIZE - MIN_SIZE) * Math.sqrt(share)) * scale);
}

/**
 * A focusable hotspot marker (Leaflet gives it tabindex and role="button"; Enter clicks it).
 * Its accessible name is built with textContent, never HTML, because names come from the API.
 */
export function hotspotIcon(
  hotspot: {
    iso: string;
    name: string;
    risk?: number | null;
    tier?: string | null;
  },
  scale = 1,
  tiers?: TierScale,
): DivIcon {
  const size = markerSize(hotspot.risk, scale);
  const label = document.createElement('span');
  label.className = 'visually-hidden';
  const tier = hotspot.tier ? tierWord(hotspot.tier) : t('map.tierNa');
  label.textContent = t('map.markerName', {
    name: hotspot.name,
    risk: formatScore(hotspot.risk),
    tier,
  });
  const tierClass = tierTone(hotspot.tier, tiers ?? { learned: [], medians: new Map() }).className;
  return new LabelledIcon(
    { iso: hotspot.iso.toUpperCase() },
    {
      className: `hotspot-marker ${tierClass}`,
      html: label,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
      tooltipAnchor: [size / 2, 0],
    },
  );
}
