import type { DivIcon } from 'leaflet';
import { tierTone, type TierScale } from '../../../../shared/tier-scale';
import { formatScore } from '../../../lib/format';
import { LabelledIcon } from './labelled-icon';
import { markerSize } from '../../../../shared/world-view';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

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
