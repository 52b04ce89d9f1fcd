import { compareTiersOn, tierTone } from '../../../../shared/tier-scale';
import { isKnownTier } from '../../../../shared/tiers';
import { useTierScale } from '../../../lib/tier-scale';
import { tierWord } from '../../../lib/tier-words';
import { t } from '../../../lib/i18n';

/** What the colours and sizes mean; tiers listed are the ones in the data, unknown ones too. */
export function MapLegend({
  tiers,
  showMarkers,
  showSites = false,
}: {
  tiers: readonly string[];
  showMarkers: boolean;
  /** Our sites are drawn: say what their squares and numbered discs mean. */
  showSites?: boolean;
}) {
  const scale = useTierScale(tiers.some((tier) => !isKnownTier(tier)));
  const ordered = [...new Set(tiers)].sort(compareTiersOn(scale));
  const learned = ordered.some((tier) => scale.learned.includes(tier));
  return (
    <ul className="map-legend" aria-label={t('overview.mapLegend')}>
      {ordered.map((tier) => (
        <li key={tier}>
          <span className={`swatch ${tierTone(tier, scale).className}`} aria-hidden="true" />
          {tierWord(tier)}
        </li>
      ))}
      {learned ? <li className="legend-note">{t('map.learnedTiers')}</li> : null}
      <li>
        <span className="swatch swatch-nodata" aria-hidden="true" />
        {t('overview.noCurrentData')}
      </li>
      {showMarkers ? (
        <li>
          <span className="legend-markers" aria-hidden="true">
            <span className="legend-dot small" />
            <span className="legend-dot large" />
          </span>
          {t('overview.hotspotSize')}
        </li>
      ) : null}
      {showSites ? (
        <>
          <li>
            <span className="legend-site" aria-hidden="true" />
            {t('map.legendSite')}
          </li>
          <li>
            <span className="legend-cluster" aria-hidden="true">
              12
            </span>
            {t('map.legendCluster')}
          </li>
        </>
      ) : null}
    </ul>
  );
}
