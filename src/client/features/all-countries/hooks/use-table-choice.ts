import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export type TableChoice = 'hotspots' | 'all';

/**
 * Which table the overview shows: the ranked hotspots (default) or every country of the batch
 * (`?table=all`), with its region filter (`?region=Africa/Western Africa`). Both in the URL.
 */
export function useTableChoice(): {
  table: TableChoice;
  region: string;
  setTable: (table: TableChoice) => void;
  setRegion: (region: string) => void;
} {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (value === null || value === '') updated.delete(key);
          else updated.set(key, value);
          return updated;
        },
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [setParams],
  );
  return {
    table: params.get('table') === 'all' ? 'all' : 'hotspots',
    region: params.get('region') ?? '',
    setTable: useCallback((table) => update('table', table === 'all' ? 'all' : null), [update]),
    setRegion: useCallback((region) => update('region', region), [update]),
  };
}
