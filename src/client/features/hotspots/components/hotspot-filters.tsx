import { startTransition, useCallback, useEffect, useId, useOptimistic, useState } from 'react';
import { TierFilter } from '../../../components/tier-filter';
import { clampLimit, MAX_LIMIT, type HotspotFilters } from '../utils/filters';
import { CountrySearchField } from '../../../components/country-name-cell';
import { t } from '../../../lib/i18n';

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
  /** Puts the change in the URL; the promise settles when the router has it. */
  onChange: (change: Partial<HotspotFilters>) => Promise<void>;
}) {
  const id = useId();
  const commitLimit = useCallback((limit: number) => void onChange({ limit }), [onChange]);
  // The boxes and the search show a change at once (within the event: a controlled input would
  // otherwise spring back, and the caret jump), while the URL and everything it drives follow
  // as a transition; a later change starts from what is shown, so a quick second click keeps
  // the first.
  const [shown, showChange] = useOptimistic(
    filters,
    (current, change: Partial<HotspotFilters>) => ({ ...current, ...change }),
  );
  const change = (next: Partial<HotspotFilters>) =>
    startTransition(async () => {
      showChange(next);
      await onChange(next);
    });

  return (
    <div className="filter-bar">
      <TierFilter
        selected={shown.tiers}
        options={tierOptions}
        loading={tiersLoading}
        onChange={(tiers) => change({ tiers })}
      />
      {/* Keyed by the URL's value: when it changes from elsewhere (Back, a pasted link), the
          field starts again from it. */}
      <LimitField
        key={filters.limit}
        id={`${id}-limit`}
        limit={filters.limit}
        onCommit={commitLimit}
      />
      <CountrySearchField id={`${id}-q`} value={shown.q} onChange={(q) => change({ q })} />
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
      <label htmlFor={id}>{t('hotspots.rows', { max: MAX_LIMIT })}</label>
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
