import { Link } from '../../../lib/app-link';
import { compareHref, MAX_COMPARE, MIN_COMPARE } from '../utils/compare-param';
import { t } from '../../../lib/i18n';

/** "3 selected · Compare 3 · Clear": what table rows chosen for Compare lead to. */
export function CompareSelectionBar({
  selected,
  onClear,
}: {
  selected: readonly string[];
  onClear: () => void;
}) {
  const ready = selected.length >= MIN_COMPARE && selected.length <= MAX_COMPARE;
  return (
    <div className="compare-bar" aria-live="polite">
      <span className="muted">
        {selected.length === 0
          ? t('table.compareHint', { min: MIN_COMPARE, max: MAX_COMPARE })
          : `${t('table.selected', { count: selected.length })}${selected.length > MAX_COMPARE ? t('table.atMost', { max: MAX_COMPARE }) : ''}`}
      </span>
      {ready ? (
        <Link className="button" to={compareHref(selected)}>
          {t('table.compareCount', { count: selected.length })}
        </Link>
      ) : null}
      {selected.length > 0 ? (
        <button type="button" className="link-button" onClick={onClear}>
          {t('table.clearSelection')}
        </button>
      ) : null}
    </div>
  );
}
