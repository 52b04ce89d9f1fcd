import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { useAppNavigate } from './app-link';
import { useLatest } from './use-latest';

/** New query parameters made from the current ones, or null when nothing is to change. */
export type ParamsUpdate = (current: URLSearchParams) => URLSearchParams | null;

/**
 * Replaces the page's query parameters (no history entry, no scroll). `flushSync` for an input
 * the URL controls, which must change within its event; otherwise the page follows the new URL
 * as a transition (react-router's RouterProvider), which a later click or key press interrupts.
 */
export type ParamsWriter = (
  update: ParamsUpdate,
  options?: { flushSync?: boolean },
) => Promise<void>;

/**
 * useSearchParams' setter that stays the same function for the page's life: that setter is
 * made again on every URL change, so a memoised component given it was drawn again by a change
 * of any parameter (a tier box redrew the whole world map, issue 32 point 7). Like that setter,
 * it starts from the parameters of the last render. Resolves when the router has the new URL.
 */
export function useParamsWriter(): ParamsWriter {
  // react-router's navigate through ours (a `?…` target is kept as it is: same batch, same
  // language), the same function for the page's life.
  const navigate = useAppNavigate();
  const searchRef = useLatest(useLocation().search);
  return useCallback(
    async (update, options) => {
      const next = update(new URLSearchParams(searchRef.current));
      if (next === null) return;
      await navigate(`?${next.toString()}`, {
        replace: true,
        preventScrollReset: true,
        flushSync: options?.flushSync,
      });
    },
    [navigate, searchRef],
  );
}
