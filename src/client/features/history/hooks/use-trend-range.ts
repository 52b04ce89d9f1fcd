import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_RANGE, parseRange, type TrendRange } from '../utils/range';

/** The trend range in the URL (`?trend=90d`; the default is left out so URLs stay short). */
export function useTrendRange(param = 'trend'): [TrendRange, (range: TrendRange) => void] {
  const [params, setParams] = useSearchParams();
  const range = parseRange(params.get(param));
  const setRange = useCallback(
    (next: TrendRange) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next === DEFAULT_RANGE) updated.delete(param);
          else updated.set(param, next);
          return updated;
        },
        { replace: true, preventScrollReset: true, flushSync: true },
      ),
    [param, setParams],
  );
  return [range, setRange];
}
