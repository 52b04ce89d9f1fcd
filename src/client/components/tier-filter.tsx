import { compareTiersOn, tierTone } from '../../shared/tier-scale';
import { useTierScale } from '../lib/tier-scale';
import { tierWord } from '../lib/tier-words';
import { t } from '../lib/i18n';

/**
 * Tier checkboxes, most severe first (the overview's tables): the labels present in the data plus
 * any selected, so a filter from a link stays visible and can be cleared.
 */
export function TierFilter({
  selected,
  options,
  loading = false,
  onChange,
}: {
  /** Selected tier labels; empty means all tiers. */
  selected: readonly string[];
  /** Labels present in the data, in any order. */
  options: readonly string[];
  /** The data that names the tiers is still loading: not the same as "no tiers". */
  loading?: boolean;
  /** The new selection, sorted and without repeats. */
  onChange: (tiers: string[]) => void;
}) {
  const scale = useTierScale(false);
  const labels = [...new Set([...options, ...selected])].sort(compareTiersOn(scale));
  const toggle = (label: string, checked: boolean) => {
    const next = checked ? [...selected, label] : selected.filter((t) => t !== label);
    onChange([...new Set(next)].sort());
  };
  return (
    <fieldset className="tier-filter">
      <legend>{t('table.tier')}</legend>
      {labels.length === 0 && loading ? (
        <span className="skeleton-inline" role="status">
          {t('table.loadingTiers')}
        </span>
      ) : labels.length === 0 ? (
        <span className="muted">{t('table.noTiers')}</span>
      ) : null}
      {labels.map((label) => (
        <label key={label} className="tier-check">
          <input
            type="checkbox"
            checked={selected.includes(label)}
            onChange={(event) => toggle(label, event.target.checked)}
          />
          <span className={`swatch ${tierTone(label, scale).className}`} aria-hidden="true" />
          <span>{tierWord(label)}</span>
        </label>
      ))}
      {selected.length > 0 ? (
        <button type="button" className="link-button" onClick={() => onChange([])}>
          {t('table.allTiers')}
        </button>
      ) : null}
    </fieldset>
  );
}
