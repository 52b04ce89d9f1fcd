import { Link } from '../../../lib/app-link';
import { compareHref, MAX_COMPARE, MIN_COMPARE } from '../utils/compare-param';

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
          ? `Select ${MIN_COMPARE} to ${MAX_COMPARE} rows to compare.`
          : `${selected.length} selected${selected.length > MAX_COMPARE ? ` (at most ${MAX_COMPARE})` : ''}`}
      </span>
      {ready ? (
        <Link className="button" to={compareHref(selected)}>
          Compare {selected.length}
        </Link>
      ) : null}
      {selected.length > 0 ? (
        <button type="button" className="link-button" onClick={onClear}>
          Clear selection
        </button>
      ) : null}
    </div>
  );
}
