import { useCallback, useEffect, useId, useState } from 'react';
import { compareTiers, tierLabel } from '../../../../shared/tiers';
import { tierClass } from '../../../components/tier-badge';
import { clampLimit, MAX_LIMIT, type HotspotFilters } from '../utils/filters';

/** Commits the row count after a pause, on Enter or on leaving the field, not on each keystroke:
 * every distinct limit is a distinct request, and the upstream budget is small. */
const LIMIT_COMMIT_MS = 700;

export function HotspotFilterBar({
  filters,
  tierOptions,
  tiersLoading = false,
  onChange,
}: {
  filters: HotspotFilters;
  /** Labels actually present in the data (plus any selected), in any order. */
  tierOptions: readonly string[];
  /** The data that names the tiers is still loading: not the same as "no tiers". */
  tiersLoading?: boolean;
  onChange: (change: Partial<HotspotFilters>) => void;
}) {
  const id = useId();
  const options = [...new Set([...tierOptions, ...filters.tiers])].sort(compareTiers);

  const commitLimit = useCallback((limit: number) => onChange({ limit }), [onChange]);

  const toggleTier = (label: string, checked: boolean) => {
    const next = checked ? [...filters.tiers, label] : filters.tiers.filter((t) => t !== label);
    onChange({ tiers: [...new Set(next)].sort() });
  };

  return (
    <div className="filter-bar">
      <fieldset className="tier-filter">
        <legend>Tier</legend>
        {options.length === 0 && tiersLoading ? (
          <span className="skeleton-inline" role="status">
            Loading tiers…
          </span>
        ) : options.length === 0 ? (
          <span className="muted">No tiers in the data</span>
        ) : null}
        {options.map((label) => (
          <label key={label} className="tier-check">
            <input
              type="checkbox"
              checked={filters.tiers.includes(label)}
              onChange={(event) => toggleTier(label, event.target.checked)}
            />
            <span className={`swatch ${tierClass(label)}`} aria-hidden="true" />
            <span>{tierLabel(label)}</span>
          </label>
        ))}
        {filters.tiers.length > 0 ? (
          <button type="button" className="link-button" onClick={() => onChange({ tiers: [] })}>
            All tiers
          </button>
        ) : null}
      </fieldset>
      {/* Keyed by the URL's value: when it changes from elsewhere (Back, a pasted link), the
          field starts again from it. */}
      <LimitField
        key={filters.limit}
        id={`${id}-limit`}
        limit={filters.limit}
        onCommit={commitLimit}
      />
      <div className="field field-grow">
        <label htmlFor={`${id}-q`}>Search country</label>
        <input
          id={`${id}-q`}
          type="search"
          placeholder="Name or ISO code"
          value={filters.q}
          onChange={(event) => onChange({ q: event.target.value })}
        />
      </div>
    </div>
  );
}

function LimitField({
  id,
  limit,
  onCommit,
}: {
  id: string;
  limit: number;
  onCommit: (limit: number) => void;
}) {
  const [text, setText] = useState(String(limit));

  const commit = (value: string) => {
    const next = clampLimit(Number(value));
    if (next !== limit) onCommit(next);
    else setText(String(limit));
  };

  useEffect(() => {
    if (text === String(limit) || text.trim() === '') return;
    const timer = setTimeout(() => {
      const next = clampLimit(Number(text));
      if (next !== limit) onCommit(next);
    }, LIMIT_COMMIT_MS);
    return () => clearTimeout(timer);
  }, [text, limit, onCommit]);

  return (
    <div className="field">
      <label htmlFor={id}>Rows (1–{MAX_LIMIT})</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_LIMIT}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => commit(text)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit(text);
        }}
      />
    </div>
  );
}
